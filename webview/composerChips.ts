/**
 * The composer's attachment chips of every channel (issue 21), held for `ChannelStore`: the chips now (not at the next
 * frame), kept across the webview's reloads (`setState`) like the draft they go with, and the `composer/attach`
 * events of a channel not open yet, handed over when it opens.
 */
import type { AttachmentRequest, HostEvents } from "../src/shared/protocol";
import type { PersistedState, ViewState } from "./viewState";

/** Whether two chips are the same context (same kind, file and lines; an image by its data, terminal output by its text). */
export function sameAttachment(a: AttachmentRequest, b: AttachmentRequest): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === "image" || b.kind === "image") return a.kind === "image" && b.kind === "image" && a.data === b.data;
  if (a.kind === "terminal" || b.kind === "terminal") return a.kind === "terminal" && b.kind === "terminal" && a.text === b.text;
  return a.path === b.path && a.range?.start === b.range?.start && a.range?.end === b.range?.end;
}

/** The chips by channel id and the attach events waiting for their channel; `show` puts a change in the view's state. */
export class ComposerChips {
  private chips: Record<string, readonly AttachmentRequest[]> = {};
  private waiting: HostEvents["composer/attach"][] = [];

  constructor(
    private readonly show: (patch: Pick<ViewState, "attachments">) => void,
    private readonly persist: (patch: PersistedState) => void,
  ) {}

  /** The chips of `channelId`, now. */
  of(channelId: string | undefined): readonly AttachmentRequest[] {
    return channelId ? (this.chips[channelId] ?? []) : [];
  }

  /** Replaces the chips of `channelId` (a chip removed, the chips taken by a send or put back on refusal), and saves them. */
  set(channelId: string, attachments: readonly AttachmentRequest[]): void {
    const { [channelId]: _old, ...rest } = this.chips;
    this.chips = attachments.length > 0 ? { ...rest, [channelId]: attachments } : rest;
    this.show({ attachments: this.chips });
    this.persist({ chips: this.chips });
  }

  /** The chips saved by an earlier load of the webview (`PersistedState.chips`, already checked). */
  restore(chips: Readonly<Record<string, readonly AttachmentRequest[]>>): void {
    this.chips = { ...chips };
    this.show({ attachments: this.chips });
  }

  /** A `composer/attach` event, kept until its channel is the open one ({@link takeFor}). */
  arrive(target: HostEvents["composer/attach"]): void {
    this.waiting.push(target);
  }

  /**
   * Adds the waiting events of the open channel `channelId` to its chips (no duplicate) and returns the agent to
   * mention, if one asked (the last); undefined when none waited for it (nothing to focus).
   */
  takeFor(channelId: string | undefined): { mention?: string } | undefined {
    const now = this.waiting.filter((a) => a.channelId === channelId);
    if (!channelId || now.length === 0) return undefined;
    this.waiting = this.waiting.filter((a) => a.channelId !== channelId);
    const chips = [...this.of(channelId)];
    for (const a of now.flatMap((t) => t.attachments)) if (!chips.some((c) => sameAttachment(c, a))) chips.push(a);
    this.set(channelId, chips);
    const mention = [...now].reverse().find((t) => t.mention)?.mention;
    return mention ? { mention } : {};
  }
}
