// The webview's editor requests (`editor/*`): validated by the app, then handed to the EditorPort (src/vscode).
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { createSidekicks } from "../../src/app/compose";
import type { EditorPort } from "../../src/app/SidekicksApp";
import { tempDir } from "./helpers";

async function openApp(editor: Partial<EditorPort>) {
  const { dir, cleanup } = tempDir();
  const logs: string[] = [];
  const app = await createSidekicks({
    configPath: path.join(dir, "sidekicks.yaml"),
    storageDir: path.join(dir, "store"),
    editor: { isTrusted: () => true, runCommand: async () => undefined, log: (_level, line) => logs.push(line), showProblems: () => undefined, ...editor },
    launch: { workspaceFolder: dir, nodePath: process.execPath, demoAgentPath: "", env: process.env },
  });
  return { handlers: app.webviewHandlers(), logs, close: async () => (await app.dispose(), cleanup()) };
}

test("editor/* requests reach the editor port with their params, and answer what it did", async () => {
  const calls: unknown[][] = [];
  const s = await openApp({
    openDiff: async (diff) => (calls.push(["openDiff", diff]), true),
    openLocation: async (location) => (calls.push(["openLocation", location]), true),
    insertText: async (text) => (calls.push(["insertText", text]), false),
    openLink: async (href) => (calls.push(["openLink", href]), href.startsWith("https:")),
  });
  try {
    assert.deepEqual(await s.handlers["editor/openDiff"]({ path: "/w/a.ts", oldText: null, newText: "x\n" }), { opened: true });
    assert.deepEqual(await s.handlers["editor/openLocation"]({ path: "/w/a.ts", line: 3 }), { opened: true });
    assert.deepEqual(await s.handlers["editor/openLocation"]({ path: "/w/b.ts" }), { opened: true });
    assert.deepEqual(await s.handlers["editor/insert"]({ text: "abc123" }), { inserted: false }, "no editor open: the port says so");
    assert.deepEqual(await s.handlers["editor/openLink"]({ href: "https://example.com/" }), { opened: true });
    assert.deepEqual(await s.handlers["editor/openLink"]({ href: "command:x" }), { opened: false });
    assert.deepEqual(calls, [
      ["openDiff", { path: "/w/a.ts", oldText: null, newText: "x\n" }],
      ["openLocation", { path: "/w/a.ts", line: 3 }],
      ["openLocation", { path: "/w/b.ts" }],
      ["insertText", "abc123"],
      ["openLink", "https://example.com/"],
      ["openLink", "command:x"],
    ]);
  } finally {
    await s.close();
  }
});

test("malformed editor requests from the webview never reach the editor, and are logged", async () => {
  const calls: string[] = [];
  const s = await openApp({
    openDiff: async () => (calls.push("openDiff"), true),
    openLocation: async () => (calls.push("openLocation"), true),
    insertText: async () => (calls.push("insertText"), true),
    openLink: async () => (calls.push("openLink"), true),
  });
  const bad = <T>(value: unknown) => value as T;
  try {
    assert.deepEqual(await s.handlers["editor/openDiff"](bad({ path: "", oldText: null, newText: "x" })), { opened: false });
    assert.deepEqual(await s.handlers["editor/openDiff"](bad({ path: "/a", oldText: 3, newText: "x" })), { opened: false });
    assert.deepEqual(await s.handlers["editor/openDiff"](bad({ path: "/a", oldText: "x" })), { opened: false });
    assert.deepEqual(await s.handlers["editor/openLocation"](bad({ path: "/a", line: 0 })), { opened: false });
    assert.deepEqual(await s.handlers["editor/openLocation"](bad({ path: "/a", line: "3" })), { opened: false });
    assert.deepEqual(await s.handlers["editor/openLocation"](bad({ path: "/a\0b" })), { opened: false });
    assert.deepEqual(await s.handlers["editor/insert"](bad({ text: "" })), { inserted: false });
    assert.deepEqual(await s.handlers["editor/insert"](bad({})), { inserted: false });
    assert.deepEqual(await s.handlers["editor/openLink"](bad({ href: 42 })), { opened: false });
    assert.deepEqual(calls, []);
    assert.equal(s.logs.filter((l) => /refused: malformed request/.test(l)).length, 9);
  } finally {
    await s.close();
  }
});

test("an editor without the actions answers false instead of failing", async () => {
  const s = await openApp({});
  try {
    assert.deepEqual(await s.handlers["editor/openDiff"]({ path: "/a", oldText: "1", newText: "2" }), { opened: false });
    assert.deepEqual(await s.handlers["editor/openLocation"]({ path: "/a" }), { opened: false });
    assert.deepEqual(await s.handlers["editor/insert"]({ text: "x" }), { inserted: false });
    assert.deepEqual(await s.handlers["editor/openLink"]({ href: "https://example.com/" }), { opened: false });
  } finally {
    await s.close();
  }
});
