import { test } from "node:test";
import assert from "node:assert/strict";
import { formatContext } from "../../src/channels/context";
import { MAX_DELEGATIONS, planDelegation } from "../../src/channels/delegation";

const members = ["garfield", "odie", "nermal", "jon"];

const cases: [string, Parameters<typeof planDelegation>[0], number, { to: string[]; refused: RegExp[] }][] = [
  ["no mention: nothing", { from: "odie", text: "Done." }, 3, { to: [], refused: [] }],
  ["a member: delegated", { from: "odie", text: "@garfield can you check?" }, 3, { to: ["garfield"], refused: [] }],
  ["several, in order, once each", { from: "odie", text: "@nermal and @Garfield, then @nermal again" }, 3, { to: ["nermal", "garfield"], refused: [] }],
  ["itself: ignored", { from: "odie", text: "I, @odie, am done" }, 3, { to: [], refused: [] }],
  ["not a member: ignored", { from: "odie", text: "ask @arlene" }, 3, { to: [], refused: [] }],
  ["in code: ignored", { from: "odie", text: "run `@garfield`" }, 3, { to: [], refused: [] }],
  ["e-mail: ignored", { from: "odie", text: "mail jon@garfield.com" }, 3, { to: [], refused: [] }],
  ["back to who delegated: refused", { from: "odie", text: "@garfield here you go", delegatedBy: "garfield" }, 2, { to: [], refused: [/Not delegated back to @garfield: .*bounce/] }],
  ["back refused, others go on", { from: "odie", text: "@garfield @jon", delegatedBy: "garfield" }, 2, { to: ["jon"], refused: [/back to @garfield/] }],
  ["limit reached: refused", { from: "odie", text: "@jon next" }, 0, { to: [], refused: [new RegExp(`already caused ${MAX_DELEGATIONS} delegations`)] }],
  ["limit reached midway", { from: "odie", text: "@jon @nermal" }, 1, { to: ["jon"], refused: [/Not delegated to @nermal/] }],
];

for (const [what, answer, remaining, expected] of cases) {
  test(`delegation: ${what}`, () => {
    const plan = planDelegation(answer, members, remaining);
    assert.deepEqual(plan.to, expected.to);
    assert.equal(plan.refused.length, expected.refused.length, plan.refused.join(" | "));
    expected.refused.forEach((re, i) => assert.match(plan.refused[i]!, re));
  });
}

test("a mention inside a blockquote (the agent quoting the request) hands nothing on", () => {
  const plan = planDelegation({ from: "garfield", text: "You said:\n\n> please ask @odie to say hi\n\nDone." }, ["garfield", "odie"], MAX_DELEGATIONS);
  assert.deepEqual(plan, { to: [], refused: [] });
});

test("an agent the user's message already addressed is not handed the same request again", () => {
  const plan = planDelegation({ from: "garfield", text: "@odie and @nermal, over to you", addressed: ["garfield", "Odie"] }, ["garfield", "odie", "nermal"], MAX_DELEGATIONS);
  assert.deepEqual(plan.to, ["nermal"]);
});

test("an agent echoing its prompt repeats the channel context Sidekicks injected: the members named there are not handed anything", () => {
  // The echo agent of the new-user trial: its prompt held other members' messages, and it answered with all of it.
  const prompt = formatContext([
    { version: 1, id: "M1", channelId: "c", author: { kind: "user" }, parts: [{ type: "text", text: "@odie fetch" }], createdAt: 1 },
    { version: 1, id: "M2", channelId: "c", author: { kind: "agent", agentName: "nermal" }, parts: [{ type: "text", text: "@jon look" }], createdAt: 2 },
  ]);
  const echoed = `You said: ${prompt}@garfield still works?`;
  assert.deepEqual(planDelegation({ from: "garfield", text: echoed }, members, MAX_DELEGATIONS), { to: [], refused: [] });
  // Its own words after the block still count.
  assert.deepEqual(planDelegation({ from: "garfield", text: `${echoed}\n\nAsk @nermal.` }, members, MAX_DELEGATIONS).to, ["nermal"]);
  // A header without its footer (a cut echo) hides everything after it.
  assert.deepEqual(planDelegation({ from: "garfield", text: prompt.slice(0, prompt.indexOf("[End")) }, members, MAX_DELEGATIONS).to, []);
});
