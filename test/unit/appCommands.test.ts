import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import path from "node:path";
import type { HostEvents, MessageView } from "../../src/shared/protocol";
import { tempDir, waitFor } from "./helpers";
import { createTestApp } from "./appHarness";

/** The demo agent from source, twice under the brief's names. */
const ROSTER = `version: 1
agents:
  - name: garfield
    command: ${JSON.stringify(process.execPath)}
    args: ["--import", "tsx", ${JSON.stringify(path.resolve("src/demo-agent/main.ts"))}]
    env: { SIDEKICKS_DEMO_DELAY_MS: "0" }
  - name: odie
    command: ${JSON.stringify(process.execPath)}
    args: ["--import", "tsx", ${JSON.stringify(path.resolve("src/demo-agent/main.ts"))}]
    env: { SIDEKICKS_DEMO_DELAY_MS: "0" }
`;

async function openApp(dir: string) {
  const configPath = path.join(dir, "sidekicks.yaml");
  // the agents run from the repository, where `--import tsx` resolves
  const app = await createTestApp(dir, configPath, process.cwd());
  const events: { name: keyof HostEvents; payload: unknown }[] = [];
  const disconnect = app.connectWebview((name, payload) => events.push({ name, payload }));
  return { app, events, handlers: app.webviewHandlers(), close: async () => (disconnect(), await app.dispose()) };
}

/** Polls the recorded webview events until one matches (or fails after `timeoutMs`): `waitFor` with this file's deadline. */
function eventually<T>(find: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  return waitFor(find, timeoutMs, "the webview event");
}

test("the demo agent's commands reach the webview (commands/changed, channel/open) and survive a reload; /idioms answers", async () => {
  const { dir, cleanup } = tempDir();
  writeFileSync(path.join(dir, "sidekicks.yaml"), ROSTER);
  let s = await openApp(dir);
  try {
    const opened = await s.handlers["channel/open"]({});
    assert.deepEqual(opened.commands, {}, "nothing announced before the agents ran");
    await s.handlers["channel/send"]({ channelId: opened.channel.id, text: "@garfield /idioms Il pleut" });
    const changed = await eventually(() => s.events.find((e) => e.name === "commands/changed")?.payload as HostEvents["commands/changed"] | undefined);
    assert.equal(changed.agent, "garfield");
    assert.deepEqual(changed.commands[0], { name: "idioms", description: "Explain a French idiom", hint: "a French phrase, e.g. Il pleut" });
    const answer = await eventually(() => {
      const e = s.events.find((x) => x.name === "message/finished" && (x.payload as MessageView).author.agentName === "garfield");
      return e?.payload as MessageView | undefined;
    });
    assert.match(answer.parts.map((p) => (p.type === "text" ? p.text : "")).join(""), /Il pleut des cordes/);
    await s.close();

    s = await openApp(dir);
    const reopened = await s.handlers["channel/open"]({});
    assert.deepEqual(reopened.commands?.garfield?.map((c) => c.name), ["idioms", "help"], "known after a reload, before garfield runs again");
    await assert.rejects(s.handlers["channel/send"]({ channelId: reopened.channel.id, text: "/garfield:idiom Il pleut" }), /did you mean \/idioms\?/);
  } finally {
    await s.close();
    cleanup();
  }
});
