/**
 * A member's session controls in the channel header (issue 6, "Session controls"): a compact button showing the
 * session's mode and usage ("Code · 12.3k / 200k · $0.04"), which opens a small dialog with the session's title, its
 * mode (ACP `session/set_mode`), its config options such as model and effort (ACP `session/set_config_option`), the
 * legacy model choice (`session/set_model`) and the usage in full. Usable by keyboard: Enter or Space opens it, the
 * first control takes the focus, Escape closes it and gives the focus back to the button. A change the agent refuses
 * shows the reason and the control goes back to the session's value.
 */
import "@vscode-elements/elements/dist/vscode-single-select/index.js";
import "@vscode-elements/elements/dist/vscode-option/index.js";
import "@vscode-elements/elements/dist/vscode-checkbox/index.js";
import * as l10n from "@vscode/l10n";
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import type { SessionChange, SessionConfigOptionView, SessionStateView } from "../../src/shared/protocol";
import { formatCost, formatCosts, sessionTotal } from "../../src/shared/usageTotals";

/** The component's user-facing words, in one place, in the editor's language (`@vscode/l10n`). */
const TEXT = {
  dialog: (agent: string) => l10n.t("Session settings of @{0}", agent),
  button: (agent: string, compact: string) => l10n.t("Session settings of @{0}: {1}", agent, compact),
  mode: () => l10n.t("Mode"),
  modeLine: (mode: string) => l10n.t("Mode: {0}", mode),
  model: () => l10n.t("Model"),
  modelLine: (model: string) => l10n.t("Model: {0}", model),
  on: () => l10n.t("on"),
  off: () => l10n.t("off"),
  usage: () => l10n.t("Usage"),
  title: () => l10n.t("Session"),
  session: () => l10n.t("session"),
  notLive: () => l10n.t("Last known settings: the session is not running; a change starts it again."),
  busy: () => l10n.t("Changing…"),
  tokens: (used: string, size: string, percent: string) => l10n.t("{0} of {1} tokens in context ({2})", used, size, percent),
  tokensCost: (used: string, size: string, percent: string, amount: string) => l10n.t("{0} of {1} tokens in context ({2}) · cost so far {3}", used, size, percent, amount),
  refused: (reason: string) => l10n.t("Not changed: {0}", reason),
  total: (amount: string) => l10n.t("{0} in this channel, earlier sessions included", amount),
  totalName: () => l10n.t("Total cost"),
  notRestored: (setting: string, value: string, reason: string) => l10n.t("Your choice {0}: {1} was not set again when the session opened: {2}", setting, value, reason),
};

/** The sentence for a choice the agent refused to take back (`notRestored`), with the names the session gives. */
export function notRestoredText(state: SessionStateView, entry: NonNullable<SessionStateView["notRestored"]>[number]): string {
  if (entry.setting === "mode") {
    const name = state.modes?.availableModes.find((m) => m.id === entry.value)?.name ?? entry.value;
    return TEXT.notRestored(TEXT.mode(), name, entry.reason);
  }
  if (entry.setting === "model") return TEXT.notRestored(TEXT.model(), state.models?.availableModels.find((m) => m.modelId === entry.value)?.name ?? entry.value, entry.reason);
  const option = state.configOptions?.find((o) => o.id === entry.setting);
  const value = option?.type === "select" ? (option.options.find((v) => v.value === entry.value)?.name ?? entry.value) : entry.value;
  return TEXT.notRestored(option?.name ?? entry.setting, value, entry.reason);
}

/** Config option categories first in this order (ACP `SessionConfigOptionCategory`), then the others as given. */
const CATEGORY_ORDER = ["mode", "model", "model_config", "thought_level"];

/** "950", "12.3k", "200k", "1.2M": a token count for the compact meter. */
export function compactTokens(n: number): string {
  if (n < 1000) return String(Math.round(n));
  if (n < 1_000_000) {
    const k = n / 1000;
    return `${k < 100 ? Math.round(k * 10) / 10 : Math.round(k)}k`;
  }
  const m = n / 1_000_000;
  return `${m < 100 ? Math.round(m * 10) / 10 : Math.round(m)}M`;
}

export { formatCost };

/** "12.3k / 200k · $0.04": the usage meter's text; "" without usage. */
export function usageText(usage: SessionStateView["usage"]): string {
  if (!usage) return "";
  const tokens = `${compactTokens(usage.used)} / ${compactTokens(usage.size)}`;
  return usage.cost ? `${tokens} · ${formatCost(usage.cost)}` : tokens;
}

/** The usage in full, for the tooltip and the dialog. */
function usageDetail(usage: NonNullable<SessionStateView["usage"]>): string {
  const percent = usage.size > 0 ? `${Math.round((usage.used / usage.size) * 100)}%` : "?";
  const used = usage.used.toLocaleString("en");
  const size = usage.size.toLocaleString("en");
  return usage.cost ? TEXT.tokensCost(used, size, percent, formatCost(usage.cost)) : TEXT.tokens(used, size, percent);
}

/** The current mode's name: from the session's modes, or from its config option of category `mode` (ACP). */
function modeName(state: SessionStateView): string | undefined {
  const modes = state.modes;
  if (modes) return modes.availableModes.find((m) => m.id === modes.currentModeId)?.name ?? modes.currentModeId;
  const option = state.configOptions?.find((o) => o.category === "mode" && o.type === "select");
  if (option?.type !== "select") return undefined;
  return option.options.find((v) => v.value === option.currentValue)?.name ?? option.currentValue;
}

/** The button's tooltip: title, mode, options and usage, one per line. */
export function sessionTooltip(state: SessionStateView): string {
  // A mode given as a config option has its line among the options below.
  const lines = [state.title ? `“${state.title}”` : undefined, state.modes ? TEXT.modeLine(modeName(state)!) : undefined];
  for (const o of state.configOptions ?? []) lines.push(`${o.name}: ${o.type === "boolean" ? (o.currentValue ? TEXT.on() : TEXT.off()) : (o.options.find((v) => v.value === o.currentValue)?.name ?? o.currentValue)}`);
  if (state.models) lines.push(TEXT.modelLine(state.models.availableModels.find((m) => m.modelId === state.models!.currentModelId)?.name ?? state.models.currentModelId));
  if (state.usage) lines.push(usageDetail(state.usage));
  const total = totalText(state);
  if (total) lines.push(total);
  for (const entry of state.notRestored ?? []) lines.push(notRestoredText(state, entry));
  if (!state.live) lines.push(TEXT.notLive());
  return lines.filter(Boolean).join("\n");
}

/** "$1.20 in this channel, earlier sessions included", when earlier sessions cost something; else "". */
export function totalText(state: SessionStateView): string {
  return state.spent?.length ? TEXT.total(formatCosts(sessionTotal(state))) : "";
}

/** True when the state has anything to show (a session that offers nothing and reported nothing shows no button). */
export function hasSessionControls(state: SessionStateView | undefined): state is SessionStateView {
  return !!state && !!(state.modes || state.configOptions?.length || state.models || state.usage || state.title || state.spent?.length);
}

/** The compact button and its dialog for one member's session. */
export function SessionControls({ state, configure }: { state: SessionStateView; configure: (change: SessionChange) => Promise<string | undefined> }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const dialog = useRef<HTMLDivElement>(null);
  const root = useRef<HTMLSpanElement>(null);
  const id = `session-${state.agent}`;
  const compact = [modeName(state), usageText(state.usage)].filter(Boolean).join(" · ") || state.title || TEXT.session();
  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  // A press anywhere else closes the dialog, as VS Code's own pop-ups do (a click on text moves no focus, so
  // `onFocusOut` alone would leave it open).
  useEffect(() => {
    if (!open) return;
    const outside = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    // Escape with the focus on the button or nowhere (the dialog's own controls not focused yet) closes it too; the
    // dialog handles Escape inside itself.
    const escape = (event: KeyboardEvent) => {
      const target = event.target as Node;
      if (event.key !== "Escape" || dialog.current?.contains(target) || !(root.current?.contains(target) || target === document.body)) return;
      event.preventDefault();
      close();
    };
    document.addEventListener("pointerdown", outside, true);
    document.addEventListener("keydown", escape);
    return () => {
      document.removeEventListener("pointerdown", outside, true);
      document.removeEventListener("keydown", escape);
    };
  }, [open]);
  useLayoutEffect(() => {
    if (!open) return;
    const first = dialog.current?.querySelector<HTMLElement>("vscode-single-select, vscode-checkbox");
    if (first) focusWhenReady(first);
    else dialog.current?.focus();
  }, [open]);
  return (
    <span class="session-controls" ref={root}>
      <button
        ref={button}
        type="button"
        class="session-trigger"
        data-agent={state.agent}
        data-not-restored={state.notRestored?.length ? "true" : undefined}
        aria-label={TEXT.button(state.agent, compact)}
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        title={sessionTooltip(state)}
        onClick={() => (open ? close() : setOpen(true))}
      >
        {compact}
      </button>
      {open && (
        <div
          ref={dialog}
          id={id}
          class="session-popover"
          role="dialog"
          aria-label={TEXT.dialog(state.agent)}
          tabIndex={-1}
          onKeyDownCapture={(e) => {
            // A select handles Escape itself while its list is open (and stops it there); otherwise Escape closes.
            const target = e.target as HTMLElement & { open?: boolean };
            if (e.key !== "Escape" || (target.tagName === "VSCODE-SINGLE-SELECT" && target.open)) return;
            e.preventDefault();
            e.stopPropagation();
            close();
          }}
          onFocusOut={(e) => {
            const next = (e as FocusEvent).relatedTarget as Node | null;
            if (next && !dialog.current?.contains(next) && next !== button.current) setOpen(false);
          }}
        >
          <SessionDialog state={state} configure={configure} />
        </div>
      )}
    </span>
  );
}

/** The dialog's content: title, controls, usage, and the last refusal. */
function SessionDialog({ state, configure }: { state: SessionStateView; configure: (change: SessionChange) => Promise<string | undefined> }) {
  const [refused, setRefused] = useState<string | undefined>(undefined);
  const [pending, setPending] = useState(false);
  /** Bumped after a refusal: the controls are rebuilt from the session's values (the one that moved goes back). */
  const [revision, setRevision] = useState(0);
  const focusAfter = useRef<string | undefined>(undefined);
  const pendingRef = useRef(false);
  const root = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    if (!focusAfter.current) return;
    const control = root.current?.querySelector<HTMLElement>(`[data-control="${CSS.escape(focusAfter.current)}"]`);
    if (control) focusWhenReady(control);
    focusAfter.current = undefined;
  }, [revision]);
  // Controls stay enabled while a change is pending (disabling one would take the keyboard focus away); a second
  // change waits for the first to be answered.
  const change = async (control: string, c: SessionChange) => {
    if (pendingRef.current) {
      focusAfter.current = control;
      setRevision((r) => r + 1);
      return;
    }
    pendingRef.current = true;
    setPending(true);
    setRefused(undefined);
    const refusal = await configure(c);
    pendingRef.current = false;
    setPending(false);
    if (refusal !== undefined) {
      setRefused(TEXT.refused(refusal));
      focusAfter.current = control;
      setRevision((r) => r + 1);
    }
  };
  const options = [...(state.configOptions ?? [])].sort((a, b) => rank(a) - rank(b));
  return (
    <div ref={root} class="session-dialog" aria-busy={pending}>
      {state.title && (
        <p class="session-title">
          <span class="session-field-name">{TEXT.title()}</span> {state.title}
        </p>
      )}
      {state.modes && (
        <Select
          key={`mode-${revision}`}
          control="mode"
          label={TEXT.mode()}
          value={state.modes.currentModeId}
          values={state.modes.availableModes.map((m) => ({ value: m.id, name: m.name, description: m.description }))}
          onChange={(value) => void change("mode", { kind: "mode", modeId: value })}
        />
      )}
      {options.map((o) =>
        o.type === "select" ? (
          <Select
            key={`config-${o.id}-${revision}`}
            control={`config-${o.id}`}
            label={o.name}
            title={o.description}
            value={o.currentValue}
            values={o.options.map((v) => ({ value: v.value, name: v.group ? `${v.group}: ${v.name}` : v.name, description: v.description }))}
              onChange={(value) => void change(`config-${o.id}`, { kind: "config", configId: o.id, value })}
          />
        ) : (
          <label key={`config-${o.id}-${revision}`} class="session-field" title={o.description}>
            <vscode-checkbox
              data-control={`config-${o.id}`}
              checked={o.currentValue}
                  label={o.name}
              onChange={(e: Event) => void change(`config-${o.id}`, { kind: "config", configId: o.id, value: (e.target as HTMLInputElement).checked })}
            >
              {o.name}
            </vscode-checkbox>
          </label>
        ),
      )}
      {state.models && (
        <Select
          key={`model-${revision}`}
          control="model"
          label={TEXT.model()}
          value={state.models.currentModelId}
          values={state.models.availableModels.map((m) => ({ value: m.modelId, name: m.name, description: m.description }))}
          onChange={(value) => void change("model", { kind: "model", modelId: value })}
        />
      )}
      {state.usage && (
        <p class="session-usage">
          <span class="session-field-name">{TEXT.usage()}</span> <span class="session-usage-detail">{usageDetail(state.usage)}</span>
        </p>
      )}
      {totalText(state) && (
        <p class="session-total">
          <span class="session-field-name">{TEXT.totalName()}</span> <span class="session-total-detail">{totalText(state)}</span>
        </p>
      )}
      {state.notRestored?.map((entry) => (
        <p key={entry.setting} class="session-not-restored" role="note">
          {notRestoredText(state, entry)}
        </p>
      ))}
      {!state.live && <p class="session-not-live">{TEXT.notLive()}</p>}
      {pending && (
        <p class="session-pending" role="status">
          {TEXT.busy()}
        </p>
      )}
      {refused && (
        <p class="session-error" role="alert">
          {refused}
        </p>
      )}
    </div>
  );
}

/** One labelled `vscode-single-select`; `onChange` gets the picked value when it differs from `value`. */
function Select(props: {
  control: string;
  label: string;
  title?: string;
  value: string;
  values: { value: string; name: string; description?: string }[];
  onChange: (value: string) => void;
}) {
  const labelId = `session-label-${props.control}`;
  return (
    <div class="session-field" title={props.title}>
      <span id={labelId} class="session-field-name">
        {props.label}
      </span>
      <vscode-single-select
        data-control={props.control}
        label={props.label}
        aria-labelledby={labelId}
        value={props.value}
        onChange={(e: Event) => {
          const value = (e.target as HTMLSelectElement).value;
          if (value !== props.value) props.onChange(value);
        }}
      >
        {props.values.map((v) => (
          <vscode-option key={v.value} value={v.value} description={v.description} selected={v.value === props.value}>
            {v.name}
          </vscode-option>
        ))}
      </vscode-single-select>
    </div>
  );
}

/** Focuses a @vscode-elements control once it has rendered (it becomes focusable in its first update). */
function focusWhenReady(el: HTMLElement): void {
  const ready = (el as HTMLElement & { updateComplete?: Promise<unknown> }).updateComplete;
  if (ready) void ready.then(() => el.focus());
  else el.focus();
}

function rank(o: SessionConfigOptionView): number {
  const i = o.category ? CATEGORY_ORDER.indexOf(o.category) : -1;
  return i === -1 ? CATEGORY_ORDER.length : i;
}
