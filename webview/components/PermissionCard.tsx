/**
 * A permission request (ACP `session/request_permission`): one button per option the agent offers, and apart from
 * them Sidekicks' own "always" actions, which answer with the agent's one-time option and make a narrow Sidekicks
 * rule (ADR 0005). An agent's "always" option is the agent's own rule; Sidekicks remembers nothing for it.
 */
import * as l10n from "@vscode/l10n";
import { useState } from "preact/hooks";
import type { PermissionPart } from "../../src/shared/protocol";
import { InlineCode } from "./InlineCode";
import { toolTitle } from "../sidekicksTools";

/**
 * Answers a request (with `remember`, a one-time option, and Sidekicks answers the same request so from now on);
 * resolves whether the host accepted the answer, rejects with the host's error.
 */
export type AnswerPermission = (requestId: string, optionId: string, remember?: boolean) => Promise<boolean>;

/** A title longer than this (characters, or lines) is folded, its buttons kept in view (issue 18). */
const FOLD_CHARS = 600;
const FOLD_LINES = 6;

/** Stands for the request's title in the translated sentence, which is split around it. */
const TITLE_MARK = "\u0000";

/**
 * Pending (no `outcome`, message still streaming): buttons enabled; a click posts `permission/answer` and disables
 * them until the host's `outcome` arrives. Answered: buttons disabled, the chosen option's name (or "Cancelled").
 */
export function PermissionCard(props: { part: PermissionPart; live: boolean; answer: AnswerPermission; agent?: string }) {
  const { part, live, answer } = props;
  const agent = props.agent ?? "";
  const [answering, setAnswering] = useState<string | undefined>(undefined);
  const [note, setNote] = useState<string | undefined>(undefined);
  const [unfolded, setUnfolded] = useState(false);
  const long = part.title.length > FOLD_CHARS || part.title.split("\n").length > FOLD_LINES;
  const outcome = part.outcome;
  const open = outcome === undefined && live && answering === undefined;

  const choose = async (optionId: string, remember = false): Promise<void> => {
    if (!open) return;
    setAnswering(optionId);
    setNote(undefined);
    try {
      const accepted = await answer(part.requestId, optionId, remember);
      if (!accepted) setNote(l10n.t("The agent no longer waits for this answer."));
    } catch (err) {
      setAnswering(undefined);
      setNote(err instanceof Error ? err.message : String(err));
    }
  };

  const chosen = outcome ?? answering;
  let result: string | undefined;
  if (outcome === "cancelled") result = part.unanswered ? l10n.t("Not answered") : l10n.t("Cancelled");
  else if (outcome !== undefined) result = l10n.t("Chosen: {0}", part.options.find((o) => o.optionId === outcome)?.name ?? outcome);
  else if (!live) result = l10n.t("Not answered");
  // The title goes in <strong> wherever the language puts it in the sentence.
  const [allowBefore, allowAfter] = l10n.t("Allow {0}?", TITLE_MARK).split(TITLE_MARK);

  return (
    <div
      class="permission card"
      data-request-id={part.requestId}
      data-state={outcome === undefined ? (live ? "pending" : "unanswered") : outcome === "cancelled" ? "cancelled" : part.auto ? "auto" : "answered"}
      role="group"
      aria-label={l10n.t("Permission request: {0}", part.title)}
    >
      <div class="card-header">
        <span class="permission-icon" aria-hidden="true">?</span>
        <span class="permission-title" data-folded={long && !unfolded ? "true" : undefined}>
          {part.untitled ? (
            // Neither the request nor its tool call had a title: "Allow Permission requested?" said nothing.
            agent ? l10n.t("Allow this request of @{0}? It gave no title saying what it is for.", agent) : l10n.t("Allow this request? The agent gave no title saying what it is for.")
          ) : (
            <>
              {allowBefore}
              <strong>
                <InlineCode text={toolTitle(part.title)} />
              </strong>
              {allowAfter}
            </>
          )}
        </span>
      </div>
      {long && (
        // A long request (a whole script) is folded so that its buttons stay in view; it scrolls inside, or opens whole.
        <button type="button" class="permission-unfold" aria-expanded={unfolded} onClick={() => setUnfolded(!unfolded)}>
          {unfolded ? l10n.t("Fold the request") : l10n.t("Show the whole request ({0} characters)", part.title.length.toLocaleString())}
        </button>
      )}
      <div class="permission-options" onKeyDown={moveBetweenOptions}>
        {part.options.map((option) => (
          <button
            type="button"
            key={option.optionId}
            class={`permission-option kind-${option.kind}${chosen === option.optionId ? " chosen" : ""}`}
            data-option-id={option.optionId}
            disabled={!open}
            aria-pressed={chosen === option.optionId}
            title={option.kind === "allow_always" || option.kind === "reject_always" ? l10n.t("@{0}'s own option: @{0} decides what it covers and keeps that rule itself. Sidekicks remembers nothing for it.", agent) : undefined}
            onClick={() => void choose(option.optionId)}
          >
            {option.name}
          </button>
        ))}
      </div>
      {open && <SidekicksRule part={part} agent={agent} choose={(optionId) => void choose(optionId, true)} />}
      {result && <div class="permission-outcome">{result}</div>}
      {part.auto && (
        <div class="permission-auto" title={l10n.t("Set by the agent's permissions in sidekicks.yaml, or by a Sidekicks rule (Sidekicks: Remembered permissions…). Not a safety check.")}>
          {part.auto}
        </div>
      )}
      {part.notice && <div class="permission-notice">{part.notice}</div>}
      {note && <div class="permission-note">{note}</div>}
    </div>
  );
}

/**
 * Sidekicks' own "always" actions on a pending card: each answers with the agent's one-time option and makes a rule
 * that answers @agent's requests of the same tool kind, exactly the same title and the same files the same way (the
 * host's `ruleFor` applies the same conditions). Nothing when the title is blank or there is no one-time option.
 */
function SidekicksRule(props: { part: PermissionPart; agent: string; choose: (optionId: string) => void }) {
  const { part, agent, choose } = props;
  if (part.title.trim() === "" || part.untitled) return null; // no narrow rule to make (`ruleKeyOf`)
  const allow = part.options.find((o) => o.kind === "allow_once");
  const reject = part.options.find((o) => o.kind === "reject_once");
  if (!allow && !reject) return null;
  const kind = part.toolKind && part.toolKind.trim() !== "" ? part.toolKind : "other";
  const files = [...new Set(part.paths ?? [])].sort().join(", ");
  // The title is named, not repeated whole: a request that is a whole script is already shown (folded) above.
  const title = part.title.length > 160 ? `${part.title.slice(0, 160)}…` : part.title;
  const rule = files
    ? l10n.t("For @{0}'s requests titled exactly “{1}” on exactly {2} (tool kind {3}): Sidekicks answers with the one-time option, without asking, until you forget the rule.", agent, title, files, kind)
    : l10n.t("For @{0}'s requests titled exactly “{1}” (tool kind {2}): Sidekicks answers with the one-time option, without asking, until you forget the rule.", agent, title, kind);
  // The rule matches the raw title the agent sent; the card above says a Sidekicks tool in words: both are named.
  const said = toolTitle(part.title);
  const matches = said === part.title ? rule : `${said}. ${rule}`;
  return (
    <div class="permission-rule" role="group" aria-label={l10n.t("Sidekicks rule")}>
      <div class="permission-rule-actions">
        <span class="permission-rule-label">{l10n.t("Sidekicks:")}</span>
        {allow && (
          <button type="button" class="permission-remember" data-decision="allow" data-option-id={allow.optionId} title={l10n.t("Answers “{0}” now. {1}", allow.name, matches)} onClick={() => choose(allow.optionId)}>
            {l10n.t("Always allow this request")}
          </button>
        )}
        {reject && (
          <button type="button" class="permission-remember" data-decision="reject" data-option-id={reject.optionId} title={l10n.t("Answers “{0}” now. {1}", reject.name, matches)} onClick={() => choose(reject.optionId)}>
            {l10n.t("Always reject this request")}
          </button>
        )}
      </div>
      <div class="permission-rule-matches">{matches}</div>
    </div>
  );
}

/**
 * Left/Right (and Up/Down) move the focus between a card's option buttons, as in a toolbar, Home and End to the first
 * and the last; Tab still goes through them. A trial found only Tab moved between "Allow once" and "Reject".
 */
function moveBetweenOptions(event: KeyboardEvent): void {
  const step = event.key === "ArrowRight" || event.key === "ArrowDown" ? 1 : event.key === "ArrowLeft" || event.key === "ArrowUp" ? -1 : 0;
  const edge = event.key === "Home" || event.key === "End";
  if ((step === 0 && !edge) || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  const buttons = [...(event.currentTarget as HTMLElement).querySelectorAll<HTMLButtonElement>("button:not([disabled])")];
  const at = buttons.indexOf(event.target as HTMLButtonElement);
  if (at < 0) return;
  event.preventDefault();
  event.stopPropagation();
  const to = edge ? (event.key === "Home" ? 0 : buttons.length - 1) : (at + step + buttons.length) % buttons.length;
  buttons[to]?.focus();
}
