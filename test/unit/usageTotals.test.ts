import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { applySessionUpdate, asSessionState, openedState } from "../../src/agents/sessionState";
import type { MessageView, SessionStateView } from "../../src/shared/protocol";
import { addCosts, CostLedger, formatCosts, sessionTotal, totalOf } from "../../src/shared/usageTotals";
import { createTestApp } from "./appHarness";
import { FAKE_AGENT, tempDir, waitFor } from "./helpers";

const usd = (amount: number) => ({ amount, currency: "USD" });
const setup = { modes: undefined };

test("costs add up by currency; a session's total is its earlier sessions plus its own", () => {
  assert.deepEqual(addCosts([usd(0.5)], usd(0.25), { amount: 2, currency: "credits" }, undefined), [usd(0.75), { amount: 2, currency: "credits" }]);
  assert.deepEqual(sessionTotal({ spent: [usd(1)], usage: { used: 1, size: 2, cost: usd(0.5) } }), [usd(1.5)]);
  assert.deepEqual(totalOf([{ usage: { used: 1, size: 2, cost: usd(0.5) } }, { spent: [usd(1)] }, {}]), [usd(1.5)]);
  assert.equal(formatCosts([usd(1.5), { amount: 3, currency: "credits" }]), "$1.50 + 3 credits");
  assert.equal(formatCosts([]), "");
});

test("a new session keeps what the one before cost; a resumed one goes on counting; a restarted counter is not lost", () => {
  const before: SessionStateView = { channelId: "c", agent: "a", live: false, usage: { used: 10, size: 100, cost: usd(0.04) }, spent: [usd(1)] };
  const fresh = openedState(before, "c", "a", setup, false);
  assert.equal(fresh.usage, undefined, "the new session's meter starts empty");
  assert.deepEqual(fresh.spent, [usd(1.04)], "…but its cost is not forgotten");
  const resumed = openedState(before, "c", "a", setup, true);
  assert.deepEqual(sessionTotal(resumed), [usd(1.04)]);
  const restarted = applySessionUpdate(resumed, { kind: "usage", usage: { used: 5, size: 100, cost: usd(0.01) } });
  assert.deepEqual(sessionTotal(restarted), [usd(1.05)], "a resumed session whose agent counts from zero again: the earlier count stays");
  const noCost = applySessionUpdate(restarted, { kind: "usage", usage: { used: 6, size: 100 } });
  assert.deepEqual(sessionTotal(noCost), [usd(1.05)], "an update without a cost keeps the cost known");
  const grows = applySessionUpdate(noCost, { kind: "usage", usage: { used: 7, size: 100, cost: usd(0.02) } });
  assert.deepEqual(sessionTotal(grows), [usd(1.06)], "a growing cumulative cost is not counted twice");
  assert.deepEqual(asSessionState({ ...grows, spent: [usd(1.04), { amount: "x", currency: "USD" }] })?.spent, [usd(1.04)], "read back from the store, checked");
});

/** The roster of one fake agent (a real subprocess) that runs `script` for each prompt, without session/load. */
function roster(configPath: string, prompt: object[]): void {
  const script = { prompt };
  writeFileSync(configPath, `version: 1\nagents:\n  - name: garfield\n    command: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(FAKE_AGENT)}]\n    env:\n      FAKE_AGENT_SCRIPT: ${JSON.stringify(JSON.stringify(script))}\n`);
}

const usage = (amount: number) => ({ update: { sessionUpdate: "usage_update", used: 1000, size: 200_000, cost: usd(amount) } });

async function open(dir: string, configPath: string) {
  const app = await createTestApp(dir, configPath);
  const states: SessionStateView[] = [];
  const finished: MessageView[] = [];
  const disconnect = app.connectWebview((name, payload) => {
    if (name === "session/state") states.push(payload as SessionStateView);
    if (name === "message/finished") finished.push(payload as MessageView);
  });
  const handlers = app.webviewHandlers();
  const general = (await handlers["channel/open"]({})).channel;
  const settled = (after: number) => waitFor(() => finished.slice(after).find((m) => m.author.kind === "agent" && m.outcome !== undefined), 10_000, "the answer to settle");
  return {
    app, handlers, states, general, settled, finished,
    close: async () => {
      disconnect();
      await app.dispose();
    },
  };
}

test("the cost total of a channel and of an agent survives a Retry in a new session and a reload", async () => {
  const { dir, cleanup } = tempDir();
  const configPath = path.join(dir, "sidekicks.yaml");
  // The first answer costs $0.04, then the agent crashes: the turn fails.
  roster(configPath, [usage(0.04), { chunk: "thinking" }, { exit: 1 }]);
  let s = await open(dir, configPath);
  try {
    await s.handlers["channel/send"]({ channelId: s.general.id, text: "@garfield hello" });
    const failed = await s.settled(0);
    assert.equal(failed.outcome, "failed");
    assert.deepEqual(s.states.filter((x) => x.usage?.cost).at(-1)?.usage?.cost, usd(0.04));

    // Retry: the agent starts again and (it cannot load sessions) answers in a new session, which costs $0.03.
    roster(configPath, [usage(0.03), { chunk: "done" }]);
    await s.app.reloadConfig();
    const before = s.finished.length;
    assert.equal((await s.handlers["turn/retry"]({ messageId: failed.id })).retried, true);
    assert.equal((await s.settled(before)).outcome, "completed");
    const after = await waitFor(() => s.states.filter((x) => x.agent === "garfield").find((x) => x.usage?.cost?.amount === 0.03), 5000, "the new session's cost");
    assert.deepEqual(after.spent, [usd(0.04)], "the failed session's cost is kept");
    assert.equal(formatCosts(sessionTotal(after)), "$0.07", "the total did not reset with the new session");
  } finally {
    await s.close();
  }

  // A reload: the header gets the same total from the store, and the agent's next session adds to it.
  s = await open(dir, configPath);
  try {
    const opened = await s.handlers["channel/open"]({ id: s.general.id });
    assert.equal(formatCosts(sessionTotal(opened.sessions!.garfield!)), "$0.07", "after a reload the channel's total is the same");
    await s.handlers["channel/send"]({ channelId: s.general.id, text: "@garfield again" });
    await s.settled(0);
    const next = await waitFor(() => s.states.filter((x) => x.agent === "garfield" && x.usage?.cost).at(-1), 5000, "the cost");
    assert.equal(formatCosts(sessionTotal(next)), "$0.10", "a new session after the reload adds its $0.03");

    // The Agents view's total for the agent, across channels, from what is stored.
    const dm = await s.handlers["channel/direct"]({ agent: "garfield" });
    await s.handlers["channel/send"]({ channelId: dm.id, text: "hi" });
    await waitFor(() => s.states.find((x) => x.channelId === dm.id && x.usage?.cost), 10_000, "the direct conversation's cost");
  } finally {
    await s.close();
  }

  // Another reload: the Agents view's total for the agent, across its channels, from what is stored.
  s = await open(dir, configPath);
  try {
    const ledger = new CostLedger();
    for (const state of await s.app.storedSessionStates()) ledger.seed(state);
    assert.equal(formatCosts(ledger.totalOf("garfield")), "$0.13", "#general's $0.10 and the direct conversation's $0.03");
    assert.equal(ledger.channelsOf("garfield"), 2);
  } finally {
    await s.close();
    cleanup();
  }
});
