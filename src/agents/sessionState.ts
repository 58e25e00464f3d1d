import * as l10n from "@vscode/l10n";
import type { AgentUpdate, SessionSetup } from "../acp/types";
import { startsWithPreamble } from "../shared/preamble";
import { addCosts, asCosts, spentAfterUpdate } from "../shared/usageTotals";
import { asChoices } from "./sessionChoices";
import type { SessionChange, SessionStateView } from "../shared/protocol";

/** The `AgentUpdate` kinds that describe a session's settings and meters rather than a prompt turn's answer. */
export type SessionStateUpdate = Extract<AgentUpdate, { kind: "mode" | "configOptions" | "usage" | "sessionInfo" }>;

/** True for an update that goes to the session's state (issue 6, "Session controls"), not to the running turn. */
export function isSessionStateUpdate(update: AgentUpdate): update is SessionStateUpdate {
  return update.kind === "mode" || update.kind === "configOptions" || update.kind === "usage" || update.kind === "sessionInfo";
}

/**
 * The state of a session just opened (ACP `session/new` or `session/load` answer `setup`). A resumed session keeps the
 * usage and title known before (the agent remembers the conversation); a new one starts without them, its predecessor's
 * cost added to `spent` (the totals, `src/shared/usageTotals.ts`). The legacy
 * `models` are kept only when no config option has the `model` category (ACP: config options supersede them).
 */
export function openedState(previous: SessionStateView | undefined, channelId: string, agent: string, setup: SessionSetup, resumed: boolean): SessionStateView {
  const state: SessionStateView = { channelId, agent, live: true };
  // ACP: "If an Agent provides configOptions, Clients SHOULD use them instead of the modes field." An agent that
  // offers both for the same setting (claude-agent-acp) gets one control: the config option.
  if (setup.modes && !hasModeOption(setup.configOptions)) state.modes = setup.modes;
  if (setup.configOptions && setup.configOptions.length > 0) state.configOptions = setup.configOptions;
  if (setup.models && !setup.configOptions?.some((o) => o.category === "model")) state.models = setup.models;
  if (resumed && previous) {
    if (previous.usage) state.usage = previous.usage;
    if (previous.title) state.title = previous.title;
  }
  // What the earlier sessions cost stays counted: a new session's cost starts at zero, the total does not.
  const spent = resumed ? previous?.spent : previous && addCosts(previous.spent, previous.usage?.cost);
  if (spent && spent.length > 0) state.spent = spent;
  // The user's choices outlive every session of this channel and agent (they are re-applied: sessionChoices.ts).
  if (previous?.chosen) state.chosen = previous.chosen;
  return state;
}

/** Applies one ACP session update (`current_mode_update`, `config_option_update`, `usage_update`, `session_info_update`). */
export function applySessionUpdate(state: SessionStateView, update: SessionStateUpdate): SessionStateView {
  switch (update.kind) {
    case "mode":
      if (state.modes) return { ...state, modes: { ...state.modes, currentModeId: update.currentModeId } };
      // The modes were set aside for the config option of category `mode`: it follows the switch.
      return withModeOptionValue(state, update.currentModeId);
    case "configOptions":
      return withConfigOptions(state, update.configOptions);
    case "usage": {
      // An update without a cost keeps the session's cost known so far; a lower one means the agent's counter
      // restarted, and what it counted before stays in `spent`.
      const cost = update.usage.cost ?? state.usage?.cost;
      const spent = spentAfterUpdate(state, cost);
      const next: SessionStateView = { ...state, usage: cost ? { ...update.usage, cost } : update.usage };
      if (spent && spent.length > 0) next.spent = spent;
      return next;
    }
    case "sessionInfo": {
      if (update.title === undefined) return state;
      // A title the agent derived from Sidekicks' own preamble (the channel context, a retry note) is not the
      // session's subject: the one known before stays.
      if (typeof update.title === "string" && startsWithPreamble(update.title)) return state;
      const { title: _old, ...rest } = state;
      return update.title === null || update.title === "" ? rest : { ...rest, title: update.title };
    }
  }
}

/** What a change the agent accepted does to the state (the agent may also confirm it with an update). */
export function applyAccepted(state: SessionStateView, change: SessionChange, configOptions?: SessionStateView["configOptions"]): SessionStateView {
  switch (change.kind) {
    case "mode":
      return state.modes ? { ...state, modes: { ...state.modes, currentModeId: change.modeId } } : state;
    case "config":
      if (configOptions && configOptions.length > 0) return withConfigOptions(state, configOptions);
      return {
        ...state,
        configOptions: state.configOptions?.map((o) =>
          o.id !== change.configId ? o : o.type === "boolean" ? { ...o, currentValue: change.value === true } : { ...o, currentValue: String(change.value) },
        ),
      };
    case "model":
      return state.models ? { ...state, models: { ...state.models, currentModelId: change.modelId } } : state;
  }
}

/**
 * Checks a change against what the session offers, so a stale control gets a clear sentence instead of the agent's
 * error. @returns the problem, or undefined when the change names something the session offers
 */
export function changeProblem(state: SessionStateView | undefined, change: SessionChange): string | undefined {
  const who = `@${state?.agent ?? "agent"}`;
  switch (change.kind) {
    case "mode":
      if (!state?.modes) return l10n.t("{0} offers no modes in this session.", who);
      return state.modes.availableModes.some((m) => m.id === change.modeId) ? undefined : l10n.t('{0} has no mode "{1}" (it offers {2}).', who, change.modeId, state.modes.availableModes.map((m) => m.name).join(", "));
    case "config": {
      const option = state?.configOptions?.find((o) => o.id === change.configId);
      if (!option) return l10n.t('{0} has no setting "{1}" in this session.', who, change.configId);
      if (option.type === "boolean") return typeof change.value === "boolean" ? undefined : l10n.t('"{0}" is on or off (true or false).', option.name);
      return typeof change.value === "string" && option.options.some((v) => v.value === change.value) ? undefined : l10n.t('"{0}" has no value "{1}".', option.name, String(change.value));
    }
    case "model":
      if (!state?.models) return l10n.t("{0} offers no model choice in this session.", who);
      return state.models.availableModels.some((m) => m.modelId === change.modelId) ? undefined : l10n.t('{0} has no model "{1}".', who, change.modelId);
  }
}

/** Validates a session state read back from the store (a trust boundary); undefined when it is not one. */
export function asSessionState(value: unknown): SessionStateView | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as Partial<SessionStateView>;
  if (typeof v.channelId !== "string" || typeof v.agent !== "string") return undefined;
  const state: SessionStateView = { channelId: v.channelId, agent: v.agent, live: false };
  if (v.modes && typeof v.modes.currentModeId === "string" && Array.isArray(v.modes.availableModes)) state.modes = v.modes;
  if (Array.isArray(v.configOptions)) state.configOptions = v.configOptions.filter((o) => typeof o?.id === "string" && typeof o?.name === "string");
  if (v.models && typeof v.models.currentModelId === "string" && Array.isArray(v.models.availableModels)) state.models = v.models;
  if (state.modes && hasModeOption(state.configOptions)) delete state.modes; // stored by a version that showed both
  if (v.usage && typeof v.usage.used === "number" && typeof v.usage.size === "number") state.usage = v.usage;
  if (typeof v.title === "string") state.title = v.title;
  const spent = asCosts(v.spent);
  if (spent) state.spent = spent;
  const chosen = asChoices(v.chosen);
  if (chosen) state.chosen = chosen;
  return state;
}

function withConfigOptions(state: SessionStateView, configOptions: NonNullable<SessionStateView["configOptions"]>): SessionStateView {
  const next: SessionStateView = { ...state, configOptions };
  if (configOptions.some((o) => o.category === "model")) delete next.models;
  if (hasModeOption(configOptions)) delete next.modes;
  return next;
}

/** True when a config option describes the session's mode (ACP category `mode`): it supersedes `modes`. */
export function hasModeOption(configOptions: SessionStateView["configOptions"] | undefined): boolean {
  return configOptions?.some((o) => o.category === "mode" && o.type === "select") ?? false;
}

/** The state with its `mode` config option set to `value`, when it offers that value; else the state as it is. */
function withModeOptionValue(state: SessionStateView, value: string): SessionStateView {
  const index = state.configOptions?.findIndex((o) => o.category === "mode" && o.type === "select" && o.options.some((v) => v.value === value)) ?? -1;
  if (index === -1) return state;
  const configOptions = state.configOptions!.slice();
  configOptions[index] = { ...configOptions[index]!, currentValue: value } as (typeof configOptions)[number];
  return { ...state, configOptions };
}
