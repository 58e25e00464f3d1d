/**
 * The history's fixed rows: the one above the first loaded message (loading, failed with Retry, or the channel's
 * start), the empty channel's greeting, and the "Jump to latest" button.
 */
import * as l10n from "@vscode/l10n";
import type { OlderPages } from "../viewState";
import { channelLabel } from "../channelLabel";

/**
 * The row above the first loaded message: "Loading older messages…", a failed load with Retry, or the start of the
 * channel once everything is loaded. Always one line high, so its changes never move the messages below it.
 */
export function OlderRow({ channelName, older, retry }: { channelName: string; older?: OlderPages; retry?: () => void }) {
  if (!older) return <div class="history-older" aria-hidden="true" />;
  if (older.error !== undefined) {
    return (
      <div class="history-older history-older-failed" role="alert">
        <span>{TEXT.olderFailed(older.error)}</span>{" "}
        <button type="button" class="history-older-retry" onClick={() => retry?.()}>
          {TEXT.retry()}
        </button>
      </div>
    );
  }
  if (older.loading) return <div class="history-older history-older-loading" role="status">{TEXT.loadingOlder()}</div>;
  if (!older.more) return <div class="history-older history-older-start">{TEXT.start(channelLabel(channelName))}</div>;
  return <div class="history-older" aria-hidden="true" />;
}

/** An empty channel's first lines: its start, and how to begin (mention an agent, add a member, or a direct chat). */
export function HistoryEmpty({ channelName, memberCount }: { channelName: string; memberCount?: number }) {
  return (
    <div class="history-empty">
      <p class="history-empty-title">{TEXT.start(channelLabel(channelName))}</p>
      <p>
        {channelName.startsWith("@")
          ? TEXT.direct(channelName)
          : memberCount === 0
            ? TEXT.noMembers()
            : TEXT.mention()}
      </p>
    </div>
  );
}

/** "Jump to latest", "(N new)" counting what came since the user left the bottom; `jump` scrolls there. */
export function JumpLatest({ newCount, jump }: { newCount: number; jump: () => void }) {
  return (
    <button type="button" class="jump-latest" title={TEXT.jumpTitle()} onClick={jump}>
      <span aria-hidden="true">↓</span> {newCount > 0 ? TEXT.jumpNew(newCount) : TEXT.jump()}
    </button>
  );
}

/** The rows' words, in the editor's language (`@vscode/l10n`, configured before the first render). */
const TEXT = {
  start: (channel: string) => l10n.t("This is the start of {0}.", channel),
  direct: (channel: string) => l10n.t("Everything you write here goes to {0}.", channel),
  noMembers: () => l10n.t("No agent is a member yet: add one with + member in the header, then mention it with @name."),
  mention: () => l10n.t("Mention an agent with @name to ask it something."),
  loadingOlder: () => l10n.t("Loading older messages…"),
  olderFailed: (reason: string) => l10n.t("Could not load older messages: {0}", reason),
  retry: () => l10n.t("Retry"),
  jump: () => l10n.t("Jump to latest"),
  jumpNew: (n: number) => l10n.t("Jump to latest ({0} new)", n),
  jumpTitle: () => l10n.t("Scroll to the latest message (End)"),
};
