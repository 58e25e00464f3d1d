#!/usr/bin/env node
// @ts-check
/**
 * The fuzz suite's agent (issue 17): a real subprocess that speaks just enough raw JSON-RPC (no SDK: it must be able
 * to send what the SDK never would) to be started, and then answers each `session/prompt` whose text holds
 * `fuzz:<seed>` with the stream `streamOf(seed)` (test/fuzz/streams.mjs) — malformed updates, garbage, stray
 * responses, bad requests — and ends it as the stream says: a result of any shape, an error, an exit, a kill, silence.
 */
import { createInterface } from "node:readline";
import { streamOf } from "./streams.mjs";

const HUGE = Number(process.env.FUZZ_HUGE_LINE_BYTES) || undefined;
let sessions = 0;
let ids = 0;
/** The prompt waiting for its `session/cancel` (a silent end that honors it): its request id. */
let waiting = /** @type {string | number | undefined} */ (undefined);

/** @param {string | Buffer} data */
const write = (data) => new Promise((resolve) => (process.stdout.write(data) ? resolve(undefined) : process.stdout.once("drain", () => resolve(undefined))));
/** @param {unknown} message */
const send = (message) => write(JSON.stringify(message) + "\n");

/** @param {string | number} id @param {string} sessionId @param {string} text */
async function prompt(id, sessionId, text) {
  // The request comes last (channel context, when there is any, is put before it).
  const seed = Number([...text.matchAll(/fuzz:(\d+)/g)].at(-1)?.[1] ?? 0);
  const stream = streamOf(seed, { hugeLineBytes: HUGE });
  for (const step of stream.steps) {
    switch (step.kind) {
      case "text":
        await send({ jsonrpc: "2.0", method: "session/update", params: { sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: step.token } } } });
        break;
      case "update":
        await send({ jsonrpc: "2.0", method: "session/update", params: { sessionId, update: step.update } });
        break;
      case "line":
        await write(step.line + "\n");
        break;
      case "bytes":
        await write(Buffer.from(step.hex, "hex"));
        break;
      case "request":
        await write(JSON.stringify({ jsonrpc: "2.0", id: `agent-${++ids}`, method: step.method, params: step.params }).replaceAll('"SESSION"', JSON.stringify(sessionId)) + "\n");
        break;
      case "exit":
        process.exit(step.code);
    }
  }
  const end = stream.end;
  switch (end.kind) {
    case "result":
      return send({ jsonrpc: "2.0", id, result: end.value });
    case "error":
      return send({ jsonrpc: "2.0", id, error: { code: -32603, message: `fuzz ${seed}: the agent failed` } });
    case "exit":
      return process.exit(end.code);
    case "kill":
      return process.kill(process.pid, "SIGKILL");
    case "silent":
      if (end.honorCancel) waiting = id;
  }
}

createInterface({ input: process.stdin }).on("line", (line) => {
  /** @type {any} */
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    return;
  }
  const { id, method, params } = message ?? {};
  if (method === "initialize") void send({ jsonrpc: "2.0", id, result: { protocolVersion: 1, agentCapabilities: {}, authMethods: [] } });
  else if (method === "session/new") void send({ jsonrpc: "2.0", id, result: { sessionId: `fuzz-session-${++sessions}` } });
  else if (method === "session/prompt") {
    const text = (params?.prompt ?? []).map((/** @type {any} */ b) => (b?.type === "text" ? b.text : "")).join("");
    void prompt(id, params?.sessionId, text);
  } else if (method === "session/cancel" && waiting !== undefined) {
    const answered = waiting;
    waiting = undefined;
    void send({ jsonrpc: "2.0", id: answered, result: { stopReason: "cancelled" } });
  } else if (id !== undefined && method !== undefined) void send({ jsonrpc: "2.0", id, error: { code: -32601, message: `fuzz agent: no ${method}` } });
});
