/**
 * The actions on one message of the history (issue 19): Copy as Markdown, Quote in composer, Open in editor, Edit (a
 * user message, sent again as a new turn), Regenerate (an agent's answer, asked again as a new turn), and the link
 * that reveals the message an edited message or a regenerated answer came from. The Markdown is the host's
 * (`message/markdown`: the channel export's, for one message); the view copies it or quotes it.
 */
import * as l10n from "@vscode/l10n";
import { copyText } from "./codeBlocks";
import type { ActionRefusals } from "./editorActions";
import type { HostConnection } from "./host";

/** What a message's toolbar does; each resolves whether it was done (a failure says why in `refusals`). */
export interface MessageActions {
  /** Copies the message as Markdown (heading with author and time, then its body) to the clipboard. */
  copyMarkdown(messageId: string): Promise<boolean>;
  /** Inserts the message's body as a Markdown quote (`> …`) at the composer's caret, keeping what is typed there. */
  quote(messageId: string): Promise<boolean>;
  /** Opens the message's Markdown in an untitled editor tab. */
  openInEditor(messageId: string): Promise<boolean>;
  /** Puts a user message's text in the composer in edit mode; Send sends it as a new message linked to this one. */
  edit(messageId: string, text: string): void;
  /** Asks the agent that wrote this answer the same request again, as a new turn (`turn/regenerate`). */
  regenerate(messageId: string): Promise<boolean>;
  /** Brings a message of the open channel into view and focuses it (loading older pages first when needed). */
  reveal(messageId: string): void;
  /** Focuses the composer to write to `agent`: an empty draft starts with `@agent `; one being written is kept. */
  address(agent: string): void;
}

/** What the composer offers the message actions; attached while a composer is shown (`Composer.tsx`). */
export interface ComposerTarget {
  /** Inserts `quoted` (Markdown quote lines) at the caret, on lines of its own, keeping the draft around it. */
  insert(quoted: string): void;
  /** Enters edit mode for user message `messageId` with `text` (the draft is set aside and comes back after). */
  edit(messageId: string, text: string): void;
  /** The edited message's answers changed `undoable` files an undo would restore: offer to undo them first. */
  offerUndo(messageId: string, undoable: number): void;
  /** Focuses the box; an empty draft starts with `@agent `. */
  mention(agent: string): void;
}

/** The composer the actions reach: the one shown now (each channel's composer attaches itself while mounted). */
export class ComposerLink {
  private target: ComposerTarget | undefined;

  /** Makes `target` the composer the actions reach; returns the detach. */
  attach(target: ComposerTarget): () => void {
    this.target = target;
    return () => {
      if (this.target === target) this.target = undefined;
    };
  }

  /** The attached composer, if one is shown. */
  get current(): ComposerTarget | undefined {
    return this.target;
  }
}

/**
 * `body` as a Markdown block quote: each line behind `> ` (an empty line as `>`), without the body's trailing empty
 * lines. An empty body quotes nothing.
 */
export function quoteMarkdown(body: string): string {
  const trimmed = body.replace(/\s+$/, "");
  if (trimmed === "") return "";
  return trimmed
    .split(/\r?\n/)
    .map((line) => (line.trim() === "" ? ">" : `> ${line}`))
    .join("\n");
}

/**
 * `text` with `quoted` inserted at `caret` on lines of its own: a blank line before it (unless at the start or after
 * one already) and after it (a quote ends at a blank line), nothing of `text` replaced. Returns the text and the caret
 * just after the quote's blank line, where the user goes on typing.
 */
export function insertQuote(text: string, caret: number, quoted: string): { text: string; caret: number } {
  const at = Math.max(0, Math.min(caret, text.length));
  const before = text.slice(0, at);
  const after = text.slice(at);
  const lead = before === "" || before.endsWith("\n\n") ? "" : before.endsWith("\n") ? "\n" : "\n\n";
  const trail = after.startsWith("\n\n") ? "" : after.startsWith("\n") ? "\n" : "\n\n";
  const inserted = `${lead}${quoted}${trail}`;
  return { text: before + inserted + after, caret: at + inserted.length };
}

/** The message actions over the host connection; failures are reported to `refusals`, shown above the composer. */
export function hostMessageActions(host: HostConnection, refusals: ActionRefusals, composer: ComposerLink, store: { reveal(messageId: string): void }): MessageActions {
  const ask = async <T>(run: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await run();
    } catch (err) {
      const why = err instanceof Error ? err.message.trim() : "";
      if (why !== "") refusals.report(why);
      return undefined;
    }
  };
  const markdownOf = (messageId: string) => ask(() => host.request("message/markdown", { messageId }));
  return {
    copyMarkdown: async (messageId) => {
      const found = await markdownOf(messageId);
      if (!found) return false;
      const copied = await copyText(found.markdown);
      if (!copied) refusals.report(l10n.t("The view could not write to the clipboard."));
      return copied;
    },
    quote: async (messageId) => {
      const target = composer.current;
      const found = target && (await markdownOf(messageId));
      if (!target || !found) return false;
      target.insert(quoteMarkdown(found.body));
      return true;
    },
    openInEditor: async (messageId) => (await ask(() => host.request("message/openInEditor", { messageId })))?.opened ?? false,
    edit: (messageId, text) => {
      const target = composer.current;
      if (!target) return;
      target.edit(messageId, text);
      // Asked after edit mode is on: the offer to undo the answers' files appears when the host has counted them.
      void host.request("message/answerFiles", { messageId }).then(
        ({ undoable }) => target.offerUndo(messageId, undoable),
        () => undefined, // no offer: the message is edited and sent again without undoing anything
      );
    },
    regenerate: async (messageId) => (await ask(() => host.request("turn/regenerate", { messageId }))) !== undefined,
    reveal: (messageId) => store.reveal(messageId),
    address: (agent) => composer.current?.mention(agent),
  };
}
