/** Why a request to an agent failed, as the `SidekicksError` the user reads (`AcpClient`'s requests). */
import * as l10n from "@vscode/l10n";
import * as acp from "@agentclientprotocol/sdk";
import { SidekicksError } from "../shared/errors";
import type { AgentProcess } from "./agentProcess";
import { AuthRequiredError, describeAuthMethod } from "./auth";
import type { AgentLaunch, AuthMethodInfo } from "./types";

/** What {@link explainFailure} reads of the client. */
export interface FailureContext {
  proc: AgentProcess;
  agentName: string;
  /** The auth methods `initialize` announced (an "authentication required" error names them). */
  authMethods: AuthMethodInfo[];
  launch: AgentLaunch;
}

/**
 * `err` (a JSON-RPC error, a closed connection, a spawn failure) of the request `method` as a `SidekicksError`:
 * `agent/spawn`, an `AuthRequiredError`, `agent/protocol` (initialize answered by a program that is not ACP; a lost
 * connection), `agent/request` (the agent's error answer), or `agent/exited` with the exit status.
 */
export async function explainFailure(err: unknown, method: string, ctx: FailureContext): Promise<SidekicksError> {
  if (ctx.proc.failedToSpawn) return ctx.proc.spawnFailure();
  if (err instanceof SidekicksError) return err;
  if (err instanceof acp.RequestError) {
    const detail = err.data === undefined ? ctx.proc.stderr.tail(2048) || undefined : JSON.stringify(err.data, null, 2);
    if (err.code === -32000) {
      const methods = ctx.authMethods;
      const ways = methods.map(describeAuthMethod).join("; ");
      return new AuthRequiredError(
        { agent: ctx.agentName, methods, launch: ctx.launch },
        ways
          ? l10n.t('Agent "{0}" needs you to sign in first ({1}). Sign in, then try again.', ctx.agentName, ways)
          : l10n.t('Agent "{0}" needs you to sign in first. Sign in, then try again.', ctx.agentName),
        detail,
        { cause: err },
      );
    }
    if (method === "initialize") {
      // A program that echoes its input (`cat`) bounces our own "Method not found" back: not an ACP agent.
      return new SidekicksError(
        "agent/protocol",
        l10n.t(
          'Agent "{0}" does not look like an ACP agent: it answered initialize with "{1}". Check "command" and "args" in sidekicks.yaml (some agents need a flag such as --acp).',
          ctx.agentName,
          err.message,
        ),
        ctx.proc.diagnosticDetail() ?? detail,
        { cause: err },
      );
    }
    return new SidekicksError("agent/request", l10n.t('Agent "{0}" answered {1} with an error: {2}', ctx.agentName, method, err.message), detail, {
      cause: err,
    });
  }
  // The connection closed under a pending request: most likely the process is exiting; wait for its status.
  const exit = await Promise.race([ctx.proc.exited, delay(1000)]);
  if (exit) return ctx.proc.exitedError(exit, l10n.t("during {0}", method));
  return new SidekicksError(
    "agent/protocol",
    l10n.t('Lost the ACP connection to agent "{0}" during {1}: {2}', ctx.agentName, method, err instanceof Error ? err.message : String(err)),
    ctx.proc.diagnosticDetail(),
    { cause: err },
  );
}

function delay(ms: number): Promise<undefined> {
  return new Promise((resolve) => setTimeout(() => resolve(undefined), ms).unref());
}
