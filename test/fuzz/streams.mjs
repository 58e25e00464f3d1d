// @ts-check
/**
 * The fuzz suite's streams (issue 17, `npm run test:fuzz`): what one prompt turn of the fuzz agent writes to its
 * stdout, drawn from a seed, so the agent (test/fuzz/agent.mjs) and the harness (test/fuzz/run.ts) agree on it
 * without talking. A stream mixes well-formed text chunks (each a unique token the harness looks for in the stored
 * answer: none may be lost), every ACP session update kind with wrong types, garbage lines (invalid UTF-8, partial
 * JSON, huge lines), stray responses, malformed requests from the agent, and ends in one of the ways an agent ends a
 * turn — or does not: a result (valid, unknown or missing stop reason, `null`), an error, an exit, a kill, silence.
 */

/** mulberry32: a small seeded PRNG; returns floats in [0, 1). @param {number} seed */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Every `sessionUpdate` kind ACP defines, and one it does not. */
export const UPDATE_KINDS = [
  "agent_message_chunk",
  "agent_thought_chunk",
  "user_message_chunk",
  "tool_call",
  "tool_call_update",
  "plan",
  "available_commands_update",
  "current_mode_update",
  "config_option_update",
  "session_info_update",
  "usage_update",
  "no_such_update",
];

/**
 * One step of a stream.
 * @typedef {{ kind: "text", token: string }
 *   | { kind: "line", line: string }
 *   | { kind: "bytes", hex: string }
 *   | { kind: "update", update: unknown }
 *   | { kind: "request", method: string, params: unknown }
 *   | { kind: "exit", code: number }} Step
 */

/**
 * How the turn ends: `result` answers the prompt with `value` as its result; `error` with a JSON-RPC error; `exit`
 * and `kill` end the process; `silent` never answers — the harness presses Stop, and the agent answers `cancelled`
 * when `honorCancel`, else never.
 * @typedef {{ kind: "result", value: unknown } | { kind: "error" } | { kind: "exit", code: number } | { kind: "kill" }
 *   | { kind: "silent", honorCancel: boolean }} End
 */

/** @typedef {{ seed: number, steps: Step[], end: End }} Stream */

/** @param {() => number} rand @param {readonly any[]} list */
const pick = (rand, list) => list[Math.floor(rand() * list.length)];

/**
 * A value of a random JSON type (the wrong one, most of the time), at most `depth` levels deep.
 * @param {() => number} rand
 * @returns {unknown}
 */
function junk(rand, depth = 3) {
  const r = rand();
  if (r < 0.12) return null;
  if (r < 0.24) return Math.floor(rand() * 2 ** 40) * (rand() < 0.5 ? -1 : 1);
  if (r < 0.32) return rand() < 0.5;
  if (r < 0.46) return "x".repeat(Math.floor(rand() * 64));
  if (r < 0.5) return "\u0000\ud800\u202e" + "é".repeat(Math.floor(rand() * 8));
  if (r < 0.54) return "__proto__";
  if (depth <= 0) return {};
  if (r < 0.77) return Array.from({ length: Math.floor(rand() * 4) }, () => junk(rand, depth - 1));
  /** @type {Record<string, unknown>} */
  const o = {};
  for (let i = Math.floor(rand() * 4); i > 0; i--) o[pick(rand, ["type", "text", "content", "status", "toolCallId", "title", "__proto__", "constructor", "kind", "entries"])] = junk(rand, depth - 1);
  return o;
}

/** A session update of `kind` whose fields have random (mostly wrong) types. */
function wrongUpdate(/** @type {() => number} */ rand, /** @type {string} */ kind) {
  /** @type {Record<string, unknown>} */
  const update = { sessionUpdate: kind };
  const fields = ["content", "toolCallId", "title", "status", "kind", "entries", "availableCommands", "currentModeId", "configOptions", "rawInput", "locations", "used", "size", "cost"];
  for (let i = 1 + Math.floor(rand() * 4); i > 0; i--) update[pick(rand, fields)] = junk(rand);
  return update;
}

/** A well-typed update that is not text (a tool call and its update, a plan): shapes the answer, loses nothing. */
function rightUpdate(/** @type {() => number} */ rand, /** @type {number} */ i) {
  const id = `t${Math.floor(rand() * 3)}`;
  switch (Math.floor(rand() * 3)) {
    case 0:
      return { sessionUpdate: "tool_call", toolCallId: id, title: `Tool ${i}`, kind: pick(rand, ["read", "edit", "execute", "other"]), status: "in_progress" };
    case 1:
      return { sessionUpdate: "tool_call_update", toolCallId: id, status: pick(rand, ["completed", "failed"]), content: [{ type: "content", content: { type: "text", text: `out ${i}` } }] };
    default:
      return { sessionUpdate: "plan", entries: [{ content: `step ${i}`, priority: "medium", status: pick(rand, ["pending", "completed"]) }] };
  }
}

/** A request the agent sends the client with bad or hostile params. */
function badRequest(/** @type {() => number} */ rand) {
  const method = pick(rand, ["fs/read_text_file", "fs/write_text_file", "session/request_permission", "terminal/create", "terminal/output", "no/such_method", "__proto__"]);
  if (method === "session/request_permission" && rand() < 0.5) {
    // Malformed options: the card must still have a way out, or the request is answered `cancelled`.
    return { method, params: { sessionId: "SESSION", toolCall: { toolCallId: "p", title: junk(rand) }, options: pick(rand, [[], junk(rand), [{ optionId: junk(rand), name: junk(rand), kind: "no_such_kind" }]]) } };
  }
  return { method, params: rand() < 0.3 ? junk(rand) : { sessionId: "SESSION", path: junk(rand), content: junk(rand), command: junk(rand) } };
}

/**
 * The stream of seed `seed`.
 * @param {number} seed
 * @param {{ maxSteps?: number, hugeLineBytes?: number }} [options] at most `maxSteps` steps (default 24); a huge line
 *   is `hugeLineBytes` long (default 256 KiB)
 * @returns {Stream}
 */
export function streamOf(seed, options = {}) {
  const rand = prng(seed);
  const maxSteps = options.maxSteps ?? 24;
  const huge = options.hugeLineBytes ?? 256 * 1024;
  /** @type {Step[]} */
  const steps = [];
  const count = 1 + Math.floor(rand() * maxSteps);
  for (let i = 0; i < count; i++) {
    const r = rand();
    if (r < 0.3) steps.push({ kind: "text", token: `⟦${seed}.${i}⟧` });
    else if (r < 0.5) steps.push({ kind: "update", update: wrongUpdate(rand, pick(rand, UPDATE_KINDS)) });
    else if (r < 0.6) steps.push({ kind: "update", update: rightUpdate(rand, i) });
    else if (r < 0.66) steps.push({ kind: "bytes", hex: "ff fe c3 28 a0 a1 e2 82 0a".replace(/ /g, "") });
    else if (r < 0.72) steps.push({ kind: "line", line: pick(rand, ["{", '{"jsonrpc":"2.0"', "[]", "null", '"text"', "42", "{}", '{"jsonrpc":"2.0","method":5}', "not json at all"]) });
    else if (r < 0.75) steps.push({ kind: "line", line: "x".repeat(huge) });
    else if (r < 0.78) steps.push({ kind: "line", line: JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { sessionId: "SESSION", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "y".repeat(huge) } } } }).replace("SESSION", "other-session") });
    else if (r < 0.85) steps.push({ kind: "line", line: JSON.stringify(pick(rand, [{ jsonrpc: "2.0", id: 987654, result: {} }, { jsonrpc: "2.0", id: "stray", error: { code: -32000, message: "stray" } }, { jsonrpc: "2.0", id: null, result: null }])) });
    else if (r < 0.97) steps.push({ kind: "request", ...badRequest(rand) });
    else {
      steps.push({ kind: "exit", code: pick(rand, [0, 1, 137]) });
      return { seed, steps, end: { kind: "exit", code: 1 } };
    }
  }
  const e = rand();
  /** @type {End} */
  let end;
  if (e < 0.45) end = { kind: "result", value: { stopReason: pick(rand, ["end_turn", "max_tokens", "max_turn_requests", "refusal"]) } };
  else if (e < 0.55) end = { kind: "result", value: pick(rand, [{ stopReason: "no_such_reason" }, null, 42, {}, { stopReason: 7 }]) };
  else if (e < 0.7) end = { kind: "error" };
  else if (e < 0.8) end = { kind: "exit", code: pick(rand, [0, 2]) };
  else if (e < 0.85) end = { kind: "kill" };
  else end = { kind: "silent", honorCancel: rand() < 0.5 };
  return { seed, steps, end };
}
