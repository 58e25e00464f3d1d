/**
 * Notifications (issue 21): which settled turns and requests for the user deserve a VS Code notification, and how a
 * burst of them becomes one. Pure (no `vscode` import): `src/vscode/Notifications.ts` feeds it the app's events and
 * what the user is looking at, and shows what it decides.
 */
import * as l10n from "@vscode/l10n";
import type { PendingPermission } from "../events/events";
import type { MessageView } from "../shared/protocol";

/** The `sidekicks.notifications` setting: every finished turn and request, only what needs the user, or none. */
export type NotifySetting = "all" | "needsYou" | "off";

/** The setting's values, first the default. */
export const NOTIFY_SETTINGS: readonly NotifySetting[] = ["all", "needsYou", "off"];

/** Reads the setting as VS Code hands it over (any JSON): an unknown value is the default, `all`. */
export function asNotifySetting(value: unknown): NotifySetting {
  return (NOTIFY_SETTINGS as readonly unknown[]).includes(value) ? (value as NotifySetting) : "all";
}

/**
 * Something an agent did that the user may want to hear about: a turn settled (`done`: completed; `failed`; `refused`:
 * ACP stop reason `refusal`) or a permission request began waiting. `messageId` is the answer the card or text is in.
 */
export type Notice =
  | { kind: "done" | "failed" | "refused"; agent: string; channelId: string; messageId: string }
  | { kind: "permission"; agent: string; channelId: string; messageId: string; requestId: string; title: string };

/** What the user is looking at: whether the window has focus, and the channels shown in a visible view or tab. */
export interface Watching {
  windowFocused: boolean;
  visibleChannelIds: readonly string[];
}

/** How loud a notification is: information for a finished turn, warning for what needs the user or failed. */
export type NoticeLevel = "info" | "warning";

/** The level of a notice: a turn done is information; a failure, a refusal or a request for the user, a warning. */
export function levelOf(notice: Notice): NoticeLevel {
  return notice.kind === "done" ? "info" : "warning";
}

/**
 * Whether `notice` becomes a notification: never with the setting `off`; with `needsYou`, only warnings (a permission
 * request, a failed or refused turn); never while the user looks at it (window focused and its channel shown in a
 * visible view or tab).
 */
export function shouldNotify(notice: Notice, watching: Watching, setting: NotifySetting): boolean {
  if (setting === "off") return false;
  if (setting === "needsYou" && levelOf(notice) !== "warning") return false;
  return !(watching.windowFocused && watching.visibleChannelIds.includes(notice.channelId));
}

/**
 * The notice for a `message/finished` event: an agent's answer that settled completed, failed or refused (the stop
 * reason `refusal`). Cancelled (the user stopped it), interrupted (a reload) and user or system messages are none.
 */
export function noticeOfFinished(message: MessageView): Notice | undefined {
  const agent = message.author.kind === "agent" ? message.author.agentName : undefined;
  if (!agent) return undefined;
  const at = { agent, channelId: message.channelId, messageId: message.id };
  if (message.outcome === "refused" || message.stopReason === "refusal") return { kind: "refused", ...at };
  if (message.outcome === "failed") return { kind: "failed", ...at };
  if (message.outcome === "completed") return { kind: "done", ...at };
  return undefined;
}

/**
 * The permission requests of a `permissions/pending` list not seen in the previous one (`seen`: request ids, updated
 * in place to the list's): each new request is one notice, a request still waiting is not announced again.
 */
export function newPermissionNotices(waiting: readonly PendingPermission[], seen: Set<string>): Notice[] {
  const fresh = waiting.filter((w) => !seen.has(w.requestId));
  seen.clear();
  for (const w of waiting) seen.add(w.requestId);
  return fresh.map((w) => ({ kind: "permission", agent: w.agent, channelId: w.channelId, messageId: w.messageId, requestId: w.requestId, title: w.title }));
}

/** One notification: its level, its sentence, and the notice its action opens (the first that needs the user). */
export interface Notification {
  level: NoticeLevel;
  text: string;
  target: Notice;
}

const hash = (name: string) => (name.startsWith("@") ? name : `#${name}`);

/**
 * The one notification for a burst of notices (in arrival order), channels named by `channelName` (id → name; the id
 * when unknown). One notice: a sentence about it; several: a count and the agents, and the action opens the first
 * that needs the user (a permission first, then a failure), else the first.
 * @throws Error when `notices` is empty
 */
export function summarize(notices: readonly Notice[], channelName: (channelId: string) => string | undefined): Notification {
  if (notices.length === 0) throw new Error("summarize: no notices");
  const where = (n: Notice) => hash(channelName(n.channelId) ?? n.channelId);
  const target = notices.find((n) => n.kind === "permission") ?? notices.find((n) => levelOf(n) === "warning") ?? notices[0]!;
  const level: NoticeLevel = notices.some((n) => levelOf(n) === "warning") ? "warning" : "info";
  if (notices.length === 1) return { level, text: sentence(target, where(target)), target };
  const who = [...new Set(notices.map((n) => `@${n.agent} (${where(n)})`))].join(", ");
  const waiting = notices.filter((n) => n.kind === "permission").length;
  const failed = notices.filter((n) => n.kind === "failed" || n.kind === "refused").length;
  const extra = [waiting ? l10n.t("{0} waiting for you", waiting) : "", failed ? l10n.t("{0} failed", failed) : ""].filter(Boolean).join(", ");
  const text = extra ? l10n.t("{0} agent updates: {1} — {2}.", notices.length, who, extra) : l10n.t("{0} agent updates: {1}.", notices.length, who);
  return { level, text, target };
}

function sentence(n: Notice, where: string): string {
  switch (n.kind) {
    case "done":
      return l10n.t("@{0} finished in {1}.", n.agent, where);
    case "failed":
      return l10n.t("@{0} failed in {1}.", n.agent, where);
    case "refused":
      return l10n.t("@{0} refused in {1}.", n.agent, where);
    case "permission":
      return l10n.t("@{0} asks your permission in {1}: {2}", n.agent, where, n.title);
  }
}

/** A timer the batcher schedules with: `setTimeout`/`clearTimeout` in the editor, a manual clock in tests. */
export interface BatchTimer {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

/**
 * Gathers notices that arrive close together (several agents finishing at once) and hands them to `flush` as one
 * burst: `windowMs` after the first of a burst, or at once when `maxBurst` have gathered. A notice whose request or
 * answer is already in the burst is not added twice.
 */
export class NoticeBatcher {
  private pending: Notice[] = [];
  private handle: unknown;

  constructor(
    private readonly flush: (burst: Notice[]) => void,
    private readonly timer: BatchTimer,
    private readonly windowMs = 1500,
    private readonly maxBurst = 20,
  ) {}

  /** Adds one notice to the current burst (starting one if none). */
  add(notice: Notice): void {
    const key = noticeKey(notice);
    if (this.pending.some((n) => noticeKey(n) === key)) return;
    this.pending.push(notice);
    if (this.pending.length >= this.maxBurst) return this.fire();
    if (this.handle === undefined) this.handle = this.timer.set(() => this.fire(), this.windowMs);
  }

  /** Drops the burst not shown yet. */
  dispose(): void {
    if (this.handle !== undefined) this.timer.clear(this.handle);
    this.handle = undefined;
    this.pending = [];
  }

  private fire(): void {
    if (this.handle !== undefined) this.timer.clear(this.handle);
    this.handle = undefined;
    const burst = this.pending;
    this.pending = [];
    if (burst.length > 0) this.flush(burst);
  }
}

function noticeKey(n: Notice): string {
  return n.kind === "permission" ? `p:${n.requestId}` : `m:${n.messageId}`;
}
