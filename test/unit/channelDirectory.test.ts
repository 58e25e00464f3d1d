import { test } from "node:test";
import assert from "node:assert/strict";
import { monotonicFactory } from "ulid";
import { ChannelDirectory } from "../../src/channels/ChannelDirectory";
import { composeChannels } from "../../src/app/compose";
import { SidekicksError } from "../../src/shared/errors";
import { Recorder } from "../../src/events/events";
import type { AgentState, MessageView } from "../../src/shared/protocol";
import { Store } from "../../src/store/Store";
import { StoreWriter } from "../../src/store/StoreWriter";
import type { MessageRecord } from "../../src/store/records";
import { tempDir } from "./helpers";

/** A directory over a temp LevelDB and a roster of names (no process is started by the directory). */
async function setup(roster = ["demo", "garfield", "odie"]) {
  const { dir, cleanup } = tempDir();
  const events = new Recorder();
  const agents = { names: () => roster, state: (): AgentState => "stopped", session: () => Promise.reject(new Error("no agents here")) };
  let store = await Store.open(dir);
  const channels = composeChannels({ store, agents, emitter: events });
  const general = await channels.directory.syncGeneral(roster);
  let directory = new ChannelDirectory(new StoreWriter(store), agents, events);
  const ulid = monotonicFactory();
  const say = async (channelId: string, author: MessageRecord["author"], text: string) => {
    const m: MessageRecord = { version: 1, id: ulid(), channelId, author, parts: [{ type: "text", text }], createdAt: Date.now() };
    await store.commit({ messages: [m] });
    return m;
  };
  const reopen = async () => {
    await store.close();
    store = await Store.open(dir);
    directory = new ChannelDirectory(new StoreWriter(store), agents, events);
    return directory;
  };
  return {
    events, general, say, reopen, roster,
    get directory() { return directory; },
    get store() { return store; },
    teardown: async () => {
      await store.close();
      cleanup();
    },
  };
}

const names = (list: { name: string }[]) => list.map((c) => c.name);
const rejectsWith = (p: Promise<unknown>, code: string) => assert.rejects(p, (e: unknown) => e instanceof SidekicksError && e.code === code);

test("create lists the channel after #general with its description and members; names are checked", async () => {
  const s = await setup();
  try {
    const design = await s.directory.create("#design", { description: "Look and feel", members: ["odie", "demo"] });
    assert.deepEqual([design.name, design.kind, design.description, design.members, design.unread, design.busy], ["design", "channel", "Look and feel", ["demo", "odie"], 0, false]);
    await s.directory.create("alpha");
    assert.deepEqual(names(await s.directory.list()), ["general", "alpha", "design"]);
    await rejectsWith(s.directory.create("design"), "channel/exists");
    await rejectsWith(s.directory.create("Has Spaces"), "channel/invalidName");
    await rejectsWith(s.directory.create("ok", { members: ["nobody"] }), "channel/unknownMember");
    assert.deepEqual(s.events.of("channels/changed").at(-1)?.map((c) => c.name), ["general", "alpha", "design"], "the list change is announced");
  } finally {
    await s.teardown();
  }
});

test("rename keeps id, members and history and frees the old name; #general and directs cannot be renamed", async () => {
  const s = await setup();
  try {
    const c = await s.directory.create("tmp", { members: ["garfield"] });
    await s.say(c.id, { kind: "user" }, "@garfield hi");
    const renamed = await s.directory.rename({ name: "tmp" }, "lasagna");
    assert.equal(renamed.id, c.id);
    assert.deepEqual(renamed.members, ["garfield"]);
    assert.equal((await s.store.latestMessages(c.id, 10)).length, 1);
    assert.equal((await s.directory.resolve({ name: "lasagna" })).id, c.id);
    await rejectsWith(s.directory.resolve({ name: "tmp" }), "channel/notFound");
    await s.directory.create("tmp"); // the old name is free again
    assert.equal(s.events.of("channel/changed").find((v) => v.id === c.id && v.name === "lasagna")?.members[0]?.name, "garfield", "the open header follows");
    await rejectsWith(s.directory.rename({ name: "general" }, "main"), "channel/invalidName");
    assert.equal((await s.directory.describe({ id: c.id }, "  Lasagna talk ")).description, "Lasagna talk");
    assert.equal((await s.directory.describe({ id: c.id }, "")).description, undefined, "an empty description clears it");
    await s.directory.direct("odie");
    await rejectsWith(s.directory.rename({ name: "@odie" }, "x"), "channel/invalidName");
  } finally {
    await s.teardown();
  }
});

test("delete removes the channel, its members and its history; #general and busy channels are refused", async () => {
  const s = await setup();
  try {
    const c = await s.directory.create("scratch", { members: ["demo"] });
    await s.say(c.id, { kind: "user" }, "@demo hello");
    const answer: MessageView = { id: "A1", channelId: c.id, author: { kind: "agent", agentName: "demo" }, parts: [], createdAt: 0, status: "streaming" };
    s.directory.observe("started", answer);
    assert.equal((await s.directory.list()).find((x) => x.id === c.id)?.busy, true, "busy while demo answers there");
    await rejectsWith(s.directory.delete({ id: c.id }), "channel/busy");
    s.directory.observe("finished", { ...answer, status: "done" });
    await s.directory.delete({ id: c.id });
    assert.deepEqual(names(await s.directory.list()), ["general"]);
    assert.deepEqual(await s.store.latestMessages(c.id, 10), []);
    assert.deepEqual(await s.store.members(c.id), []);
    await rejectsWith(s.directory.delete({ name: "general" }), "channel/invalidName");
  } finally {
    await s.teardown();
  }
});

test("members join and leave; #general keeps the roster; unknown agents cannot join", async () => {
  const s = await setup();
  try {
    const c = await s.directory.create("pair");
    assert.deepEqual((await s.directory.join({ id: c.id }, "odie")).members, ["odie"]);
    assert.deepEqual((await s.directory.join({ id: c.id }, "demo")).members, ["demo", "odie"]);
    assert.deepEqual((await s.directory.join({ id: c.id }, "demo")).members, ["demo", "odie"], "joining twice is a no-op");
    assert.deepEqual((await s.directory.leave({ id: c.id }, "odie")).members, ["demo"]);
    await rejectsWith(s.directory.join({ id: c.id }, "nobody"), "channel/unknownMember");
    await rejectsWith(s.directory.leave({ name: "general" }, "demo"), "channel/invalidName");
    assert.deepEqual((await s.directory.list())[0]?.members, ["demo", "garfield", "odie"]);
  } finally {
    await s.teardown();
  }
});

test("a direct conversation is a one-member channel found again through direct/<agent>, also after a reopen", async () => {
  const s = await setup();
  try {
    const dm = await s.directory.direct("garfield");
    assert.deepEqual([dm.name, dm.kind, dm.members], ["@garfield", "direct", ["garfield"]]);
    assert.equal((await s.directory.direct("garfield")).id, dm.id, "the same conversation, not a second one");
    await s.directory.create("zeta");
    assert.deepEqual(names(await s.directory.list()), ["general", "zeta", "@garfield"], "directs come after channels");
    await rejectsWith(s.directory.join({ id: dm.id }, "odie"), "channel/invalidName");
    await rejectsWith(s.directory.direct("nobody"), "channel/unknownMember");
    const again = await s.reopen();
    assert.equal((await again.direct("garfield")).id, dm.id);
    await again.delete({ id: dm.id });
    assert.notEqual((await again.direct("garfield")).id, dm.id, "after a delete, a new conversation starts");
  } finally {
    await s.teardown();
  }
});

test("declared channels are created once with their roster members; edits and deletions in the UI stick", async () => {
  const s = await setup();
  try {
    const declared = [
      { name: "panel", description: "Compare answers", members: ["garfield", "odie", "ghost"], moderator: "demo" },
      { name: "general", members: ["demo"] },
    ];
    assert.deepEqual(await s.directory.syncDeclared(declared), ["panel"]);
    const panel = (await s.directory.list()).find((c) => c.name === "panel");
    assert.deepEqual([panel?.description, panel?.members], ["Compare answers", ["garfield", "odie"]], "unknown names are left out");
    await s.directory.leave({ name: "panel" }, "odie");
    assert.deepEqual(await s.directory.syncDeclared(declared), [], "an existing channel is not touched");
    assert.deepEqual((await s.directory.resolve({ name: "panel" })).name, "panel");
    await s.directory.delete({ name: "panel" });
    assert.deepEqual(await s.directory.syncDeclared(declared), [], "a declared channel the user deleted stays deleted");
    assert.deepEqual(await s.directory.syncDeclared([{ name: "later", members: [] }]), ["later"], "a new declaration is created");
    assert.deepEqual(names(await s.directory.list()), ["general", "later"]);
  } finally {
    await s.teardown();
  }
});

test("unread counts user and agent messages after the last one seen, capped at 99; reading clears them", async () => {
  const s = await setup();
  try {
    const c = await s.directory.create("news", { members: ["demo"] });
    const unread = async (id: string) => (await s.directory.list()).find((x) => x.id === id)?.unread;
    assert.equal(await unread(c.id), 0);
    const first = await s.say(c.id, { kind: "user" }, "@demo one");
    await s.say(c.id, { kind: "agent", agentName: "demo" }, "answer");
    await s.say(c.id, { kind: "system" }, "demo joined");
    assert.equal(await unread(c.id), 2, "system lines do not count");
    assert.equal(await s.directory.markRead(c.id, first.id), 1);
    const last = await s.say(c.id, { kind: "agent", agentName: "demo" }, "more");
    assert.equal(await s.directory.markRead(c.id, last.id), 0);
    assert.equal(await s.directory.markRead(c.id, first.id), 0, "the marker never moves back");
    for (let i = 0; i < 120; i++) await s.say(s.general.id, { kind: "agent", agentName: "odie" }, `${i}`);
    assert.equal(await unread(s.general.id), 99);
    await s.reopen();
    assert.equal(await unread(c.id), 0, "the marker is stored (value/lastRead/<channel>)");
  } finally {
    await s.teardown();
  }
});

test("a turn's list changes announce only the lines that moved; a channel created, renamed or deleted announces the whole list", async () => {
  const s = await setup();
  try {
    const news = await s.directory.create("news", { members: ["demo"] });
    await s.directory.create("quiet");
    const whole = s.events.of("channels/changed").length;
    const started: MessageView = { id: "m1", channelId: news.id, author: { kind: "agent", agentName: "demo" }, parts: [], createdAt: Date.now(), status: "streaming" };
    s.directory.observe("started", started);
    const answer = await s.say(news.id, { kind: "agent", agentName: "demo" }, "answer");
    s.directory.observe("finished", { ...started, status: "done" });
    await s.directory.markRead(news.id, answer.id); // announced after the answer's line: announcements go out in order
    await s.directory.markRead(news.id, answer.id); // the marker did not move: nothing announced
    const updates = s.events.of("channels/updated");
    assert.equal(s.events.of("channels/changed").length, whole, "no whole list for counts and busy markers");
    assert.ok(updates.every((lines) => lines.length === 1 && lines[0]!.id === news.id), `only the news line is announced: ${JSON.stringify(updates)}`);
    assert.deepEqual([updates[0]![0]!.busy, updates.at(-1)![0]!.busy, updates.at(-1)![0]!.unread], [true, false, 0], "busy while answering, then read");
    assert.ok(updates.length <= 3, "one announcement per change at most, none for a marker that did not move");
    await s.directory.rename({ id: news.id }, "headlines");
    assert.deepEqual(names(s.events.of("channels/changed").at(-1)!), ["general", "headlines", "quiet"], "a rename announces the whole list, in its new order");
  } finally {
    await s.teardown();
  }
});
