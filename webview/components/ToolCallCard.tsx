/** A tool call the agent reported (ACP `tool_call` / `tool_call_update`). */
import * as l10n from "@vscode/l10n";
import { useContext, useMemo } from "preact/hooks";
import type { ToolCallDiff, ToolCallLocation, ToolCallPart, ToolCallStatus } from "../../src/shared/protocol";
import { stripAnsi, terminalText } from "../ansi";
import { lineEndingChange } from "../../src/shared/lineEndings";
import { diffStats, type DiffStats } from "../diffStats";
import { EditorContext } from "../editorActions";
import { AgentTerminal } from "./AgentTerminal";
import { ContentBlock } from "./ContentBlock";
import { answerText, ChildAnswersContext, DelegateChild } from "./DelegateChild";
import { EmbeddedTerminal } from "./EmbeddedTerminal";
import { InlineCode } from "./InlineCode";
import { Markdown } from "./Markdown";
import { isMarkdownContent } from "../toolContent";
import { terminalScreen } from "../../src/shared/terminalScreen";
import { toolTitle } from "../sidekicksTools";
import { shortPath } from "../shortPath";

/** A tool call's status in words, in the editor's language. */
const statusLabel = (status: ToolCallStatus): string =>
  ({ pending: l10n.t("pending"), in_progress: l10n.t("running"), completed: l10n.t("done"), failed: l10n.t("failed") })[status];

/**
 * Whether a tool call is shown as "no result": the agent ended its turn without reporting its end (`noResult`, set
 * when the turn settled), or — for answers saved before that flag existed — the answer is over (`live` false) and
 * the tool call still says `pending`/`in_progress` with no other explanation.
 */
function hasNoResult(part: ToolCallPart, live: boolean): boolean {
  if (part.cancelled || part.outcomeUnknown) return false;
  return part.noResult === true || (!live && (part.status === "pending" || part.status === "in_progress"));
}

/**
 * Card with the tool kind, title and a status badge; then, when present, the files it touches (links that open the
 * file at the line), its diffs (file, `+added −removed`, "Open diff" in the editor's diff view), its text content
 * (Markdown) and its terminals: live ones the client created, and the output of those the agent ran itself
 * (`awaitingPermission`: a permission request of the answer for this tool call waits, so it has not run yet).
 */
export function ToolCallCard({ part, live, awaitingPermission = false, reveal }: { part: ToolCallPart; live: boolean; awaitingPermission?: boolean; reveal?: (messageId: string) => void }) {
  const editor = useContext(EditorContext);
  const noResult = hasNoResult(part, live);
  // A command whose permission request waits has not run yet (Claude Code names its terminal before asking): its own
  // terminal is not said to be running.
  const runs = live && !awaitingPermission;
  const answers = useContext(ChildAnswersContext);
  // A delegation's card says what it is in words, whoever announced it (Claude Code names it `mcp__sidekicks__delegate`),
  // and the result the agent got back is not shown twice: it is the member's answer, nested just below.
  const delegation = part.delegation;
  // A tool call announced with only its id has no title: the card says so instead of showing an empty box.
  const title = delegation ? l10n.t("Delegated to @{0}", delegation.member) : part.title.trim() === "" ? l10n.t("Tool call (no title)") : toolTitle(part.title);
  const content = delegation && part.content !== undefined && sameText(part.content, answerText(answers?.find(delegation.childMessageId))) ? undefined : part.content;
  return (
    <div
      class="tool-call card"
      data-tool-call-id={part.toolCallId}
      data-status={part.status}
      data-outcome-unknown={part.outcomeUnknown ? "true" : undefined}
      data-cancelled={part.cancelled ? "true" : undefined}
      data-no-result={noResult ? "true" : undefined}
    >
      <div class="card-header">
        {part.kind && !delegation && <span class="tool-kind">{part.kind}</span>}
        <span class="tool-title" title={stripAnsi(part.title)}>
          <InlineCode text={title} />
        </span>
        {part.cancelled && (part.status === "completed" || part.status === "failed") ? (
          // The agent reported the end after Stop (Codex lets a command it runs itself go on): it ran on, and ended so.
          <span class={`status-badge status-${part.status}`} data-after-stop="true" title={l10n.t("You stopped the answer, but this went on running: the agent reported its end afterwards.")}>
            {part.status === "completed" ? l10n.t("done after Stop") : l10n.t("failed after Stop")}
          </span>
        ) : part.cancelled ? (
          <span
            class="status-badge status-cancelled"
            title={
              part.kind === "execute"
                ? l10n.t("Stopped before the agent reported its end. Stop asks the agent to end its command; a command the agent runs itself may go on until it ends (Codex lets it).")
                : l10n.t("Stopped before the agent reported its end")
            }
          >
            {l10n.t("cancelled")}
          </span>
        ) : part.outcomeUnknown ? (
          <span class="status-badge status-unknown" title={l10n.t("Last known status: {0}. The answer was interrupted before this tool call reported its end.", statusLabel(part.status))}
          >
            {l10n.t("outcome unknown")}
          </span>
        ) : noResult ? (
          <span class="status-badge status-no-result" title={l10n.t("The agent ended its turn without reporting this tool call's outcome (its last status: {0}).", statusLabel(part.status))}>
            {l10n.t("no result")}
          </span>
        ) : live && awaitingPermission && (part.status === "pending" || part.status === "in_progress") ? (
          // Codex reports its edit in_progress, Claude Code its command pending, while they ask: it has not run yet.
          <span class="status-badge status-awaiting" title={l10n.t("The agent asks your permission below before it runs this (its own status: {0}).", statusLabel(part.status))}>
            {l10n.t("awaiting permission")}
          </span>
        ) : (
          <span class={`status-badge status-${part.status}${live ? " live" : ""}`}>{statusLabel(part.status)}</span>
        )}
      </div>
      {part.delegation && <DelegateChild member={part.delegation.member} childMessageId={part.delegation.childMessageId} reveal={reveal} />}
      {part.locations && part.locations.length > 0 && (
        <ul class="tool-locations" aria-label={l10n.t("Files")}>
          {part.locations.map((location, i) => (
            <li key={i}>
              <button type="button" class="tool-location" title={l10n.t("Open {0}", locationText(location))} onClick={() => void editor.openLocation(location)}>
                {shortPath(location.path)}
                {location.line !== undefined && <span class="tool-location-line">:{location.line}</span>}
              </button>
            </li>
          ))}
        </ul>
      )}
      {part.diffs?.map((diff, i) => (
        <DiffSummary key={i} diff={diff} open={() => void editor.openDiff(diff)} />
      ))}
      {content && <ToolContent content={content} streaming={live && (part.status === "pending" || part.status === "in_progress")} />}
      {part.blocks && part.blocks.length > 0 && (
        <div class="tool-blocks">
          {part.blocks.map((block, i) => (
            <ContentBlock key={i} block={block} streaming={false} />
          ))}
        </div>
      )}
      {part.terminals?.map((terminalId) => {
        // A terminal the agent ran itself and reported in `_meta` shows what it reported; one the client created
        // (ACP terminal/create) shows live.
        const own = part.agentTerminals?.find((t) => t.terminalId === terminalId);
        return own ? <AgentTerminal key={terminalId} terminal={own} live={runs} named /> : <EmbeddedTerminal key={terminalId} terminalId={terminalId} />;
      })}
      {part.agentTerminals
        ?.filter((t) => !part.terminals?.includes(t.terminalId))
        .map((t) => <AgentTerminal key={t.terminalId} terminal={t} live={runs} named={false} />)}
    </div>
  );
}

/**
 * A tool call's text content, as a terminal would show it (field case 21: progress redrawn with CR or cursor moves
 * shows its last frame). Claude Code's content is Markdown (its outputs come fenced): rendered as Markdown, as Zed
 * does; any other is preformatted.
 */
function ToolContent({ content, streaming }: { content: string; streaming: boolean }) {
  const markdown = isMarkdownContent(content);
  // Markdown strips the escapes the screen leaves none of, and shows bidi controls itself.
  const shown = useMemo(() => (markdown ? terminalScreen(content) : terminalText(content)), [content, markdown]);
  return markdown ? (
    <div class="tool-content tool-markdown">
      <Markdown text={shown} streaming={streaming} />
    </div>
  ) : (
    <pre class="tool-content">{shown}</pre>
  );
}

/** Whether a tool result repeats `answer` (white space aside): the member's answer as the delegating agent got it. */
function sameText(content: string, answer: string | undefined): boolean {
  return answer !== undefined && answer !== "" && content.replace(/\s+/g, " ").trim() === answer.replace(/\s+/g, " ");
}

/** One diff: the file, its line counts, and a button that opens it in the editor's diff view. */
function DiffSummary({ diff, open }: { diff: ToolCallDiff; open: () => void }) {
  const { added, removed } = statsOf(diff);
  const created = diff.oldText === null;
  // Only the line endings changed (field case 13): said so, not "+120 −120".
  const eol = eolOf(diff);
  return (
    <div class="tool-diff" data-path={diff.path}>
      <span class="diff-file" title={diff.path}>
        {shortPath(diff.path)}
      </span>
      {created && <span class="diff-new">{l10n.t("new")}</span>}
      {eol ? (
        <span class="diff-eol" title={l10n.t("Every line differs only in its ending: the text is the same.")}>
          {l10n.t("line endings only: {0} → {1}", eol.from, eol.to)}
        </span>
      ) : (
        <span class="diff-stat" aria-label={added === 1 ? l10n.t("1 line added, {0} removed", removed) : l10n.t("{0} lines added, {1} removed", added, removed)}>
          <span class={`diff-added${added === 0 ? " zero" : ""}`}>+{added}</span> <span class={`diff-removed${removed === 0 ? " zero" : ""}`}>−{removed}</span>
        </span>
      )}
      <button type="button" class="diff-open" aria-label={l10n.t("Open diff of {0}", diff.path)} title={l10n.t("Open in the diff editor")} onClick={open}>
        {l10n.t("Open diff")}
      </button>
    </div>
  );
}

/** Diffs are immutable once received: their counts are computed once per object. */
const statsCache = new WeakMap<ToolCallDiff, DiffStats>();
function statsOf(diff: ToolCallDiff): DiffStats {
  let stats = statsCache.get(diff);
  if (!stats) statsCache.set(diff, (stats = diffStats(diff.oldText, diff.newText)));
  return stats;
}

/** Whether a diff only changes line endings, once per diff object too (it normalizes both whole texts). */
const eolCache = new WeakMap<ToolCallDiff, ReturnType<typeof lineEndingChange> | null>();
function eolOf(diff: ToolCallDiff): ReturnType<typeof lineEndingChange> {
  let eol = eolCache.get(diff);
  if (eol === undefined) eolCache.set(diff, (eol = lineEndingChange(diff.oldText, diff.newText) ?? null));
  return eol ?? undefined;
}

function locationText(location: ToolCallLocation): string {
  return location.line === undefined ? location.path : `${location.path}:${location.line}`;
}
