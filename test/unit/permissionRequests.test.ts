// Issue 18, "every question shown has a way out": malformed and oversized permission requests are shown with what
// makes sense (unknown option kinds as plain choices, a long title kept to a bound), or answered cancelled at once with
// a note on the card; nothing waits for an answer no one can give, and what was changed is logged.
import { test } from "node:test";
import assert from "node:assert/strict";
import { MAX_OPTIONS, MAX_TITLE, readPermissionRequest } from "../../src/acp/permissionRequest";
import { decide } from "../../src/turns/permissionPolicy";
import { channelSetup, fakeAgent, textOf } from "./channelHarness";
import { waitFor } from "./helpers";

const base = { sessionId: "s", toolCall: { toolCallId: "t1", title: "Run `make`" } };
const opt = (optionId: unknown, name: unknown, kind: unknown) => ({ optionId, name, kind });

test("readPermissionRequest: a table of malformed requests, each shown with what makes sense", () => {
  const rows: { what: string; params: unknown; options?: [string, string, string][]; problems?: RegExp[]; title?: string; toolCallId?: RegExp }[] = [
    { what: "well formed", params: { ...base, options: [opt("ok", "Allow", "allow_once"), opt("no", "Reject", "reject_once")] }, options: [["ok", "Allow", "allow_once"], ["no", "Reject", "reject_once"]], problems: [] },
    { what: "an unknown kind is a plain choice", params: { ...base, options: [opt("maybe", "Allow for a while", "allow_maybe"), opt("no", "Reject", "reject_once")] }, options: [["maybe", "Allow for a while", "other"], ["no", "Reject", "reject_once"]], problems: [/"maybe" of kind "allow_maybe" shown as a plain choice/] },
    { what: "a missing kind", params: { ...base, options: [opt("x", "X", undefined)] }, options: [["x", "X", "other"]], problems: [/kind null/] },
    { what: "a nameless option is named by its id", params: { ...base, options: [opt("ok", "", "allow_once"), opt("no", 7, "reject_once")] }, options: [["ok", "ok", "allow_once"], ["no", "no", "reject_once"]], problems: [/"ok" has no name/, /"no" has no name/] },
    { what: "options without an id, and an id again, are left out", params: { ...base, options: [opt("", "A", "allow_once"), opt(3, "B", "allow_once"), null, "x", opt("ok", "C", "allow_once"), opt("ok", "D", "reject_once")] }, options: [["ok", "C", "allow_once"]], problems: [/4 options without an id left out/, /1 option with an id offered before left out/] },
    { what: "options that are not a list", params: { ...base, options: { a: 1 } }, options: [], problems: [/not a list/] },
    { what: "too many options", params: { ...base, options: Array.from({ length: MAX_OPTIONS + 5 }, (_, i) => opt(`o${i}`, `O${i}`, "allow_once")) }, problems: [/5 options beyond the first 20 left out/] },
    { what: "a tool call without an id gets one", params: { sessionId: "s", toolCall: { title: "Edit" }, options: [opt("ok", "Yes", "allow_once")] }, toolCallId: /^permission-\d+$/, problems: [/names no tool call/] },
    { what: "no tool call at all", params: { sessionId: "s", options: [opt("ok", "Yes", "allow_once")] }, toolCallId: /^permission-\d+$/ },
    { what: "a huge title is cut", params: { ...base, toolCall: { toolCallId: "t1", title: "x".repeat(MAX_TITLE + 7) }, options: [opt("ok", "Yes", "allow_once")] }, title: "x".repeat(MAX_TITLE), problems: [/title of 10007 characters cut at 10000/] },
    { what: "garbage in the tool call's content and locations", params: { ...base, toolCall: { toolCallId: "t1", title: "T", content: [null, 3, { type: "diff", path: "/a", newText: "b" }], locations: [null, { path: "/a" }] }, options: [opt("ok", "Yes", "allow_once")] } },
  ];
  for (const row of rows) {
    const read = readPermissionRequest(row.params);
    assert.ok(read, row.what);
    if (row.options) assert.deepEqual(read.request.options.map((o) => [o.optionId, o.name, o.kind]), row.options, row.what);
    if (row.problems) {
      assert.equal(read.problems.length, row.problems.length, `${row.what}: ${read.problems.join("; ")}`);
      row.problems.forEach((p, i) => assert.match(read.problems[i]!, p, row.what));
    }
    if (row.title) assert.equal(read.request.title, row.title, row.what);
    if (row.toolCallId) assert.match(read.request.toolCallId, row.toolCallId, row.what);
  }
  const garbage = readPermissionRequest(rows.at(-1)!.params)!;
  assert.deepEqual(garbage.request.toolCall?.diffs, [{ path: "/a", oldText: null, newText: "b" }]);
  assert.deepEqual(garbage.request.paths, ["/a"]);
  for (const params of [null, 3, [], {}, { sessionId: "" }, { sessionId: 4 }]) assert.equal(readPermissionRequest(params), undefined, `no session: ${JSON.stringify(params)}`);
});

test("a plain choice is never chosen by the policy: allow-all leaves a request whose only allowing option is of an unknown kind to the user", () => {
  const read = readPermissionRequest({ ...base, options: [opt("maybe", "Allow", "allow_maybe")] })!;
  const part = { type: "permission" as const, requestId: "r", toolCallId: "t1", title: "Run `make`", toolKind: "execute", options: read.request.options };
  assert.equal(decide("a", part, "allow-all", undefined).optionId, undefined);
});

test("end to end: an unknown kind is a button the user can click (the agent gets its id); a request with no choice is answered cancelled at once, with a note", async () => {
  const s = await channelSetup([
    fakeAgent("odd", {
      prompt: [
        { permission: { toolCallId: "t1", title: "Run `make`", options: [opt("maybe", "Allow for an hour", "allow_for_an_hour"), opt("no", "Reject", "reject_once")] } },
        { permission: { toolCallId: "t2", title: "Run `rm -rf build`", options: [opt("", "Nameless", "allow_once")] } },
        { chunk: " done" },
      ],
    }),
  ]);
  try {
    await s.channels.messages.send(s.general.id, "@odd build");
    const asked = await waitFor(() => s.events.of("message/delta").find((d) => d.part?.type === "permission" && d.part.outcome === undefined)?.part, 10_000, "the card");
    assert.ok(asked.type === "permission");
    assert.deepEqual(asked.options, [{ optionId: "maybe", name: "Allow for an hour", kind: "other" }, { optionId: "no", name: "Reject", kind: "reject_once" }]);
    assert.equal(await s.channels.turns.answerPermission(asked.requestId, "maybe"), true);
    const answer = await s.finished((m) => m.author.kind === "agent");
    assert.match(textOf(answer), /\[chose maybe\] \[cancelled\] done/, "the agent got the plain choice, then cancelled for the request it gave no choice in");
    const cards = answer.parts.filter((p) => p.type === "permission");
    assert.equal(cards.length, 2);
    const second = cards[1]!;
    assert.ok(second.type === "permission" && second.outcome === "cancelled");
    assert.match(second.notice ?? "", /@odd asked without offering a choice Sidekicks can show, so Sidekicks answered Cancelled/);
    assert.equal(answer.outcome, "completed");
    const logs = s.events.of("agent/log").map((l) => l.line).join("\n");
    assert.match(logs, /"maybe" of kind "allow_for_an_hour" shown as a plain choice/);
    assert.match(logs, /1 option without an id left out/);
  } finally {
    await s.teardown();
  }
});
