/**
 * Permission policy (brief: `ask`, `allow-reads`, `allow-all`) and Sidekicks rules (ADR 0005): which requests are
 * answered without asking, with which option, what the card says, which answers make a rule — as a table, then end
 * to end with a fake agent that asks.
 */
import assert from "node:assert/strict";
import test from "node:test";
import { composeChannels } from "../../src/app/compose";
import { Recorder } from "../../src/events/events";
import type { PermissionOption } from "../../src/shared/protocol";
import { decide, NO_RULES, ruleFor, type AgentRules, type PermissionPolicy } from "../../src/turns/permissionPolicy";
import { channelSetup, fakeAgent, textOf } from "./channelHarness";
import { waitFor } from "./helpers";

const ALL: PermissionOption[] = [
  { optionId: "once", name: "Allow once", kind: "allow_once" },
  { optionId: "always", name: "Always allow", kind: "allow_always" },
  { optionId: "no", name: "Reject", kind: "reject_once" },
  { optionId: "never", name: "Always reject", kind: "reject_always" },
];
const REJECT_ONLY: PermissionOption[] = [{ optionId: "no", name: "Reject", kind: "reject_once" }];
const ALWAYS_ONLY: PermissionOption[] = [{ optionId: "always", name: "Always allow", kind: "allow_always" }, { optionId: "never", name: "Always reject", kind: "reject_always" }];

const allowRule = (toolKind: string, title: string): AgentRules => ({ rules: [{ toolKind, title, decision: "allow" }], legacy: [] });
const rejectRule = (toolKind: string, title: string): AgentRules => ({ rules: [{ toolKind, title, decision: "reject" }], legacy: [] });
const legacy = (toolKind: string, decision: "allow" | "reject"): AgentRules => ({ rules: [], legacy: [{ toolKind, decision }] });
const onFiles = (paths: string[]): AgentRules => ({ rules: [{ toolKind: "edit", title: "Edit files", paths, decision: "allow" }], legacy: [] });

// policy, tool kind, title, rules, options → the option chosen without asking (undefined: asked), what the card says; the request's files
const table: [PermissionPolicy, string | undefined, string, AgentRules, PermissionOption[], string | undefined, RegExp?, string[]?][] = [
  ["ask", "read", "Read a.ts", NO_RULES, ALL, undefined],
  ["ask", "edit", "Edit a.ts", NO_RULES, ALL, undefined],
  ["allow-reads", "read", "Read a.ts", NO_RULES, ALL, "once", /a read tool, and @a's permissions are allow-reads/],
  ["allow-reads", "search", "grep x", NO_RULES, ALL, "once"],
  ["allow-reads", "think", "think", NO_RULES, ALL, "once"],
  ["allow-reads", "edit", "Edit a.ts", NO_RULES, ALL, undefined],
  ["allow-reads", "execute", "ls", NO_RULES, ALL, undefined],
  ["allow-reads", "delete", "rm a", NO_RULES, ALL, undefined],
  ["allow-reads", undefined, "x", NO_RULES, ALL, undefined],
  ["allow-all", "execute", "ls", NO_RULES, ALL, "once", /allow-all/],
  ["allow-all", undefined, "x", NO_RULES, ALL, "once"],
  ["allow-all", "edit", "Edit a.ts", NO_RULES, REJECT_ONLY, undefined],
  // An automatic answer never selects an "always" option: asked, and the card says why.
  ["allow-all", "execute", "ls", NO_RULES, ALWAYS_ONLY, undefined, /never chooses an agent's “always” option/],
  ["allow-reads", "read", "Read a.ts", NO_RULES, ALWAYS_ONLY, undefined, /never chooses/],
  // A Sidekicks rule: the same agent's same tool kind and exactly the same title, answered with a one-time option.
  ["ask", "execute", "exit 3", allowRule("execute", "exit 3"), ALL, "once", /Allowed by your Sidekicks rule: always allow @a's request “exit 3” \(tool kind execute\)/],
  ["ask", "execute", "exit 3", rejectRule("execute", "exit 3"), ALL, "no", /Rejected by your Sidekicks rule: always reject @a's request “exit 3” \(tool kind execute\)/],
  ["allow-all", "execute", "exit 3", rejectRule("execute", "exit 3"), ALL, "no"],
  ["ask", "execute", "python3 -c 'print(1)'", allowRule("execute", "exit 3"), ALL, undefined],
  ["ask", "execute", "exit 3 ", allowRule("execute", "exit 3"), ALL, undefined],
  ["ask", "execute", "echo 'a  b'", allowRule("execute", "echo 'a b'"), ALL, undefined],
  ["ask", "edit", "exit 3", allowRule("execute", "exit 3"), ALL, undefined],
  ["ask", undefined, "exit 3", allowRule("other", "exit 3"), ALL, "once"],
  ["ask", "execute", "exit 3", allowRule("execute", "exit 3"), ALWAYS_ONLY, undefined, /never chooses/],
  // With files (Codex titles every file change "Edit files"): the same files, in any order, and no others.
  ["ask", "edit", "Edit files", onFiles(["/w/a.ts", "/w/b.ts"]), ALL, "once", /“Edit files” on \/w\/a.ts, \/w\/b.ts \(tool kind edit\)/, ["/w/b.ts", "/w/a.ts"]],
  ["ask", "edit", "Edit files", onFiles(["/w/a.ts"]), ALL, undefined, undefined, ["/w/a.ts", "/w/b.ts"]],
  ["ask", "edit", "Edit files", onFiles(["/w/a.ts"]), ALL, undefined, undefined, ["/w/c.ts"]],
  ["ask", "edit", "Edit files", onFiles(["/w/a.ts"]), ALL, undefined, undefined],
  ["ask", "edit", "Edit files", allowRule("edit", "Edit files"), ALL, undefined, undefined, ["/w/a.ts"]],
  ["ask", "execute", "exit 3", allowRule("execute", "exit 3"), REJECT_ONLY, undefined, /never chooses/],
  // Rules an older version kept for a whole tool kind never answer (and an old reject keeps the policy from allowing).
  ["ask", "execute", "ls", legacy("execute", "allow"), ALL, undefined, /older version of Sidekicks \(always allow every execute tool of @a\) no longer answers/],
  ["ask", "edit", "Edit a.ts", legacy("edit", "reject"), ALL, undefined, /always reject every edit tool of @a/],
  ["allow-all", "execute", "ls", legacy("execute", "reject"), ALL, undefined, /always reject every execute tool of @a/],
  ["allow-all", "execute", "ls", legacy("execute", "allow"), ALL, "once", /allow-all/],
  ["allow-reads", "read", "Read a.ts", legacy("edit", "reject"), ALL, "once", /allow-reads/],
];
for (const [policy, kind, title, rules, options, expected, says, paths] of table) {
  test(`policy ${policy}, ${kind ?? "no kind"} “${title}”${paths ? ` on ${paths.join(", ")}` : ""}, rules ${JSON.stringify(rules)}, options ${options.map((o) => o.kind).join("/")} → ${expected ?? "asked"}`, () => {
    const decision = decide("a", { toolKind: kind, title, options, ...(paths ? { paths } : {}) }, policy, rules);
    assert.equal(decision.optionId, expected);
    if (expected) assert.ok(["allow_once", "reject_once"].includes(options.find((o) => o.optionId === expected)!.kind), "only ever a one-time option");
    if (says) assert.match((expected ? decision.reason : decision.notice) ?? "", says);
    else if (!expected) assert.equal(decision.notice, undefined);
  });
}

test("a Sidekicks rule comes only from a one-time option and a title that is not blank", () => {
  const part = { toolKind: "execute", title: "exit 3", options: ALL };
  assert.deepEqual(ruleFor("a", part, "once")?.rule, { toolKind: "execute", title: "exit 3", decision: "allow" });
  assert.deepEqual(ruleFor("a", part, "no")?.rule, { toolKind: "execute", title: "exit 3", decision: "reject" });
  assert.equal(ruleFor("a", part, "always"), undefined, "the agent's own allow_always is the agent's rule");
  assert.equal(ruleFor("a", part, "never"), undefined);
  assert.equal(ruleFor("a", { ...part, title: "  " }, "once"), undefined, "a blank title would match every untitled request");
  assert.deepEqual(ruleFor("a", { ...part, toolKind: undefined }, "once")?.rule, { toolKind: "other", title: "exit 3", decision: "allow" });
  assert.deepEqual(ruleFor("a", { ...part, paths: ["/w/b", "/w/a", "/w/b"] }, "once")?.rule, { toolKind: "execute", title: "exit 3", paths: ["/w/a", "/w/b"], decision: "allow" }, "its files, sorted");
});

test("an untitled request (the card's title is Sidekicks' own) makes no rule, and an old rule on that title answers nothing (a tryout saw one rule allow every untitled request)", () => {
  const untitled = { toolKind: "other", title: "Permission requested", untitled: true, options: ALL };
  assert.equal(ruleFor("a", untitled, "once"), undefined);
  assert.equal(decide("a", untitled, "ask", allowRule("other", "Permission requested")).optionId, undefined, "asked, not answered by the rule");
  assert.equal(decide("a", { ...untitled, untitled: undefined }, "ask", allowRule("other", "Permission requested")).optionId, "once", "a request really titled so still matches");
});

test("end to end: allow-reads answers a read request itself and says so; an edit is asked; the agent's “Always allow” answers that edit only", async () => {
  const options: PermissionOption[] = [{ optionId: "ok", name: "Allow", kind: "allow_once" }, { optionId: "always", name: "Always allow", kind: "allow_always" }, { optionId: "no", name: "Reject", kind: "reject_once" }];
  const agent = fakeAgent("a", {
    prompt: [
      { toolCall: { toolCallId: "r1", title: "Read README", kind: "read", status: "pending" } },
      { permission: { toolCallId: "r1", kind: "read", options } },
      { toolCall: { toolCallId: "e1", title: "Edit main.ts", kind: "edit", status: "pending" } },
      { permission: { toolCallId: "e1", options } },
    ],
  });
  const s = await channelSetup([agent]);
  try {
    await s.channels.close();
    const events = new Recorder();
    const channels = composeChannels({ store: s.store, agents: s.agents, emitter: events, log: () => undefined, policyOf: () => "allow-reads" });
    try {
      await channels.messages.send(s.general.id, "@a go");
      const asked = await waitFor(() => events.of("message/delta").find((d) => d.part?.type === "permission" && d.part.toolCallId === "e1" && !d.part.outcome)?.part, 10_000, "the edit request");
      const auto = events.of("message/delta").find((d) => d.part?.type === "permission" && d.part.toolCallId === "r1")?.part;
      assert.ok(auto?.type === "permission" && auto.outcome === "ok" && /allow-reads/.test(auto.auto ?? ""), "the read request was answered by the policy, and says so");
      assert.ok(asked.type === "permission" && asked.toolKind === "edit" && asked.auto === undefined, "the edit is asked, its kind taken from the tool call");
      const waiting = events.of("permissions/pending").at(-1)!.waiting;
      assert.deepEqual(waiting.map((w) => [w.agent, w.requestId, w.title]), [["a", asked.requestId, "Edit main.ts"]], "the status bar and the badge show one request waiting");
      assert.ok(!events.of("permissions/pending").some((p) => p.waiting.some((w) => w.title === "Read README")), "the auto-answered read never waited");
      assert.equal(await channels.turns.answerPermission(asked.requestId, "always"), true);
      assert.deepEqual(events.of("permissions/pending").at(-1)!.waiting, [], "nothing waits once answered");
      const first = await waitFor(() => events.of("message/finished").find((m) => m.author.kind === "agent"), 10_000, "the first answer");
      assert.match(textOf(first), /\[chose ok\].*\[chose always\]/s, "the agent received both answers");
      assert.deepEqual(await channels.permissions.list(["a"]), [], "the agent's option is the agent's rule: Sidekicks remembers nothing");

      await channels.messages.send(s.general.id, "@a again");
      const again = await waitFor(() => events.of("message/delta").find((d) => d.part?.type === "permission" && d.part.toolCallId === "e1" && d.part.requestId !== asked.requestId)?.part, 10_000, "the second edit request");
      assert.ok(again.type === "permission" && again.outcome === undefined && again.auto === undefined, "the next edit is asked again");
      assert.equal(await channels.turns.answerPermission(again.requestId, "no"), true);
      await waitFor(() => events.of("message/finished").filter((m) => m.author.kind === "agent")[1], 10_000, "the second answer");
    } finally {
      await channels.close();
    }
  } finally {
    await s.teardown();
  }
});
