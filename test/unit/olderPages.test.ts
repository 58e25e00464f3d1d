// The webview store's paging back through the history (`channel/older`, #6): one load at a time, pages prepended
// in order without duplicates, a failure kept until retried, and an answer for a channel no longer open ignored.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { MessageView, WebviewRequests } from "../../src/protocol";
import { ChannelStore } from "../../webview/channelStore";
import type { HostConnection } from "../../webview/host";

const msg = (i: number, channelId = "ch-general"): MessageView => ({
  id: `m${String(i).padStart(3, "0")}`,
  channelId,
  author: { kind: "agent", agentName: "demo" },
  parts: [{ type: "text", text: `message ${i}` }],
  createdAt: i,
  status: "done",
});

type Older = WebviewRequests["channel/older"];

/** A host whose `channel/older` answers wait until the test settles them; frames run when the test flushes. */
function fakeHost(open: WebviewRequests["channel/open"][1]) {
  const asked: Older[0][] = [];
  const pending: { resolve: (r: Older[1]) => void; reject: (e: Error) => void }[] = [];
  const host = {
    on: () => undefined,
    request: (method: string, params: unknown) => {
      if (method === "channel/open") return Promise.resolve(open);
      if (method === "channel/older") {
        asked.push(params as Older[0]);
        return new Promise((resolve, reject) => pending.push({ resolve, reject }));
      }
      return Promise.reject(new Error(`unexpected ${method}`));
    },
  } as unknown as HostConnection;
  return { host, asked, pending };
}

const config = { state: "ok" as const, path: "/w/sidekicks.yaml", problems: [] };
const channel = { id: "ch-general", name: "general", members: [] };
const tick = () => new Promise((r) => setTimeout(r, 0));

async function opened(more: boolean, messages: MessageView[]) {
  const fake = fakeHost({ channel, messages, config, more });
  const store = new ChannelStore(fake.host, () => undefined, (cb) => queueMicrotask(cb));
  await store.open();
  await tick();
  return { store, ...fake };
}

test("pages load one at a time, each before the first loaded message, prepended in order without duplicates", async () => {
  const { store, asked, pending } = await opened(true, [150, 151, 152].map((i) => msg(i)));
  const first = store.loadOlder();
  void store.loadOlder(); // the user keeps scrolling: no second request
  await tick();
  assert.equal(asked.length, 1);
  assert.deepEqual(asked[0], { channelId: "ch-general", beforeId: "m150", limit: 50 });
  assert.equal(store.current.older.loading, true);
  // The host's page overlaps what is shown (a message written meanwhile): shown once.
  pending[0]!.resolve({ messages: [148, 149, 150].map((i) => msg(i)), more: true });
  await first;
  await tick();
  assert.deepEqual(store.current.messages.map((m) => m.id), ["m148", "m149", "m150", "m151", "m152"]);
  assert.deepEqual(store.current.older, { more: true, loading: false });
  void store.loadOlder();
  await tick();
  assert.equal(asked[1]!.beforeId, "m148");
  pending[1]!.resolve({ messages: [msg(147)], more: false });
  await tick();
  await tick();
  assert.equal(store.current.messages[0]!.id, "m147");
  assert.equal(store.current.older.more, false);
  await store.loadOlder();
  assert.equal(asked.length, 2, "nothing is asked once the start is loaded");
});

test("a failure is kept (with the host's reason) until the user retries; the retry asks for the same page", async () => {
  const { store, asked, pending } = await opened(true, [msg(10)]);
  void store.loadOlder();
  await tick();
  pending[0]!.reject(new Error("the history file is locked"));
  await tick();
  await tick();
  assert.deepEqual(store.current.older, { more: true, loading: false, error: "the history file is locked" });
  void store.loadOlder();
  await tick();
  assert.deepEqual(asked.map((a) => a.beforeId), ["m010", "m010"]);
  assert.equal(store.current.older.error, undefined);
  assert.equal(store.current.older.loading, true);
});

test("without `more` nothing is asked; a page answered after another channel opened is dropped", async () => {
  const none = await opened(false, [msg(1)]);
  await none.store.loadOlder();
  assert.equal(none.asked.length, 0);

  const { store, pending } = await opened(true, [msg(50)]);
  void store.loadOlder();
  await tick();
  await store.open("general"); // reopened: a new snapshot
  await tick();
  pending[0]!.resolve({ messages: [msg(49, "ch-general")], more: false });
  await tick();
  await tick();
  assert.deepEqual(store.current.messages.map((m) => m.id), ["m050"], "the stale page is not prepended to the new snapshot");
});
