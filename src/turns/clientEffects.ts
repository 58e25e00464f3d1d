/**
 * Effects Sidekicks runs for an agent (ACP `fs/write_text_file`, `terminal/create`), each recorded as a tool intent of
 * the attempt that asked for it (brief, "Tool intents"; `intents.ts`).
 */
import type { ClientEffect } from "../agents/AgentManager";
import type { TurnRecord } from "../store/records";
import { hashText } from "./intents";
import type { TurnPorts } from "./TurnExecutor";

/**
 * Runs an effect for the agent as a tool intent of this attempt (brief, "Tool intents"): `intended` (with the
 * write's before/after hashes, or the command), `running` as it starts, `settled` with its result — for a command,
 * when it exits. Recovery classifies whatever a crash left unsettled. The intent log (this, and the permission answer's
 * intent in `TurnExecutor`) is the one documented exception to "every durable write through a reducer input and a
 * `persist` effect": an intent must be written before its effect starts (`docs/reliability.md`, "Tool intents").
 */
export async function runClientEffect(ports: Pick<TurnPorts, "intents" | "files">, turn: TurnRecord, effect: ClientEffect): Promise<unknown> {
  const { intents } = ports;
  const { request } = effect;
  const base = { turnId: turn.id, attempt: turn.attempt, agent: turn.agent };
  if (request.method === "fs/write_text_file") {
    const intent = await intents.intend({ ...base, kind: "write", path: request.path, beforeHash: hashText(effect.before), afterHash: hashText(request.content)! });
    const { response, written } = await intents.around(intent, effect.perform);
    // Listed in "files changed" even when no watcher event comes (a write to an open buffer, or the turn ending now).
    // Not awaited: the snapshot's walk may still run; the turn's end waits for it and for this.
    if (written) void ports.files?.wrote(turn.id, written, request.content).catch(() => undefined);
    return response;
  }
  const intent = await intents.intend({ ...base, kind: "terminal", command: request.command, args: request.args, ...(request.cwd ? { cwd: request.cwd } : {}) });
  const running = await intents.start(intent);
  try {
    const { response, exited } = await effect.perform();
    void exited?.then((status) =>
      intents.settle(running, status.exitCode === 0 ? "done" : "failed", status.signal ? `killed by ${status.signal}` : `exit code ${status.exitCode}`).catch(() => undefined),
    );
    return response;
  } catch (err) {
    await intents.settle(running, "failed", err instanceof Error ? err.message : String(err));
    throw err;
  }
}
