import { test } from "node:test";
import assert from "node:assert/strict";
import { asNotifySetting, newPermissionNotices, noticeOfFinished, NoticeBatcher, shouldNotify, summarize, type BatchTimer, type Notice, type NotifySetting, type Watching } from "../../src/app/notifications";
import type { MessageView } from "../../src/shared/protocol";

const done: Notice = { kind: "done", agent: "claude", channelId: "ch-a", messageId: "m1" };
const failed: Notice = { kind: "failed", agent: "codex", channelId: "ch-b", messageId: "m2" };
const refused: Notice = { kind: "refused", agent: "codex", channelId: "ch-a", messageId: "m3" };
const permission: Notice = { kind: "permission", agent: "gemini", channelId: "ch-a", messageId: "m4", requestId: "r1", title: "Edit a.ts" };

const lookingAtA: Watching = { windowFocused: true, visibleChannelIds: ["ch-a"] };
const elsewhere: Watching = { windowFocused: false, visibleChannelIds: ["ch-a"] };
const hidden: Watching = { windowFocused: true, visibleChannelIds: [] };

test("which events notify, given what the user looks at and the setting", () => {
  const table: [Notice, Watching, NotifySetting, boolean, string][] = [
    [done, lookingAtA, "all", false, "the user is looking at the turn: no notification"],
    [done, elsewhere, "all", true, "window not focused: the finished turn is announced"],
    [done, hidden, "all", true, "view hidden: announced"],
    [done, { windowFocused: true, visibleChannelIds: ["ch-b"] }, "all", true, "another channel is shown: announced"],
    [done, hidden, "needsYou", false, "needsYou: a turn done needs nothing"],
    [failed, hidden, "needsYou", true, "needsYou: a failure needs the user"],
    [refused, hidden, "needsYou", true, "needsYou: a refusal needs the user"],
    [permission, hidden, "needsYou", true, "needsYou: a permission request needs the user"],
    [permission, lookingAtA, "needsYou", false, "the card is in front of the user"],
    [permission, elsewhere, "all", true, "window in the background: the request is announced"],
    [permission, hidden, "off", false, "off: never"],
    [failed, elsewhere, "off", false, "off: never"],
  ];
  for (const [notice, watching, setting, expected, why] of table) assert.equal(shouldNotify(notice, watching, setting), expected, `${notice.kind}/${setting}: ${why}`);
});

test("the setting as VS Code hands it over: an unknown value is 'all'", () => {
  assert.equal(asNotifySetting("off"), "off");
  assert.equal(asNotifySetting("needsYou"), "needsYou");
  assert.equal(asNotifySetting("loud"), "all");
  assert.equal(asNotifySetting(undefined), "all");
});

test("a settled answer is a notice; cancelled, interrupted and the user's own messages are not", () => {
  const base: MessageView = { id: "m1", channelId: "ch-a", author: { kind: "agent", agentName: "claude" }, parts: [], createdAt: 0, status: "done" };
  assert.deepEqual(noticeOfFinished({ ...base, outcome: "completed" }), done);
  assert.equal(noticeOfFinished({ ...base, status: "error", outcome: "failed" })?.kind, "failed");
  assert.equal(noticeOfFinished({ ...base, outcome: "refused" })?.kind, "refused");
  assert.equal(noticeOfFinished({ ...base, outcome: "completed", stopReason: "refusal" })?.kind, "refused");
  assert.equal(noticeOfFinished({ ...base, outcome: "cancelled" }), undefined, "the user stopped it");
  assert.equal(noticeOfFinished({ ...base, outcome: "interrupted" }), undefined, "a reload interrupted it");
  assert.equal(noticeOfFinished({ ...base, author: { kind: "user" }, outcome: "completed" }), undefined);
});

test("a permission request is announced once, not again while it waits", () => {
  const seen = new Set<string>();
  const one = { channelId: "ch-a", messageId: "m4", agent: "gemini", requestId: "r1", title: "Edit a.ts" };
  assert.deepEqual(newPermissionNotices([one], seen), [permission]);
  assert.deepEqual(newPermissionNotices([one], seen), [], "still waiting: not announced again");
  const two = { ...one, requestId: "r2", title: "Run npm test" };
  assert.deepEqual(newPermissionNotices([one, two], seen).map((n) => (n.kind === "permission" ? n.requestId : "")), ["r2"]);
  newPermissionNotices([], seen);
  assert.equal(newPermissionNotices([one], seen).length, 1, "answered, then asked again with the same id: a new request");
});

/** A manual clock: timers run when the test advances it. */
function manualTimer(): BatchTimer & { advance(ms: number): void } {
  let now = 0;
  let timers: { at: number; run: () => void; id: number }[] = [];
  let next = 0;
  return {
    set(run, ms) {
      const id = next++;
      timers.push({ at: now + ms, run, id });
      return id;
    },
    clear(handle) {
      timers = timers.filter((t) => t.id !== handle);
    },
    advance(ms) {
      now += ms;
      const due = timers.filter((t) => t.at <= now);
      timers = timers.filter((t) => t.at > now);
      for (const t of due) t.run();
    },
  };
}

test("several agents finishing at once make one notification, not a storm", () => {
  const timer = manualTimer();
  const shown: Notice[][] = [];
  const batcher = new NoticeBatcher((burst) => shown.push(burst), timer, 1500);
  batcher.add(done);
  timer.advance(500);
  batcher.add(failed);
  batcher.add(permission);
  batcher.add(permission);
  assert.equal(shown.length, 0, "nothing shown while the burst gathers");
  timer.advance(1000);
  assert.equal(shown.length, 1, "one notification for the burst");
  assert.deepEqual(shown[0], [done, failed, permission], "each notice once");
  const names = new Map([["ch-a", "general"], ["ch-b", "@codex"]]);
  const n = summarize(shown[0]!, (id) => names.get(id));
  assert.equal(n.level, "warning");
  assert.equal(n.target, permission, "its action opens the permission card first");
  assert.match(n.text, /3 agent updates/);
  assert.match(n.text, /@claude \(#general\)/);
  assert.match(n.text, /@codex \(@codex\)/);
  assert.match(n.text, /1 waiting for you, 1 failed/);
  batcher.add(done);
  timer.advance(1500);
  assert.equal(shown.length, 2, "a later turn is a new notification");
});

test("a burst that reaches its limit is shown at once, the rest in the next", () => {
  const timer = manualTimer();
  const shown: Notice[][] = [];
  const batcher = new NoticeBatcher((burst) => shown.push(burst), timer, 1500, 3);
  batcher.add(failed);
  batcher.add(refused);
  batcher.add(permission);
  batcher.add({ ...done, messageId: "m9", channelId: "ch-c" });
  assert.deepEqual(shown, [[failed, refused, permission]]);
  timer.advance(1500);
  assert.equal(shown.length, 2);
});

test("one notice: a sentence naming the agent and the channel, at its level", () => {
  const name = () => "general";
  assert.deepEqual(summarize([done], name), { level: "info", text: "@claude finished in #general.", target: done });
  assert.equal(summarize([failed], name).text, "@codex failed in #general.");
  assert.equal(summarize([permission], name).level, "warning");
  assert.equal(summarize([permission], name).text, "@gemini asks your permission in #general: Edit a.ts");
  assert.equal(summarize([done], () => undefined).text, "@claude finished in #ch-a.");
});
