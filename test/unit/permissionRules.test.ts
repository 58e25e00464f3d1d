/**
 * What the user allowed stays what they allowed (issue 15, item 2; ADR 0005), end to end with the scripted fake agent
 * (a real subprocess on the real SDK) replaying Claude Code's exact shapes in Manual mode: a Bash `tool_call` titled
 * "Terminal", its `tool_call_update` with the command as title, then `session/request_permission` with the options
 * "Yes" (allow_once), "Yes, and don't ask again for `<cmd>` commands" (allow_always) and "No" (reject_once).
 */
import assert from "node:assert/strict";
import test from "node:test";
import type { AgentConfig } from "../../src/config/roster";
import { composeChannels, type Channels } from "../../src/app/compose";
import { Recorder } from "../../src/events/events";
import type { PermissionOption, PermissionPart } from "../../src/shared/protocol";
import { describeRemembered, legacyKey } from "../../src/turns/permissionMemory";
import type { PermissionPolicy } from "../../src/turns/permissionPolicy";
import { channelSetup, fakeAgent } from "./channelHarness";
import { waitFor } from "./helpers";

/** Claude Code's Bash options (claude-agent-acp 0.101.0, `permissions/options/shell.js`). */
const claudeBash = (command: string): PermissionOption[] => [
  { optionId: "allow-once", name: "Yes", kind: "allow_once" },
  { optionId: "allow-with-updates", name: `Yes, and don't ask again for \`${command}\` commands`, kind: "allow_always" },
  { optionId: "reject", name: "No", kind: "reject_once" },
];

/** One Bash tool call as Claude Code reports it, then its permission request. */
const bash = (toolCallId: string, command: string, options = claudeBash(command)) => [
  { toolCall: { toolCallId, title: "Terminal", kind: "execute", status: "pending", rawInput: {} } },
  { toolCallUpdate: { toolCallId, title: command, rawInput: { command, description: "Run it" } } },
  { permission: { toolCallId, title: command, rawInput: { command, description: "Run it" }, options } },
];

const PYTHON = "python3 -c 'import os; print(os.getcwd())'";

/** A channel service over the harness's store with `policy` for every agent, and its own recorder. */
async function withPolicy(roster: AgentConfig[], policy: PermissionPolicy, run: (channels: Channels, events: Recorder, generalId: string) => Promise<void>) {
  const s = await channelSetup(roster);
  try {
    await s.channels.close();
    const events = new Recorder();
    const channels = composeChannels({ store: s.store, agents: s.agents, emitter: events, log: () => undefined, policyOf: () => policy });
    try {
      await run(channels, events, s.general.id);
    } finally {
      await channels.close();
    }
  } finally {
    await s.teardown();
  }
}

/** Every state the card of `toolCallId` was shown in, in order. */
const cards = (events: Recorder, toolCallId: string) =>
  events.of("message/delta").flatMap((d) => (d.part?.type === "permission" && d.part.toolCallId === toolCallId ? [d.part] : []));

/** The first time the card of `toolCallId` is shown. */
const shown = (events: Recorder, toolCallId: string) => waitFor(() => cards(events, toolCallId)[0], 10_000, `the permission request of ${toolCallId}`);

/** What the agent said so far in the streaming answers (it writes ` [chose <optionId>]` after each answer it gets). */
const streamed = (events: Recorder) => events.of("message/delta").map((d) => d.appendText ?? "").join("");

/** The n-th finished agent answer (0-based). */
const answer = (events: Recorder, n: number) => waitFor(() => events.of("message/finished").filter((m) => m.author.kind === "agent")[n], 10_000, `answer ${n + 1}`);

test("Claude's “Yes, and don't ask again for `exit 3` commands” answers that request only: the next, unrelated command is shown and waits", async () => {
  const claude = fakeAgent("claude", { prompt: [...bash("toolu_1", "exit 3"), ...bash("toolu_2", PYTHON)] });
  await withPolicy([claude], "ask", async (channels, events, general) => {
    await channels.messages.send(general, "@claude run exit 3, then check the folder");
    const first = await shown(events, "toolu_1");
    assert.equal(first.title, "exit 3");
    assert.equal(await channels.turns.answerPermission(first.requestId, "allow-with-updates"), true, "the user chose the agent's own allow_always option");

    const second = await shown(events, "toolu_2");
    assert.equal(second.title, PYTHON);
    assert.equal(second.outcome, undefined, "the unrelated command is shown, not answered");
    assert.equal(second.auto, undefined);
    const waiting = await waitFor(() => events.of("permissions/pending").at(-1)?.waiting.find((w) => w.requestId === second.requestId), 5_000, "the second request waiting");
    assert.equal(waiting.agent, "claude");
    assert.deepEqual(streamed(events).match(/\[chose [^\]]+\]/g), ["[chose allow-with-updates]"], "the agent got the option the user chose for the first request, and nothing for the second");
    assert.deepEqual(await channels.permissions.list(["claude"]), [], "choosing the agent's option made no Sidekicks rule");

    assert.equal(await channels.turns.answerPermission(second.requestId, "reject"), true);
    const done = await answer(events, 0);
    const parts = done.parts.filter((p): p is PermissionPart => p.type === "permission");
    assert.deepEqual(parts.map((p) => [p.title, p.outcome, p.auto]), [["exit 3", "allow-with-updates", undefined], [PYTHON, "reject", undefined]]);
  });
});

test("allow-all answers with the one-time option even when the agent lists its “always” option first; an agent that offers only “always” is asked", async () => {
  const alwaysFirst: PermissionOption[] = [claudeBash("ls")[1]!, claudeBash("ls")[0]!, claudeBash("ls")[2]!];
  const onlyAlways: PermissionOption[] = [claudeBash("rm -rf build")[1]!, claudeBash("rm -rf build")[2]!];
  const claude = fakeAgent("claude", { prompt: [...bash("toolu_1", "ls", alwaysFirst), ...bash("toolu_2", "rm -rf build", onlyAlways)] });
  await withPolicy([claude], "allow-all", async (channels, events, general) => {
    await channels.messages.send(general, "@claude list, then clean");
    const first = await shown(events, "toolu_1");
    assert.equal(first.outcome, "allow-once", "the policy chose allow_once, not the agent's allow_always listed first");
    assert.match(first.auto ?? "", /allow-all/, "the card says the policy answered");
    const second = await shown(events, "toolu_2");
    assert.equal(second.outcome, undefined, "no one-time option: the user is asked");
    assert.match(second.notice ?? "", /never chooses an agent's “always” option for you/);
    assert.deepEqual(streamed(events).match(/\[chose [^\]]+\]/g), ["[chose allow-once]"]);
    assert.equal(await channels.turns.answerPermission(second.requestId, "reject"), true);
    await answer(events, 0);
  });
});

test("a Sidekicks rule made on a card matches the same request again and not a different one; it holds after a reload and revoking it asks again", async () => {
  const claude = fakeAgent("claude", { prompt: [...bash("toolu_1", "npm test"), ...bash("toolu_2", "npm test"), ...bash("toolu_3", "npm test -- --update"), ...bash("toolu_4", PYTHON)] });
  const s = await channelSetup([claude]);
  try {
    const { events } = s;
    await s.channels.messages.send(s.general.id, "@claude test twice");
    const first = await shown(events, "toolu_1");
    assert.equal(await s.channels.turns.answerPermission(first.requestId, "allow-with-updates", true), false, "no Sidekicks rule from the agent's own “always” option");
    assert.equal(await s.channels.turns.answerPermission(first.requestId, "allow-once", true), true, "“Always allow this request”: the one-time option, and a rule");
    const made = cards(events, "toolu_1").at(-1)!;
    assert.equal(made.outcome, "allow-once");
    assert.match(made.notice ?? "", /Sidekicks remembers: always allow @claude's request “npm test” \(tool kind execute\)/);

    const again = await shown(events, "toolu_2");
    assert.equal(again.outcome, "allow-once", "the same request again: answered by the rule with the one-time option");
    assert.match(again.auto ?? "", /Allowed by your Sidekicks rule: always allow @claude's request “npm test” \(tool kind execute\)/, "the card says which rule answered and what it matches");
    const longer = await shown(events, "toolu_3");
    assert.equal(longer.outcome, undefined, "a longer command is another request: asked");
    assert.equal(await s.channels.turns.answerPermission(longer.requestId, "reject"), true);
    const other = await shown(events, "toolu_4");
    assert.equal(other.outcome, undefined, "an unrelated command: asked");
    assert.equal(await s.channels.turns.answerPermission(other.requestId, "reject"), true);
    await answer(events, 0);
    assert.deepEqual(streamed(events).match(/\[chose [^\]]+\]/g), ["[chose allow-once]", "[chose allow-once]", "[chose reject]", "[chose reject]"]);

    await s.reopen();
    const listed = await s.channels.permissions.list(["claude"]);
    assert.deepEqual(listed, [{ agent: "claude", toolKind: "execute", title: "npm test", decision: "allow", legacy: false }], "kept after a reload");
    assert.match(describeRemembered(listed[0]!).label, /always allow @claude's request “npm test” \(tool kind execute\)/, "the list shows what the rule matches");
    assert.equal(await s.channels.permissions.forget(listed[0]!), true);
    assert.deepEqual(await s.channels.permissions.list(["claude"]), [], "revoked");

    await s.channels.messages.send(s.general.id, "@claude test again");
    const asked = await waitFor(() => cards(events, "toolu_1").find((c) => c.requestId !== first.requestId), 10_000, "the request of the second turn");
    assert.equal(asked.outcome, undefined, "revoked: the same request is asked again");
    assert.equal(asked.auto, undefined);
  } finally {
    await s.teardown();
  }
});

/** Codex's file-change options (codex-acp 2.6.0): its "always" covers these files, for the session. */
const CODEX_EDIT: PermissionOption[] = [
  { optionId: "allow_once", name: "Yes, proceed", kind: "allow_once" },
  { optionId: "allow_for_session", name: "Yes, and don't ask again for these files", kind: "allow_always" },
  { optionId: "cancel", name: "No, and tell Codex what to do differently", kind: "reject_once" },
];

/** A Codex file change: every one is titled "Edit files"; only its locations tell them apart. */
const codexEdit = (toolCallId: string, paths: string[]) => [
  { toolCall: { toolCallId, title: "Edit files", kind: "edit", status: "pending", locations: paths.map((path) => ({ path })) } },
  { permission: { toolCallId, title: "Edit files", kind: "edit", locations: paths.map((path) => ({ path })), options: CODEX_EDIT } },
];

test("Codex titles every file change the same: a Sidekicks rule on one matches those files only, never another file's change", async () => {
  const codex = fakeAgent("codex", { prompt: [...codexEdit("e1", ["/w/src/a.ts"]), ...codexEdit("e2", ["/w/src/a.ts"]), ...codexEdit("e3", ["/w/src/b.ts"])] });
  const s = await channelSetup([codex]);
  try {
    const { events } = s;
    await s.channels.messages.send(s.general.id, "@codex edit");
    const first = await shown(events, "e1");
    assert.deepEqual(first.paths, ["/w/src/a.ts"], "the card knows the files the request is about");
    assert.equal(await s.channels.turns.answerPermission(first.requestId, "allow_once", true), true);
    const again = await shown(events, "e2");
    assert.equal(again.outcome, "allow_once", "the same files: answered by the rule");
    assert.match(again.auto ?? "", /always allow @codex's request “Edit files” on \/w\/src\/a.ts \(tool kind edit\)/);
    const other = await shown(events, "e3");
    assert.equal(other.outcome, undefined, "another file: asked");
    assert.equal(await s.channels.turns.answerPermission(other.requestId, "cancel"), true);
    await answer(events, 0);
    assert.deepEqual(await s.channels.permissions.list(["codex"]), [{ agent: "codex", toolKind: "edit", title: "Edit files", paths: ["/w/src/a.ts"], decision: "allow", legacy: false }]);
  } finally {
    await s.teardown();
  }
});

test("rules an older version kept per tool kind are listed as broad and never answer: the request is asked and the card says why", async () => {
  const claude = fakeAgent("claude", {
    prompt: [...bash("toolu_1", "exit 3"), { toolCall: { toolCallId: "e1", title: "Edit `src/a.ts`", kind: "edit", status: "pending" } }, { permission: { toolCallId: "e1", title: "Edit `src/a.ts`", options: claudeBash("x").filter((o) => o.kind !== "allow_always") } }],
  });
  const s = await channelSetup([claude]);
  try {
    const { events } = s;
    // What an older Sidekicks wrote when the user chose Claude's "don't ask again" option (and an "Always reject").
    await s.store.commit({ values: [{ key: legacyKey("claude"), value: { execute: "allow", edit: "reject" } }] });
    const listed = await s.channels.permissions.list(["claude"]);
    assert.deepEqual(listed.map((r) => [r.toolKind, r.decision, r.legacy, r.title]), [["edit", "reject", true, undefined], ["execute", "allow", true, undefined]]);
    assert.match(describeRemembered(listed[1]!).label, /always allow every execute tool of @claude/);
    assert.match(describeRemembered(listed[1]!).description, /broad, from an older version: no longer applied/);

    await s.channels.messages.send(s.general.id, "@claude go");
    const run = await shown(events, "toolu_1");
    assert.equal(run.outcome, undefined, "the broad allow no longer answers");
    assert.match(run.notice ?? "", /older version of Sidekicks \(always allow every execute tool of @claude\) no longer answers/);
    assert.equal(await s.channels.turns.answerPermission(run.requestId, "allow-once"), true);
    const edit = await shown(events, "e1");
    assert.equal(edit.outcome, undefined, "the broad reject no longer answers either: the user decides");
    assert.equal(await s.channels.turns.answerPermission(edit.requestId, "reject"), true);
    await answer(events, 0);

    assert.equal(await s.channels.permissions.forget({ agent: "claude", toolKind: "execute", legacy: true }), true, "a broad rule can be forgotten");
    assert.deepEqual(await s.store.getValue(legacyKey("claude")), { edit: "reject" }, "only that one is gone from the old record");
    await s.reopen();
    assert.deepEqual((await s.channels.permissions.list(["claude"])).map((r) => [r.toolKind, r.legacy]), [["edit", true]]);
  } finally {
    await s.teardown();
  }
});
