/**
 * What the user chose stays chosen (issue 15, item 3). The user's settings of a session (mode, config options, the
 * legacy model) are kept per channel and agent with the session's state (`SessionStateView.chosen`); when a session
 * opens — ACP `session/new` or `session/load`, after a window reload, an agent restart or a Retry — with other values
 * (codex-acp's `session/load` reports its default mode, not the one the user set), they are set again before any
 * prompt. Pure, except {@link restoreChoices}, which asks the agent.
 */
import type { AcpClient } from "../acp/AcpClient";
import type { AgentWait, SessionChange, SessionChoices, SessionStateView } from "../shared/protocol";
import type { SessionStateUpdate } from "./sessionState";

/** The choices with `change` recorded (the agent accepted it). */
export function recordChoice(chosen: SessionChoices | undefined, change: SessionChange): SessionChoices {
  const next: SessionChoices = { ...chosen, ...(chosen?.config ? { config: { ...chosen.config } } : {}) };
  if (change.kind === "mode") next.mode = change.modeId;
  else if (change.kind === "model") next.model = change.modelId;
  else next.config = { ...next.config, [change.configId]: change.value };
  return next;
}

/** The value in force of the session's mode: from `modes`, or from its config option of category `mode`. */
export function modeInForce(state: SessionStateView): string | undefined {
  if (state.modes) return state.modes.currentModeId;
  const option = state.configOptions?.find((o) => o.category === "mode" && o.type === "select");
  return option?.type === "select" ? option.currentValue : undefined;
}

/**
 * After the agent reported `update` mid-session (not while the session was opening): a chosen setting whose value the
 * agent moved takes the new value (the user approved a plan and the agent left plan mode: that is not undone later).
 */
export function followReported(before: SessionStateView, after: SessionStateView, update: SessionStateUpdate): SessionChoices | undefined {
  const chosen = after.chosen;
  if (!chosen || (update.kind !== "mode" && update.kind !== "configOptions")) return chosen;
  const next: SessionChoices = { ...chosen, ...(chosen.config ? { config: { ...chosen.config } } : {}) };
  const mode = modeInForce(after);
  if (chosen.mode !== undefined && mode !== undefined && mode !== modeInForce(before)) next.mode = mode;
  for (const option of after.configOptions ?? []) {
    if (!next.config || !(option.id in next.config)) continue;
    const was = before.configOptions?.find((o) => o.id === option.id)?.currentValue;
    if (was !== undefined && was !== option.currentValue) next.config[option.id] = option.currentValue;
  }
  return next;
}

/**
 * The changes that bring a session just opened back to the user's choices: one per chosen setting whose value in force
 * differs, when the session offers the chosen value (a mode chosen through `modes` is set through the mode option when
 * the agent now offers that instead, and the other way round). Settings never chosen are left as the agent opened them.
 */
export function choicesToRestore(state: SessionStateView | undefined): SessionChange[] {
  const chosen = state?.chosen;
  if (!state || !chosen) return [];
  const changes: SessionChange[] = [];
  const modeOption = state.configOptions?.find((o) => o.category === "mode" && o.type === "select");
  const wantedMode = chosen.mode ?? (modeOption ? chosen.config?.[modeOption.id] : undefined);
  if (typeof wantedMode === "string" && wantedMode !== modeInForce(state)) {
    if (state.modes?.availableModes.some((m) => m.id === wantedMode)) changes.push({ kind: "mode", modeId: wantedMode });
    else if (modeOption?.type === "select" && modeOption.options.some((v) => v.value === wantedMode)) changes.push({ kind: "config", configId: modeOption.id, value: wantedMode });
  }
  for (const [id, value] of Object.entries(chosen.config ?? {})) {
    const option = state.configOptions?.find((o) => o.id === id);
    if (!option || option === modeOption || option.currentValue === value) continue;
    if (option.type === "boolean" ? typeof value === "boolean" : typeof value === "string" && option.options.some((v) => v.value === value)) {
      changes.push({ kind: "config", configId: id, value });
    }
  }
  if (chosen.model !== undefined && state.models && state.models.currentModelId !== chosen.model && state.models.availableModels.some((m) => m.modelId === chosen.model)) {
    changes.push({ kind: "model", modelId: chosen.model });
  }
  return changes;
}

/** The setting a change is about and its value, for people ("mode", "read-only"). */
export function describeSetting(change: SessionChange): { setting: string; value: string } {
  if (change.kind === "mode") return { setting: "mode", value: change.modeId };
  if (change.kind === "model") return { setting: "model", value: change.modelId };
  return { setting: change.configId, value: String(change.value) };
}

/**
 * Sends one change to the agent (ACP `session/set_mode`, `session/set_config_option`, the legacy `session/set_model`).
 * @returns the config options `session/set_config_option` answered (undefined for the others)
 * @throws what the client throws (`agent/request` when the agent refuses)
 */
export async function sendChange(client: AcpClient, sessionId: string, change: SessionChange): Promise<SessionStateView["configOptions"]> {
  if (change.kind === "mode") await client.setMode(sessionId, change.modeId);
  else if (change.kind === "config") return client.setConfigOption(sessionId, change.configId, change.value);
  else await client.setModel(sessionId, change.modelId);
  return undefined;
}

/** The ACP method that sends `change` (what the agent's state says Sidekicks waits for meanwhile). */
export function changeMethod(change: SessionChange): AgentWait {
  return change.kind === "mode" ? "session/set_mode" : change.kind === "model" ? "session/set_model" : "session/set_config_option";
}

/** Runs the request of one change, such as `AgentProcesses.waitFor` with its method. */
export type ChangeRunner = <T>(change: SessionChange, work: () => Promise<T>) => Promise<T>;

/** What {@link restoreChoices} reports, for the state and the log. */
export interface RestoreOutcome {
  restored: { change: SessionChange; configOptions: SessionStateView["configOptions"] }[];
  refused: { setting: string; value: string; reason: string }[];
}

/**
 * Sets each of {@link choicesToRestore}'s changes on the session, one after the other; a refusal is kept (with the
 * agent's reason) and the others still go; each request runs through `run` (default: as it is). Never throws.
 */
export async function restoreChoices(client: AcpClient, sessionId: string, state: SessionStateView | undefined, run: ChangeRunner = (_change, work) => work()): Promise<RestoreOutcome> {
  const outcome: RestoreOutcome = { restored: [], refused: [] };
  for (const change of choicesToRestore(state)) {
    try {
      outcome.restored.push({ change, configOptions: await run(change, () => sendChange(client, sessionId, change)) });
    } catch (err) {
      outcome.refused.push({ ...describeSetting(change), reason: err instanceof Error ? err.message : String(err) });
    }
  }
  return outcome;
}

/** Validates `chosen` read back from the store (a trust boundary); undefined when it holds nothing usable. */
export function asChoices(value: unknown): SessionChoices | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const out: SessionChoices = {};
  if (typeof v.mode === "string") out.mode = v.mode;
  if (typeof v.model === "string") out.model = v.model;
  if (typeof v.config === "object" && v.config !== null) {
    const config = Object.entries(v.config).filter(([, x]) => typeof x === "string" || typeof x === "boolean") as [string, string | boolean][];
    if (config.length > 0) out.config = Object.fromEntries(config);
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
