import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import path from "node:path";
import type { ChannelView } from "../../src/shared/protocol";
import { tempDir } from "./helpers";
import { createTestApp } from "./appHarness";

const ROSTER = `version: 1
agents:
  - name: garfield
    command: node
    icon: icons/cat.svg
    color: charts.orange
  - name: odie
    command: node
    icon: $(sparkle)
    color: "#3794ff"
  - name: nermal
    command: node
`;

test("channel/open and channel/changed carry each member's roster icon (an image as the webview's URI) and colour", async () => {
  const { dir, cleanup } = tempDir();
  const configPath = path.join(dir, "sidekicks.yaml");
  writeFileSync(configPath, ROSTER);
  const app = await createTestApp(dir, configPath);
  const asked: string[] = [];
  const iconUri = (file: string) => (asked.push(file), `vscode-webview://test${file}`);
  const changed: ChannelView[] = [];
  const off = app.connectWebview((name, payload) => {
    if (name === "channel/changed") changed.push(payload as ChannelView);
  }, iconUri);
  try {
    const { channel } = await app.webviewHandlers(iconUri)["channel/open"]({ name: "general" });
    const look = (c: ChannelView) => c.members.map(({ name, icon, color }) => ({ name, icon, color }));
    assert.deepEqual(look(channel), [
      { name: "garfield", icon: { uri: `vscode-webview://test${path.join(dir, "icons", "cat.svg")}` }, color: "charts.orange" },
      { name: "odie", icon: { codicon: "sparkle" }, color: "#3794ff" },
      { name: "nermal", icon: { codicon: "hubot" }, color: undefined },
    ]);
    assert.deepEqual(asked, [path.join(dir, "icons", "cat.svg")]);

    // Without a way to make a webview URI, an image icon is left out (a file path would not load).
    const { channel: bare } = await app.webviewHandlers()["channel/open"]({ name: "general" });
    assert.equal(bare.members[0]?.icon, undefined);
    assert.equal(bare.members[0]?.color, "charts.orange");

    // A member joining a channel: its channel/changed event carries the looks too.
    const handlers = app.webviewHandlers(iconUri);
    const review = await handlers["channel/create"]({ name: "review", members: ["garfield"] });
    await handlers["channel/join"]({ id: review.id, agent: "odie" });
    const last = changed.filter((c) => c.id === review.id).at(-1);
    assert.deepEqual(last && look(last), [
      { name: "garfield", icon: { uri: `vscode-webview://test${path.join(dir, "icons", "cat.svg")}` }, color: "charts.orange" },
      { name: "odie", icon: { codicon: "sparkle" }, color: "#3794ff" },
    ]);
  } finally {
    off();
    await app.dispose();
    cleanup();
  }
});
