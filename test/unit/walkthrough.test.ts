/**
 * The `Get started` walkthrough checks its steps once done (a new-user trial found them unchecked after sidekicks.yaml
 * existed and @demo had answered): every step has completion events, every `onContext:` key is one the host sets,
 * and the keys follow what the user did.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { WALKTHROUGH_KEYS, WalkthroughProgress } from "../../src/app/walkthroughProgress";
import type { MessageView } from "../../src/shared/protocol";

const root = path.resolve(import.meta.dirname, "../..");
type Step = { id: string; completionEvents?: string[] };
const steps = (): Step[] =>
  (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { contributes: { walkthroughs: { steps: Step[] }[] } }).contributes.walkthroughs.flatMap((w) => w.steps);

test("every walkthrough step is checked by something the user does, and each onContext key is one the host sets", () => {
  const known = new Set<string>(Object.values(WALKTHROUGH_KEYS));
  const host = readFileSync(path.join(root, "src/extension.ts"), "utf8") + readFileSync(path.join(root, "src/vscode/walkthroughContext.ts"), "utf8");
  assert.match(host, /walkthrough\.attach\(/, "extension.ts attaches the walkthrough's context keys to the app");
  assert.match(host, /executeCommand\("setContext", key, value\)/);
  const commands = new Set((JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { contributes: { commands: { command: string }[] } }).contributes.commands.map((c) => c.command));
  for (const step of steps()) {
    const events = step.completionEvents ?? [];
    assert.ok(events.some((e) => e.startsWith("onContext:")), `step ${step.id} is checked by what happened, not only by a button`);
    for (const event of events) {
      if (event.startsWith("onContext:")) assert.ok(known.has(event.slice("onContext:".length)), `${step.id}: ${event} is not set by the host`);
      else if (event.startsWith("onCommand:")) assert.ok(commands.has(event.slice("onCommand:".length)), `${step.id}: ${event} is no command`);
    }
  }
  const used = new Set(steps().flatMap((s) => s.completionEvents ?? []).filter((e) => e.startsWith("onContext:")).map((e) => e.slice(10)));
  assert.deepEqual([...known].filter((k) => !used.has(k)), [], "every key the host sets checks a step");
});

const message = (m: Partial<MessageView>): MessageView => ({ id: "m", channelId: "c", author: { kind: "user" }, parts: [], createdAt: 0, status: "done", ...m });

test("the keys follow the roster file and the first answers, each set once", () => {
  const progress = new WalkthroughProgress();
  const missing = { state: "missing" as const, path: "/w/sidekicks.yaml", problems: [] };
  assert.deepEqual(progress.observe({ config: missing, agents: [] }), [[WALKTHROUGH_KEYS.configExists, false]]);
  assert.deepEqual(progress.observe({ config: { ...missing, state: "ok" }, agents: ["demo"] }), [[WALKTHROUGH_KEYS.configExists, true]]);
  assert.deepEqual(progress.observe({ config: { ...missing, state: "ok" }, agents: ["demo"] }), [], "nothing changed, nothing set");
  assert.deepEqual(progress.observe({ message: message({ author: { kind: "agent", agentName: "demo" }, status: "streaming" }) }), [], "a started answer is not yet an answer");
  assert.deepEqual(progress.observe({ message: message({ author: { kind: "agent", agentName: "demo" }, status: "error" }) }), [], "a failed answer is not one");
  assert.deepEqual(progress.observe({ message: message({ author: { kind: "agent", agentName: "demo" } }) }), [[WALKTHROUGH_KEYS.agentAnswered, true]]);
  assert.deepEqual(progress.observe({ config: { ...missing, state: "invalid" }, agents: ["demo", "claude"] }), [[WALKTHROUGH_KEYS.secondAgent, true]], "a broken file still exists");
  assert.deepEqual(progress.observe({ message: message({ to: ["demo"] }) }), []);
  assert.deepEqual(progress.observe({ message: message({ to: ["demo", "claude"] }) }), [[WALKTHROUGH_KEYS.twoAgents, true]]);
  assert.deepEqual(progress.observe({ config: missing, agents: [] }), [[WALKTHROUGH_KEYS.configExists, false]], "a deleted file unchecks nothing else");
});

test("an agent that hands work on to another counts as two agents working", () => {
  const progress = new WalkthroughProgress();
  assert.deepEqual(progress.observe({ message: message({ author: { kind: "agent", agentName: "b" }, status: "streaming", delegatedBy: "a" }) }), [[WALKTHROUGH_KEYS.twoAgents, true]]);
});

test("each step's page exists in English and in French, reached through package.nls", () => {
  const nls = (file: string) => JSON.parse(readFileSync(path.join(root, file), "utf8")) as Record<string, string>;
  const english = nls("package.nls.json");
  const french = nls("package.nls.fr.json");
  const pages = (steps() as (Step & { media?: { markdown?: string } })[]).map((s) => s.media?.markdown ?? "");
  assert.equal(pages.length, 4);
  for (const page of pages) {
    const key = /^%(.+)%$/.exec(page)?.[1];
    assert.ok(key, `${page} goes through package.nls`);
    for (const [language, table] of [["en", english], ["fr", french]] as const) {
      const file = table[key];
      assert.ok(file && existsSync(path.join(root, file)), `${key} (${language}) names a page that exists: ${file}`);
    }
    assert.notEqual(french[key], english[key], `${key} has its own French page`);
    const heading = (file: string) => readFileSync(path.join(root, file), "utf8").split("\n")[0];
    assert.notEqual(heading(french[key]!), heading(english[key]!), `${french[key]} is written in French`);
  }
});
