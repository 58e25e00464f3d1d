import type { WebviewRequestHandlers } from "../../src/app/WebviewBridge";
import type { WebviewRequestMethod } from "../../src/shared/protocol";
import path from "node:path";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import type { AcpClientHandlers, AgentLaunch, AgentUpdate, PermissionAnswer, PermissionRequest } from "../../src/acp/types";

/** Absolute path of the scripted fake ACP agent (a real subprocess speaking the real SDK). */
export const FAKE_AGENT = path.resolve(__dirname, "../fixtures/fake-agent.mjs");

/** A launch of the fake agent with `script` (see the fixture's header for the step language). */
export function fakeAgentLaunch(script: object, cwd = process.cwd()): AgentLaunch {
  return {
    command: process.execPath,
    args: [FAKE_AGENT],
    env: { ...(process.env as Record<string, string>), FAKE_AGENT_SCRIPT: JSON.stringify(script) },
    cwd,
  };
}

/** Handlers that record what the client reports; permission requests are answered by `answer`. */
export function recordingHandlers(answer: (r: PermissionRequest) => PermissionAnswer = () => ({ outcome: "cancelled" })) {
  const updates: { sessionId: string; update: AgentUpdate }[] = [];
  const stderr: string[] = [];
  const logs: string[] = [];
  const permissions: PermissionRequest[] = [];
  const handlers: AcpClientHandlers = {
    onUpdate: (sessionId, update) => updates.push({ sessionId, update }),
    onPermissionRequest: async (r) => {
      permissions.push(r);
      return answer(r);
    },
    onStderr: (line) => stderr.push(line),
    onLog: (level, message) => logs.push(`${level}: ${message}`),
  };
  const text = () =>
    updates
      .map((u) => (u.update.kind === "text" ? u.update.text : ""))
      .join("");
  return { handlers, updates, stderr, logs, permissions, text };
}

/**
 * A fresh temp folder, removed by the returned cleanup. The removal tries again a few times: an agent's command
 * ending as the test ends may still write into the folder while it is emptied (ENOTEMPTY, seen with Codex's Stop).
 */
export function tempDir(prefix = "sidekicks-test-"): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }) };
}

const unused = async (): Promise<never> => {
  throw new Error("unused");
};

/**
 * A complete set of webview request handlers for a bridge whose test (or bench) uses only some: every method not in
 * `overrides` rejects with "unused".
 */
export function stubHandlers(overrides: Partial<WebviewRequestHandlers> = {}): WebviewRequestHandlers {
  const methods: WebviewRequestMethod[] = [
    "channel/open", "channel/send", "permission/answer", "turn/cancel", "turn/retry", "turn/sendNow", "turn/fileDiff", "turn/restore", "turn/review", "turn/applyToFolder", "terminal/snapshot", "terminal/show", "command/run",
    "channels/list", "channel/create", "channel/rename", "channel/delete", "channel/join", "channel/leave", "channel/direct", "channel/read",
    "editor/openDiff", "editor/openLocation", "editor/insert", "editor/openLink", "session/configure",
  ];
  return { ...(Object.fromEntries(methods.map((m) => [m, unused])) as unknown as WebviewRequestHandlers), ...overrides };
}

/**
 * Polls `get` every 10 ms until it returns a value other than `undefined`; rejects after `timeoutMs` (ms) naming
 * `what`. For waiting on events a `Recorder` collected. The unit tests' one wait: no fixed sleeps.
 */
export function waitFor<T>(get: () => T | undefined, timeoutMs = 5000, what = "the expected event"): Promise<T> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const poll = () => {
      const hit = get();
      if (hit !== undefined) return resolve(hit);
      if (Date.now() - started > timeoutMs) return reject(new Error(`${what} not seen within ${timeoutMs} ms`));
      setTimeout(poll, 10);
    };
    poll();
  });
}

/**
 * `waitFor` for a condition the test then asserts itself: polls `ok` every 10 ms until it holds or `timeoutMs` (ms)
 * passed, and resolves whether it held (never rejects).
 */
export function until(ok: () => boolean, timeoutMs = 5000): Promise<boolean> {
  return waitFor(() => (ok() ? true : undefined), timeoutMs).catch(() => false);
}
