import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { ESLint } from "eslint";
import { composeChannels } from "../../src/app/compose";
import { AgentCommands } from "../../src/channels/AgentCommands";
import { ChannelDirectory } from "../../src/channels/ChannelDirectory";
import { Recorder } from "../../src/events/events";
import { SidekicksError } from "../../src/shared/errors";
import type { AgentState, SessionStateView } from "../../src/shared/protocol";
import { Store, type StoreChanges } from "../../src/store/Store";
import { StoreWriter, type Decision } from "../../src/store/StoreWriter";
import { PermissionMemory } from "../../src/turns/permissionMemory";
import { decidePersist } from "../../src/turns/persistBatch";
import { tempDir } from "./helpers";

const ROSTER = ["demo", "garfield", "odie"];
const agentsStub = () => ({
  names: () => ROSTER,
  state: (): AgentState => "ready",
  session: () => Promise.reject(new Error("no agents here")),
  configure: async (agent: string, channelId: string) => ({ state: { channelId, agent, live: true } satisfies SessionStateView, sessionId: `session-of-${agent}` }),
});

/** A promise and its resolver. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** `store`, except the calls `override` names. */
function wrap(store: Store, override: Partial<Record<keyof Store, unknown>>): Store {
  return new Proxy(store, {
    get(target, prop, receiver) {
      if (prop in override) return override[prop as keyof Store];
      const value: unknown = Reflect.get(target, prop, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** The lane, telling the test when a write has to wait behind another. */
class SpyWriter extends StoreWriter {
  onQueued: () => void = () => undefined;
  override write<S, T>(read: (store: Store) => Promise<S> | S, decide: (state: S) => Decision<T>): Promise<T> {
    if (this.busy) this.onQueued();
    return super.write(read, decide);
  }
}

const rejectsWith = (p: Promise<unknown>, code: string) => assert.rejects(p, (e: unknown) => e instanceof SidekicksError && e.code === code);
const memberNames = async (store: Store, channelId: string) => (await store.members(channelId)).map((m) => m.agentName);

test("a member removed while a turn's batch for it is being written stays removed (the session id write cannot bring it back)", async () => {
  const { dir, cleanup } = tempDir();
  const store = await Store.open(dir);
  try {
    // The batch reads the member, then waits here before committing: the moment the removal used to slip in.
    let gate: { channelId: string; reached: ReturnType<typeof deferred>; release: ReturnType<typeof deferred> } | undefined;
    const gated = wrap(store, {
      members: async (channelId: string) => {
        const members = await store.members(channelId);
        const g = gate;
        if (g && g.channelId === channelId) {
          gate = undefined;
          g.reached.resolve();
          await g.release.promise;
        }
        return members;
      },
    });
    const writer = new SpyWriter(gated);
    const events = new Recorder();
    const channels = composeChannels({ store, agents: agentsStub(), emitter: events, writer });
    await channels.ready;
    const design = await channels.directory.create("design", { members: ["garfield", "odie"] });
    const armed = { channelId: design.id, reached: deferred(), release: deferred() };
    gate = armed;

    // Changing @odie's mode opens a session: its id is written to the member (a `persist` effect).
    const configuring = channels.sessions.configure(design.id, "odie", { kind: "mode", modeId: "code" });
    await armed.reached.promise;
    const { release } = armed;
    let waited = false;
    writer.onQueued = () => {
      waited = true;
      release.resolve();
    };
    const leaving = channels.directory.leave({ id: design.id }, "odie");
    // Had the removal not queued behind the batch, it would be done by now: the batch then commits what it read.
    void leaving.finally(() => release.resolve());
    const [, left] = await Promise.all([configuring, leaving]);

    assert.deepEqual(left.members, ["garfield"], "the directory says @odie left");
    assert.deepEqual(await memberNames(store, design.id), ["garfield"], "and the store agrees: @odie is not written back");
    assert.deepEqual((await channels.directory.list()).find((c) => c.id === design.id)?.members, ["garfield"]);
    assert.ok(waited, "the removal waited for the batch in the store's write lane");
    await channels.close();
  } finally {
    await store.close();
    cleanup();
  }
});

test("a turn's batch for a member no longer stored writes its records but not the member", () => {
  const effect = {
    type: "persist" as const,
    messages: [],
    session: { channelId: "c1", agent: "odie", acpSessionId: "s-2" },
    advanceMember: { channelId: "c1", agent: "odie", lastSeenMessageId: "m9", turnId: "t1" },
  };
  assert.deepEqual(decidePersist(effect, {}).changes.members, [], "gone: nothing written for it");
  const held = { version: 1 as const, channelId: "c1", agentName: "odie", joinedAt: 1, acpSessionId: "s-1" };
  assert.deepEqual(
    decidePersist(effect, { seen: held, session: held }).changes.members,
    [{ ...held, lastSeenMessageId: "m9", acpSessionId: "s-2" }],
    "still there: one record with both moves",
  );
});

test("two channels created at once with the same name: one is created, the other is refused with channel/exists", async () => {
  const { dir, cleanup } = tempDir();
  const store = await Store.open(dir);
  try {
    const directory = new ChannelDirectory(new StoreWriter(store), agentsStub(), new Recorder());
    const results = await Promise.allSettled([directory.create("design"), directory.create("#design", { members: ["odie"] })]);
    assert.deepEqual(results.map((r) => r.status), ["fulfilled", "rejected"]);
    assert.ok(results[1]!.status === "rejected" && results[1].reason instanceof SidekicksError && results[1].reason.code === "channel/exists");
    assert.deepEqual((await directory.list()).map((c) => [c.name, c.members]), [["design", []]]);
    const directs = await Promise.all([directory.direct("odie"), directory.direct("odie")]);
    assert.equal(directs[0].id, directs[1].id, "one direct conversation, however many asked at once");
  } finally {
    await store.close();
    cleanup();
  }
});

test("a change whose batch the store refuses rejects with store/writeFailed and changes nothing: no event, the same list", async () => {
  const { dir, cleanup } = tempDir();
  const store = await Store.open(dir);
  try {
    const good = new ChannelDirectory(new StoreWriter(store), agentsStub(), new Recorder());
    await good.syncGeneral(ROSTER);
    const design = await good.create("design", { members: ["odie"] });
    await good.direct("demo");
    const before = await good.list();
    const commits: StoreChanges[] = [];
    const refusing = wrap(store, {
      commit: async (changes: StoreChanges) => {
        commits.push(changes);
        throw new Error("IO error: disk full");
      },
    });
    const events = new Recorder();
    const failing = new ChannelDirectory(new StoreWriter(refusing), agentsStub(), events);
    const ref = { id: design.id };
    for (const attempt of [
      failing.create("other", { members: ["demo"] }),
      failing.rename(ref, "renamed"),
      failing.describe(ref, "Look and feel"),
      failing.join(ref, "garfield"),
      failing.leave(ref, "odie"),
      failing.delete(ref),
      failing.direct("garfield"),
      failing.syncGeneral(["demo"]),
      failing.syncDeclared([{ name: "declared", members: ["demo"] }]),
    ]) {
      await rejectsWith(attempt, "store/writeFailed");
    }
    assert.equal(commits.length, 9, "each change was one batch");
    assert.deepEqual(events.events, [], "nothing was announced");
    assert.deepEqual(await good.list(), before, "channels, members and descriptions are as they were");
    await rejectsWith(failing.leave({ name: "general" }, "odie"), "channel/invalidName");
    assert.equal(commits.length, 9, "a refusal writes nothing");
  } finally {
    await store.close();
    cleanup();
  }
});

test("a change to a closed store rejects with store/writeFailed; after reopening, the member is still there", async () => {
  const { dir, cleanup } = tempDir();
  let store = await Store.open(dir);
  try {
    const directory = new ChannelDirectory(new StoreWriter(store), agentsStub(), new Recorder());
    const design = await directory.create("design", { members: ["odie"] });
    await store.close();
    await rejectsWith(directory.leave({ id: design.id }, "odie"), "store/writeFailed");
    store = await Store.open(dir);
    assert.deepEqual(await memberNames(store, design.id), ["odie"]);
  } finally {
    await store.close();
    cleanup();
  }
});

test("permission rules and announced commands: a refused write leaves what is known unchanged; rules remembered at once are all kept", async () => {
  const { dir, cleanup } = tempDir();
  const store = await Store.open(dir);
  try {
    const rule = (title: string) => ({ toolKind: "execute", title, decision: "allow" as const });
    const memory = new PermissionMemory(new StoreWriter(store));
    await Promise.all([memory.remember("odie", rule("npm test")), memory.remember("odie", rule("npm run lint"))]);
    const fresh = new PermissionMemory(new StoreWriter(store));
    assert.deepEqual((await fresh.of("odie")).rules.map((r) => r.title).sort(), ["npm run lint", "npm test"], "neither overwrote the other");

    const refusing = new StoreWriter(wrap(store, { commit: () => Promise.reject(new Error("IO error")) }));
    const failingMemory = new PermissionMemory(refusing);
    const known = await failingMemory.of("odie");
    await rejectsWith(failingMemory.remember("odie", rule("rm -rf build")), "store/writeFailed");
    await rejectsWith(failingMemory.forget({ agent: "odie", toolKind: "execute", title: "npm test", legacy: false }), "store/writeFailed");
    assert.deepEqual(await failingMemory.of("odie"), known, "the rules in use are the stored ones");

    const commands = new AgentCommands(refusing);
    await rejectsWith(commands.set("odie", [{ name: "review", description: "Review the diff" }]), "store/writeFailed");
    assert.equal(await commands.of("odie"), undefined);
  } finally {
    await store.close();
    cleanup();
  }
});

test("a store write beside the lane fails lint outside src/store/ (the tool-intent log excepted)", async () => {
  const eslint = new ESLint({ cwd: path.resolve(import.meta.dirname, "../..") });
  const probe = 'import type { Store } from "../store/Store";\nexport const f = (store: Store) => store.putValue("k", 1);\n';
  const [beside] = await eslint.lintText(probe, { filePath: path.resolve(import.meta.dirname, "../../src/channels/probe.ts") });
  assert.ok(beside!.messages.some((m) => m.ruleId === "no-restricted-syntax" && /one lane/.test(m.message)), JSON.stringify(beside!.messages));
  const [store] = await eslint.lintText(probe.replace("../store/Store", "./Store"), { filePath: path.resolve(import.meta.dirname, "../../src/store/probe.ts") });
  assert.deepEqual(store!.messages.filter((m) => m.ruleId === "no-restricted-syntax"), []);
});
