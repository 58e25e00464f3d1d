/**
 * The catch-up reads only what fits (issue 21, "Lists that stay fast"): the context built from the newest messages
 * backwards is the same text the agent got when the whole window of CONTEXT_SCAN_LIMIT messages was read and
 * formatted (`formatContext(unseenMessages(latest 1,000))`, the code before).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { monotonicFactory } from "ulid";
import { CONTEXT_SCAN_LIMIT, formatContext, unseenMessages } from "../../src/channels/context";
import { unseenContext } from "../../src/channels/unseenContext";
import { Store } from "../../src/store/Store";
import type { MessageRecord } from "../../src/store/records";
import { tempDir } from "./helpers";

/** What the agent got before: the latest CONTEXT_SCAN_LIMIT messages read and formatted whole. */
async function wholeWindow(store: Store, channelId: string, agent: string, beforeId: string, fresh: boolean): Promise<string> {
  const member = (await store.members(channelId)).find((m) => m.agentName === agent);
  const newSession = fresh && member?.lastSeenMessageId !== undefined;
  const lastSeen = newSession ? undefined : member?.lastSeenMessageId;
  const recent = await store.latestMessages(channelId, CONTEXT_SCAN_LIMIT);
  const truncated = recent.length === CONTEXT_SCAN_LIMIT && (lastSeen === undefined || recent[0]!.id > lastSeen);
  return formatContext(unseenMessages(recent, agent, lastSeen, beforeId, newSession), { olderNotRead: truncated, newSession });
}

test("a long history's catch-up is the same text as when the whole window was read: sizes, own answers, empty answers, tool outputs", async () => {
  const { dir, cleanup } = tempDir();
  const store = await Store.open(dir);
  try {
    const ulid = monotonicFactory();
    let at = 1_700_000_000_000;
    const cases: { turns: number; answerBytes: number; toolBytes: number }[] = [
      { turns: 3, answerBytes: 200, toolBytes: 100 }, // fits whole
      { turns: 40, answerBytes: 300, toolBytes: 2_000 }, // fits once tool outputs are left out
      { turns: 200, answerBytes: 1_000, toolBytes: 2_000 }, // older messages dropped, counted
      { turns: 600, answerBytes: 100, toolBytes: 50 }, // beyond the window of 1,000
      { turns: 2, answerBytes: 40_000, toolBytes: 0 }, // one answer larger than the budget, cut
    ];
    for (const [n, c] of cases.entries()) {
      const channelId = ulid();
      const messages: MessageRecord[] = [];
      const add = (author: MessageRecord["author"], parts: MessageRecord["parts"]) => {
        at += 1000;
        const m: MessageRecord = { version: 1, id: ulid(at), channelId, author, parts, createdAt: at };
        messages.push(m);
        return m;
      };
      let seen: string | undefined;
      for (let t = 0; t < c.turns; t++) {
        add({ kind: "user" }, [{ type: "text", text: `@a question ${t} é` }]);
        if (t === Math.floor(c.turns / 3)) seen = messages.at(-1)!.id;
        const by = t % 3 === 0 ? "a" : "b";
        add({ kind: "agent", agentName: by }, [
          { type: "toolCall", toolCallId: `t${t}`, title: `step ${t}`, status: "completed", ...(c.toolBytes ? { content: "o".repeat(c.toolBytes + t) } : {}) },
          { type: "text", text: t % 7 === 5 ? "  " : `${by} answers ${t} ${"x".repeat(c.answerBytes)}` }, // every 7th has nothing to say
        ]);
      }
      const request = add({ kind: "user" }, [{ type: "text", text: "@a now?" }]);
      await store.commit({ messages, members: [{ version: 1, channelId, agentName: "a", joinedAt: at, ...(seen ? { lastSeenMessageId: seen } : {}) }] });
      for (const fresh of [false, true]) {
        const built = await unseenContext(store, channelId, "a", request.id, fresh);
        assert.equal(built, await wholeWindow(store, channelId, "a", request.id, fresh), `case ${n} (${c.turns} turns), fresh ${fresh}`);
        assert.ok(Buffer.byteLength(built) <= 32 * 1024 + 200, `case ${n}: ${Buffer.byteLength(built)} bytes`);
      }
    }
  } finally {
    await store.close();
    cleanup();
  }
});
