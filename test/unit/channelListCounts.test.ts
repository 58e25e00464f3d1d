/**
 * The channel list's unread counts and members stay right while they are cached (issue 21, "Lists that stay fast"):
 * every kind of change shows in the next list, and nothing else moves.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { monotonicFactory } from "ulid";
import { composeChannels } from "../../src/app/compose";
import { Recorder } from "../../src/events/events";
import type { AgentState, ChannelSummary } from "../../src/shared/protocol";
import { ChannelSummaries } from "../../src/channels/channelSummaries";
import { Store } from "../../src/store/Store";
import type { MessageRecord } from "../../src/store/records";
import { tempDir } from "./helpers";

test("the list's unread counts and members follow each change, one channel at a time, while the others stay", async () => {
  const { dir, cleanup } = tempDir();
  const roster = ["demo", "odie"];
  const agents = { names: () => roster, state: (): AgentState => "stopped", session: () => Promise.reject(new Error("no agents here")) };
  const store = await Store.open(dir);
  const channels = composeChannels({ store, agents, emitter: new Recorder() });
  try {
    const { directory } = channels;
    const general = await directory.syncGeneral(roster);
    const design = await directory.create("design", { members: ["demo"] });
    const ulid = monotonicFactory();
    const say = async (channelId: string, author: MessageRecord["author"], text: string) => {
      const m: MessageRecord = { version: 1, id: ulid(), channelId, author, parts: [{ type: "text", text }], createdAt: Date.now() };
      await store.commit({ messages: [m] }); // as a turn commits its messages: not through the directory
      return m;
    };
    const shown = async () => Object.fromEntries((await directory.list()).map((c: ChannelSummary) => [c.name, [c.unread, c.members.join(",")]]));
    assert.deepEqual(await shown(), { general: [0, "demo,odie"], design: [0, "demo"] });

    await say(general.id, { kind: "user" }, "hello");
    const answer = await say(general.id, { kind: "agent", agentName: "demo" }, 'The "system" prompt says so.');
    await say(general.id, { kind: "system" }, "demo stopped");
    assert.deepEqual(await shown(), { general: [2, "demo,odie"], design: [0, "demo"] }, "the system note is not counted; a message quoting \"system\" is");

    await say(design.id, { kind: "user" }, "a colour?");
    assert.deepEqual(await shown(), { general: [2, "demo,odie"], design: [1, "demo"] });

    assert.equal(await directory.markRead(general.id, answer.id), 0);
    assert.deepEqual(await shown(), { general: [0, "demo,odie"], design: [1, "demo"] }, "read up to the answer: the system note after it is not unread");

    await directory.join({ id: design.id }, "odie");
    await directory.rename({ id: design.id }, "look");
    assert.deepEqual(await shown(), { general: [0, "demo,odie"], look: [1, "demo,odie"] });

    await directory.delete({ id: design.id });
    assert.deepEqual(await shown(), { general: [0, "demo,odie"] });
  } finally {
    await channels.close();
    await store.close();
    cleanup();
  }
});

test("a busy channel shows busy in the next list and stops when its answer finishes", async () => {
  const { dir, cleanup } = tempDir();
  const agents = { names: () => ["demo"], state: (): AgentState => "stopped", session: () => Promise.reject(new Error("no agents here")) };
  const store = await Store.open(dir);
  const channels = composeChannels({ store, agents, emitter: new Recorder() });
  try {
    const general = await channels.directory.syncGeneral(["demo"]);
    const busy = async () => (await channels.directory.list()).map((c) => c.busy);
    assert.deepEqual(await busy(), [false]);
    const message = { id: "01J0000000000000000000000A", channelId: general.id, author: { kind: "agent" as const, agentName: "demo" }, parts: [], status: "streaming" as const, createdAt: 1 };
    channels.directory.observe("started", message as never);
    assert.deepEqual(await busy(), [true]);
    channels.directory.observe("finished", message as never);
    assert.deepEqual(await busy(), [false]);
  } finally {
    await channels.close();
    await store.close();
    cleanup();
  }
});

test("unread counts that follow new messages without reading them stay what a recount gives: answers rewritten, an older id committed late, system notes, past the cap, then a read", async () => {
  const { dir, cleanup } = tempDir();
  const roster = ["demo"];
  const agents = { names: () => roster, state: (): AgentState => "stopped", session: () => Promise.reject(new Error("no agents here")) };
  const store = await Store.open(dir);
  const channels = composeChannels({ store, agents, emitter: new Recorder() });
  try {
    const { directory } = channels;
    const general = await directory.syncGeneral(roster);
    const ulid = monotonicFactory();
    let at = Date.now();
    const make = (author: MessageRecord["author"], text: string, when = ++at): MessageRecord => ({ version: 1, id: ulid(when), channelId: general.id, author, parts: [{ type: "text", text }], createdAt: when });
    const shown = async () => (await directory.list()).find((c) => c.id === general.id)!.unread;
    const recounted = async () => (await new ChannelSummaries(store).counts(general.id)).unread;
    const check = async (what: string, expected: number) => {
      assert.equal(await recounted(), expected, `recount after ${what}`);
      assert.equal(await shown(), expected, what);
    };
    await check("nothing", 0);
    const queued = make({ kind: "agent", agentName: "demo" }, "", at - 500); // an id from before, committed later
    const answer = make({ kind: "agent", agentName: "demo" }, "");
    await store.commit({ messages: [make({ kind: "user" }, "hello"), answer] });
    await check("a question and an empty answer", 2);
    await store.commit({ messages: [{ ...answer, parts: [{ type: "text", text: "checkpoint" }] }] });
    await store.commit({ messages: [{ ...answer, parts: [{ type: "text", text: "settled" }] }] });
    await check("the answer rewritten twice", 2);
    await store.commit({ messages: [make({ kind: "system" }, "demo stopped")] });
    await check("a system note", 2);
    await store.commit({ messages: [queued] });
    await check("an older id committed late", 3);
    for (let i = 0; i < 60; i++) await store.commit({ messages: [make({ kind: "user" }, `q${i}`), make({ kind: "agent", agentName: "demo" }, `a${i}`)] });
    await check("120 more", 98); // 99 records scanned at most; the system note among them
    const last = make({ kind: "user" }, "the newest");
    await store.commit({ messages: [last] });
    await check("one more past the cap", 98);
    await directory.markRead(general.id, answer.id);
    await check("read up to the answer", 98);
    await directory.markRead(general.id, last.id);
    await check("read to the end", 0);
    await store.commit({ messages: [make({ kind: "user" }, "after the read")] });
    await check("a new message after the read", 1);
  } finally {
    await channels.close();
    await store.close();
    cleanup();
  }
});
