/**
 * Permission policy (brief: `ask`, `allow-reads`, `allow-all`; "Allow always" remembered): which requests are
 * answered without asking, what the card says, and what is remembered — as a table, then end to end with a fake
 * agent that asks.
 */
import assert from "node:assert/strict";
import test from "node:test";
import { ChannelService } from "../../src/channels/ChannelService";
import { Recorder } from "../../src/events/events";
import type { PermissionOption } from "../../src/protocol";
import { autoAnswer, type PermissionPolicy, type RememberedChoices } from "../../src/turns/permissionPolicy";
import { channelSetup, fakeAgent, textOf } from "./channelHarness";
import { waitFor } from "./helpers";

const ALL: PermissionOption[] = [
  { optionId: "once", name: "Allow once", kind: "allow_once" },
  { optionId: "always", name: "Always allow", kind: "allow_always" },
  { optionId: "no", name: "Reject", kind: "reject_once" },
  { optionId: "never", name: "Always reject", kind: "reject_always" },
];
const REJECT_ONLY: PermissionOption[] = [{ optionId: "no", name: "Reject", kind: "reject_once" }];

const table: [PermissionPolicy, string | undefined, RememberedChoices, PermissionOption[], string | undefined, RegExp?][] = [
  ["ask", "read", {}, ALL, undefined],
  ["ask", "edit", {}, ALL, undefined],
  ["allow-reads", "read", {}, ALL, "once", /a read tool, and @a's permissions are allow-reads/],
  ["allow-reads", "search", {}, ALL, "once"],
  ["allow-reads", "think", {}, ALL, "once"],
  ["allow-reads", "edit", {}, ALL, undefined],
  ["allow-reads", "execute", {}, ALL, undefined],
  ["allow-reads", "delete", {}, ALL, undefined],
  ["allow-reads", undefined, {}, ALL, undefined],
  ["allow-all", "execute", {}, ALL, "once", /allow-all/],
  ["allow-all", undefined, {}, ALL, "once"],
  ["allow-all", "edit", {}, REJECT_ONLY, undefined],
  ["ask", "edit", { edit: "allow" }, ALL, "always", /you chose to always allow edit tools for @a/],
  ["ask", "edit", { edit: "reject" }, ALL, "never", /always reject/],
  ["allow-all", "edit", { edit: "reject" }, ALL, "never"],
  ["ask", "execute", { edit: "allow" }, ALL, undefined],
  ["ask", undefined, { other: "allow" }, ALL, "always"],
  ["ask", "edit", { edit: "allow" }, REJECT_ONLY, undefined],
];
for (const [policy, kind, remembered, options, expected, reason] of table) {
  test(`policy ${policy}, tool kind ${kind ?? "none"}, remembered ${JSON.stringify(remembered)} → ${expected ?? "ask"}`, () => {
    const answer = autoAnswer("a", policy, kind, remembered, options);
    assert.equal(answer?.optionId, expected);
    if (reason) assert.match(answer!.reason, reason);
  });
}

test("end to end: allow-reads answers a read request itself and says so; an edit is asked; 'Always allow' is remembered and answers the next edit", async () => {
  const agent = fakeAgent("a", {
    prompt: [
      { toolCall: { toolCallId: "r1", title: "Read README", kind: "read", status: "pending" } },
      { permission: { toolCallId: "r1", kind: "read", options: [{ optionId: "ok", name: "Allow", kind: "allow_once" }, { optionId: "always", name: "Always allow", kind: "allow_always" }, { optionId: "no", name: "Reject", kind: "reject_once" }] } },
      { toolCall: { toolCallId: "e1", title: "Edit main.ts", kind: "edit", status: "pending" } },
      { permission: { toolCallId: "e1", options: [{ optionId: "ok", name: "Allow", kind: "allow_once" }, { optionId: "always", name: "Always allow", kind: "allow_always" }, { optionId: "no", name: "Reject", kind: "reject_once" }] } },
    ],
  });
  const s = await channelSetup([agent]);
  try {
    await s.channels.close();
    const events = new Recorder();
    const channels = new ChannelService(s.store, s.agents, events, () => undefined, Date.now, undefined, { policyOf: () => "allow-reads" });
    try {
      await channels.send(s.general.id, "@a go");
      const asked = await waitFor(() => events.of("message:delta").find((d) => d.part?.type === "permission" && d.part.toolCallId === "e1" && !d.part.outcome)?.part, 10_000, "the edit request");
      const auto = events.of("message:delta").find((d) => d.part?.type === "permission" && d.part.toolCallId === "r1")?.part;
      assert.ok(auto?.type === "permission" && auto.outcome === "ok" && /allow-reads/.test(auto.auto ?? ""), "the read request was answered by the policy, and says so");
      assert.ok(asked.type === "permission" && asked.toolKind === "edit" && asked.auto === undefined, "the edit is asked, its kind taken from the tool call");
      const waiting = events.of("permissions:pending").at(-1)!.waiting;
      assert.deepEqual(waiting.map((w) => [w.agent, w.requestId, w.title]), [["a", asked.requestId, "Edit main.ts"]], "the status bar and the badge show one request waiting");
      assert.ok(!events.of("permissions:pending").some((p) => p.waiting.some((w) => w.title === "Read README")), "the auto-answered read never waited");
      assert.equal(await channels.answerPermission(asked.requestId, "always"), true);
      assert.deepEqual(events.of("permissions:pending").at(-1)!.waiting, [], "nothing waits once answered");
      const first = await waitFor(() => events.of("message:finished").find((m) => m.author.kind === "agent"), 10_000, "the first answer");
      assert.match(textOf(first), /\[chose ok\].*\[chose always\]/s, "the agent received both answers");
      assert.deepEqual(await channels.permissions.list(["a"]), [{ agent: "a", toolKind: "edit", decision: "allow" }]);

      await channels.send(s.general.id, "@a again");
      const second = await waitFor(() => events.of("message:finished").filter((m) => m.author.kind === "agent")[1], 10_000, "the second answer");
      const edit = second.parts.find((p) => p.type === "permission" && p.toolCallId === "e1");
      assert.ok(edit?.type === "permission" && edit.outcome === "always" && /always allow edit tools/.test(edit.auto ?? ""), "remembered: answered without asking");
      assert.equal(await channels.permissions.forget("a", "edit"), true);
      assert.deepEqual(await channels.permissions.list(["a"]), [], "revoked");
    } finally {
      await channels.close();
    }
  } finally {
    await s.teardown();
  }
});
