/**
 * The reducer's permission rows (issue 15, item 2; ADR 0005), in `turnReducer.test.ts`'s frozen-table style: what a
 * request shows and sends when the policy or a Sidekicks rule may answer it, and what the user's answer sends, shows
 * and makes Sidekicks remember. The reducer decides (a `remember` effect with the narrow key); the executor applies.
 */
import assert from "node:assert/strict";
import test from "node:test";
import type { PermissionRequest } from "../../src/acp/types";
import type { PermissionOption, PermissionPart } from "../../src/shared/protocol";
import type { AgentRules, PermissionPolicy } from "../../src/turns/permissionPolicy";
import { closeOpenParts } from "../../src/turns/answer";
import { of, run, running, T0 } from "./reducerHarness";

/** Claude Code's Bash options for `exit 3` (claude-agent-acp 0.101.0). */
const CLAUDE: PermissionOption[] = [
  { optionId: "allow-once", name: "Yes", kind: "allow_once" },
  { optionId: "allow-with-updates", name: "Yes, and don't ask again for `exit 3` commands", kind: "allow_always" },
  { optionId: "reject", name: "No", kind: "reject_once" },
];
const ALWAYS_FIRST = [CLAUDE[1]!, CLAUDE[0]!, CLAUDE[2]!];
const ALWAYS_ONLY = [CLAUDE[1]!, CLAUDE[2]!];
const request = (title: string, options = CLAUDE): PermissionRequest => ({ sessionId: "s", toolCallId: "t1", title, toolKind: "execute", options });
const exit3: AgentRules = { rules: [{ toolKind: "execute", title: "exit 3", decision: "allow" }], legacy: [] };
const NONE: AgentRules = { rules: [], legacy: [] };

/** Asks `title` with `options` under `policy` and `rules`; returns the state, the effects and the card shown. */
function asked(title: string, options: PermissionOption[], policy: PermissionPolicy, rules: AgentRules) {
  const { state, turn } = running("claude");
  const step = run(state, { type: "permissionRequested", at: T0, turnId: turn.turnId, attempt: 1, requestId: "R1", request: request(title, options), policy, rules });
  const card = of(step.effects, "delta")[0]!.part as PermissionPart;
  return { ...step, turn, card };
}

// title, options, policy, rules → option sent without asking (undefined: shown and waiting), what the card says
const requests: [string, PermissionOption[], PermissionPolicy, AgentRules, string | undefined, RegExp | undefined][] = [
  ["exit 3", CLAUDE, "ask", NONE, undefined, undefined],
  ["exit 3", ALWAYS_FIRST, "allow-all", NONE, "allow-once", /allow-all/],
  ["exit 3", ALWAYS_ONLY, "allow-all", NONE, undefined, /never chooses an agent's “always” option/],
  ["exit 3", CLAUDE, "ask", exit3, "allow-once", /Allowed by your Sidekicks rule: always allow @claude's request “exit 3” \(tool kind execute\)/],
  ["exit 3", ALWAYS_FIRST, "ask", exit3, "allow-once", /Sidekicks rule/],
  ["python3 -c 'print(1)'", CLAUDE, "ask", exit3, undefined, undefined],
  ["exit 3", ALWAYS_ONLY, "ask", exit3, undefined, /never chooses/],
  ["exit 3", CLAUDE, "ask", { rules: [], legacy: [{ toolKind: "execute", decision: "allow" }] }, undefined, /older version of Sidekicks/],
];
for (const [title, options, policy, rules, sent, says] of requests) {
  test(`request “${title}” (${options.map((o) => o.kind).join("/")}), policy ${policy}, ${rules.rules.length} rule(s), ${rules.legacy.length} older → ${sent ?? "shown and waiting"}`, () => {
    const { state, effects, turn, card } = asked(title, options, policy, rules);
    assert.deepEqual(of(effects, "answerPermission"), sent ? [{ type: "answerPermission", requestId: "R1", optionId: sent }] : [], "what the agent is sent");
    assert.equal(card.outcome, sent, "the card shows it answered, or waiting");
    assert.equal(state.turns[turn.turnId]!.record.state, sent ? "running" : "awaiting_input");
    if (sent) assert.match(card.auto ?? "", says!, "the card says which rule answered");
    else if (says) assert.match(card.notice ?? "", says, "the card says why it asked");
    else assert.equal(card.notice, undefined);
    assert.deepEqual(of(effects, "remember"), [], "asking or answering automatically remembers nothing");
    assert.deepEqual(effects.map((e) => e.type).filter((t) => t !== "persist"), sent ? ["delta", "answerPermission"] : ["delta"], "shown before sent");
  });
}

test("a request with no option to show is answered cancelled at once (not sent an option, not waiting), its card saying so; a plain choice is never chosen by allow-all", () => {
  for (const policy of ["ask", "allow-all"] as const) {
    const { state, effects, turn, card } = asked("exit 3", [], policy, exit3);
    assert.deepEqual(of(effects, "answerPermission"), [{ type: "answerPermission", requestId: "R1" }], "cancelled: no option id");
    assert.equal(card.outcome, "cancelled");
    assert.match(card.notice ?? "", /@claude asked without offering a choice Sidekicks can show/);
    assert.equal(state.turns[turn.turnId]!.record.state, "running", "the turn does not wait");
  }
  const plain = asked("exit 3", [{ optionId: "maybe", name: "Allow for an hour", kind: "other" }], "allow-all", exit3);
  assert.deepEqual(of(plain.effects, "answerPermission"), [], "shown and waiting for the user");
  assert.equal(plain.state.turns[plain.turn.turnId]!.record.state, "awaiting_input");
});

// option the user chose, with Sidekicks' "always this request" → accepted, option sent, rule remembered, card note
const answers: [string, boolean, boolean, { toolKind: string; title: string; decision: "allow" | "reject" } | undefined, RegExp | undefined][] = [
  ["allow-with-updates", false, true, undefined, undefined],
  ["allow-once", false, true, undefined, undefined],
  ["allow-once", true, true, { toolKind: "execute", title: "exit 3", decision: "allow" }, /Sidekicks remembers: always allow @claude's request “exit 3” \(tool kind execute\)/],
  ["reject", true, true, { toolKind: "execute", title: "exit 3", decision: "reject" }, /always reject @claude's request “exit 3” \(tool kind execute\)/],
  ["allow-with-updates", true, false, undefined, undefined],
];
for (const [optionId, remember, accepted, rule, note] of answers) {
  test(`the user answers ${optionId}${remember ? " with “Always … this request”" : ""} → ${accepted ? (rule ? `sent, and a ${rule.decision} rule` : "sent, nothing remembered") : "refused"}`, () => {
    const { state } = asked("exit 3", CLAUDE, "ask", NONE);
    const step = run(state, { type: "answer", requestId: "R1", optionId, ...(remember ? { remember } : {}) });
    assert.equal(step.result, accepted);
    if (!accepted) {
      assert.deepEqual(step.effects, [], "nothing sent, shown or remembered");
      return;
    }
    assert.deepEqual(of(step.effects, "answerPermission"), [{ type: "answerPermission", requestId: "R1", optionId }], "the option the user chose goes to the agent, unchanged");
    assert.deepEqual(of(step.effects, "remember"), rule ? [{ type: "remember", agent: "claude", rule }] : [], "only Sidekicks' own action makes a rule, and a narrow one");
    const card = of(step.effects, "delta")[0]!.part as PermissionPart;
    assert.equal(card.outcome, optionId);
    if (note) assert.match(card.notice ?? "", note);
    else assert.equal(card.notice, undefined);
    assert.deepEqual(step.effects.map((e) => e.type), rule ? ["remember", "answerPermission", "delta"] : ["answerPermission", "delta"], "remembered before sent (the next, identical request finds the rule), sent before shown");
  });
}

test("a request still waiting when its answer ends: the agent is answered cancelled; the card says Not answered and why, unless the user's Stop ended it", () => {
  const pending: PermissionPart = { type: "permission", requestId: "R1", toolCallId: "t1", title: "exit 3", options: CLAUDE };
  const message = { version: 1 as const, id: "M", channelId: "C", author: { kind: "agent" as const, agentName: "claude" }, createdAt: 1, parts: [pending] };
  const card = (how: Parameters<typeof closeOpenParts>[1]) => closeOpenParts(message, how).parts[0] as PermissionPart;
  assert.deepEqual([card("cancelled").outcome, card("cancelled").unanswered, card("cancelled").notice], ["cancelled", undefined, undefined], "the user's Stop: Cancelled");
  for (const [how, says] of [["unknown", /interrupted \(a reload, or the window closed\) before you chose\. Retry asks again/], ["failed", /the agent stopped before you chose/], ["noResult", /ended its turn without waiting/]] as const) {
    assert.equal(card(how).outcome, "cancelled", `${how}: what the agent was told`);
    assert.equal(card(how).unanswered, true, how);
    assert.match(card(how).notice ?? "", says);
  }
});
