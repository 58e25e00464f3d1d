import { test } from "node:test";
import assert from "node:assert/strict";
import {
  decideDeclared,
  decideDelete,
  decideDirect,
  decideJoin,
  decideMarkRead,
  decideRename,
  decideSyncGeneral,
} from "../../src/channels/directoryDecisions";
import { SidekicksError } from "../../src/shared/errors";
import type { ChannelRecord, MembershipRecord } from "../../src/store/records";

/** Deep-frozen, so a decision that changed what it read would throw. */
function frozen<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    Object.values(value).forEach(frozen);
    Object.freeze(value);
  }
  return value;
}

const NEXT = frozen({ id: "01NEW", at: 5 });
const ROSTER = frozen(["demo", "garfield", "odie"]);
const general = frozen<ChannelRecord>({ version: 1, id: "01GEN", name: "general", createdAt: 1, updatedAt: 1 });
const design = frozen<ChannelRecord>({ version: 1, id: "01DES", name: "design", kind: "channel", createdAt: 1, updatedAt: 1 });
const direct = frozen<ChannelRecord>({ version: 1, id: "01DIR", name: "@odie", kind: "direct", createdAt: 1, updatedAt: 1 });
const member = (channelId: string, agentName: string): MembershipRecord => frozen({ version: 1, channelId, agentName, joinedAt: 1 });
const refusedWith = (code: string) => (e: unknown) => e instanceof SidekicksError && e.code === code;

test("#general: created once; the roster's new agents join and the ones gone leave, in one batch", () => {
  const made = decideSyncGeneral(frozen({ members: [] }), ["demo"], NEXT);
  assert.deepEqual(made.changes.channels, [{ channel: { version: 1, id: "01NEW", name: "general", createdAt: 5, updatedAt: 5 } }]);
  assert.deepEqual(made.changes.members, [{ version: 1, channelId: "01NEW", agentName: "demo", joinedAt: 5 }]);
  const synced = decideSyncGeneral(frozen({ general, members: [member("01GEN", "demo"), member("01GEN", "gone")] }), ["demo", "odie"], NEXT);
  assert.equal(synced.changes.channels, undefined, "an existing #general is not written again");
  assert.deepEqual(synced.changes.members?.map((m) => m.agentName), ["odie"]);
  assert.deepEqual(synced.changes.removedMembers, [{ channelId: "01GEN", agentName: "gone" }]);
  assert.equal(synced.result, general);
});

test("rename: the same name writes nothing; a new one drops the old name index; #general and direct conversations refuse", () => {
  assert.deepEqual(decideRename(frozen({ channel: design, taken: true }), " #design ", 9), { changes: {}, result: { channel: design, renamed: false } });
  const renamed = decideRename(frozen({ channel: design, taken: false }), "#look", 9);
  assert.deepEqual(renamed.changes.channels, [{ channel: { ...design, name: "look", updatedAt: 9 }, previousName: "design" }]);
  assert.throws(() => decideRename(frozen({ channel: design, taken: true }), "look", 9), refusedWith("channel/exists"));
  assert.throws(() => decideRename(frozen({ channel: general, taken: false }), "lobby", 9), refusedWith("channel/invalidName"));
  assert.throws(() => decideRename(frozen({ channel: direct, taken: false }), "odie2", 9), refusedWith("channel/invalidName"));
});

test("delete: memberships and the direct indexes that point here go in the batch; #general and a busy channel refuse", () => {
  const read = frozen({ channel: direct, members: ["odie"], directOf: { odie: "01DIR" }, busy: false });
  assert.deepEqual(decideDelete(read).changes.deletedChannels, [{ channel: direct, directAgents: ["odie"] }]);
  const elsewhere = decideDelete(frozen({ channel: design, members: ["odie"], directOf: { odie: "01DIR" }, busy: false }));
  assert.deepEqual(elsewhere.changes.deletedChannels?.[0]?.directAgents, [], "@odie's direct conversation is another channel");
  assert.throws(() => decideDelete(frozen({ ...read, channel: general })), refusedWith("channel/invalidName"));
  assert.throws(() => decideDelete(frozen({ ...read, busy: true })), refusedWith("channel/busy"));
});

test("join writes nothing for a member already there; direct returns the existing conversation or creates one with its index", () => {
  assert.deepEqual(decideJoin(frozen({ channel: design, members: [member("01DES", "odie")] }), "odie", ROSTER, 9).changes, {});
  assert.throws(() => decideJoin(frozen({ channel: design, members: [] }), "nobody", ROSTER, 9), refusedWith("channel/unknownMember"));
  assert.deepEqual(decideDirect(direct, "odie", ROSTER, NEXT), { changes: {}, result: { channel: direct, created: false } });
  const made = decideDirect(undefined, "demo", ROSTER, NEXT);
  assert.deepEqual([made.result.created, made.changes.channels?.[0]?.directAgent, made.changes.members?.map((m) => m.agentName)], [true, "demo", ["demo"]]);
});

test("declared channels: created once with their roster members in one batch with the list of those done; deleted ones stay deleted", () => {
  const declared = frozen([
    { name: "design", members: ["odie", "nobody"] },
    { name: "done-before", members: [] },
    { name: "taken", members: [] },
    { name: "general", members: [] },
  ]);
  const ids = frozen(declared.map((_, i) => ({ id: `01N${i}`, at: 5 })));
  const first = decideDeclared(frozen({ done: ["done-before"], taken: new Set(["taken"]) }), declared, ROSTER, ids);
  assert.deepEqual(first.result.map((c) => c.name), ["design"]);
  assert.deepEqual(first.changes.members?.map((m) => m.agentName), ["odie"], "only roster agents join");
  assert.deepEqual(first.changes.values, [{ key: "declaredChannels", value: ["done-before", "design", "taken"] }]);
  const again = decideDeclared(frozen({ done: ["done-before", "design", "taken"], taken: new Set<string>() }), declared, ROSTER, ids);
  assert.deepEqual(again.changes, { channels: [], members: [] }, "nothing to write");
});

test("a declared general describes #general once, when it has no description of its own; the user's own is never overwritten", () => {
  const general = frozen<ChannelRecord>({ version: 1, id: "01GEN", name: "general", kind: "channel", createdAt: 1, updatedAt: 1 });
  const declared = frozen([{ name: "general", description: "Everyone", members: [] }]);
  const ids = frozen([{ id: "01N0", at: 7 }]);
  const first = decideDeclared(frozen({ done: [], taken: new Set(["general"]), general }), declared, ROSTER, ids);
  assert.deepEqual(first.result.map((c) => [c.id, c.description]), [["01GEN", "Everyone"]]);
  assert.deepEqual(first.changes.values, [{ key: "declaredChannels", value: ["general"] }]);
  const own = decideDeclared(frozen({ done: [], taken: new Set(["general"]), general: { ...general, description: "Mine" } }), declared, ROSTER, ids);
  assert.deepEqual([own.result, own.changes.channels], [[], []], "the user's description stays");
  const again = decideDeclared(frozen({ done: ["general"], taken: new Set(["general"]), general }), declared, ROSTER, ids);
  assert.deepEqual(again.changes, { channels: [], members: [] }, "once");
});

test("the read marker only moves forward", () => {
  assert.deepEqual(decideMarkRead(frozen({ channel: design, previous: "01B" }), "01A").changes, {});
  assert.deepEqual(decideMarkRead(frozen({ channel: design, previous: "01B" }), "01C").changes.values, [{ key: "lastRead/01DES", value: "01C" }]);
  assert.equal(decideMarkRead(frozen({ channel: design }), "01A").result.moved, true);
});
