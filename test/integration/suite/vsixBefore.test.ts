/**
 * The `.vsix` suite, phase 1 (issue 8): the installed linux-x64 package, not the development folder.
 * - activation: Sidekicks is loaded from the folder `--install-extension` made in the fresh extensions folder (no
 *   sources, no tests in it), activated by the workspace's sidekicks.yaml, in production mode (no test API);
 * - the demo agent (`sidekicks:demo`, the package's dist/demo-agent.js) answers a message typed in #general;
 * - an agent's `terminal/create` shows up as a VS Code terminal, and the node-pty binary this process loaded is the
 *   installed package's (`/proc/self/maps`, `require.cache`);
 * - a turn with a tool call and a permission request answered with a real click (four README pictures);
 * - the store: the channel's history folder is in the installed extension's global storage and holds the request;
 *   then the window reloads for real (phase 2 reads it back: vsixAfter.test.ts).
 */
import * as vscode from "vscode";
import * as assert from "node:assert/strict";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { fakeAgentEntry } from "./fakeAgentEntry";
import { poll } from "./poll";
import { filesContaining, mappedFrom, runInfo, webview, writeVsixMarker, type VsixRunInfo } from "./vsixBridge";

/** A word only this run's request contains, to find it in the history files and after the reload. */
const TOKEN = `vsix${Date.now().toString(36)}`;
const TERMINAL_TEXT = "sidekicks-vsix-terminal";

describe("the installed .vsix (phase 1)", () => {
  let info: VsixRunInfo;
  let extension: vscode.Extension<unknown>;
  const last = ".history > .message:nth-last-child(1)";
  const text = async (selector: string) => (await webview("test/text", { selector })).text;
  const attribute = async (selector: string, name: string) => (await webview("test/attribute", { selector, name })).text;
  /** Sends `request`, waits for the answer to finish, returns its text. */
  const ask = async (request: string, who: string) => {
    assert.equal((await webview("test/compose", { text: request })).sent, true, "the composer did not send");
    await poll(`${who}'s answer, finished`, async () => ((await attribute(last, "data-author")) === "agent" && (await attribute(last, "data-status")) === "done" ? true : undefined), 45_000);
    assert.ok((await text(`${last} .message-author`))?.includes(who), `the last message is ${who}'s answer`);
    return (await text(`${last} .message-body`)) ?? "";
  };

  // Mocha prints failures at the end of a run, which this phase never reaches (the window reloads): print them now.
  afterEach(function () {
    if (this.currentTest?.state === "failed") console.log(`.vsix suite: FAILED ${this.currentTest.title}: ${this.currentTest.err?.stack ?? this.currentTest.err}`);
  });

  before(async () => {
    info = runInfo();
    extension = vscode.extensions.getExtension("sidekicks.sidekicks")!;
    assert.ok(extension, "Sidekicks is not installed");
    // workspaceContains:sidekicks.yaml activates it, before this suite touches anything (a command would activate it).
    await poll("Sidekicks to activate on its own", () => (extension.isActive ? true : undefined), 30_000);
    // The roster of the tests below (the workspace's own one activates Sidekicks; this replaces it at once).
    const roster = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, "sidekicks.yaml");
    const yaml = [
      "# Written by the .vsix suite: the packaged demo agent, and the scripted fake agent that runs a command.",
      "agents:",
      "  - name: demo",
      "    command: sidekicks:demo",
      "    env:",
      // 250 ms between words, and its pretend tool call runs 2.5 s: the picture of it running is easy to take.
      '      SIDEKICKS_DEMO_DELAY_MS: "250"',
      ...fakeAgentEntry("worker", { prompt: [{ terminal: { command: "echo", args: [TERMINAL_TEXT, "7"] } }] }, info.repoRoot),
    ].join("\n");
    await vscode.workspace.fs.writeFile(roster, new TextEncoder().encode(yaml));
    await vscode.commands.executeCommand("sidekicks.focus");
    // Room for the answers in the pictures: a wider side bar (60 px a step).
    for (let i = 0; i < 2; i++) await vscode.commands.executeCommand("workbench.action.decreaseViewWidth");
    await poll("#general to show demo and worker as members", async () => {
      const header = await text(".channel-header");
      return header?.includes("demo") && header.includes("worker") ? true : undefined;
    });
  });

  it("is loaded from the folder --install-extension made, activated by sidekicks.yaml, in production mode", async () => {
    const installed = extension.extensionPath;
    assert.ok(installed.startsWith(info.extensionsDir + path.sep), `loaded from ${installed}, not from ${info.extensionsDir}`);
    assert.ok(!installed.startsWith(info.repoRoot + path.sep), "not the development folder");
    for (const packaged of ["package.json", "dist/extension.js", "dist/demo-agent.js", "dist/webview.js"]) {
      assert.ok(existsSync(path.join(installed, packaged)), `the package has ${packaged}`);
    }
    for (const kept of ["src", "test", "scripts", "webview"]) assert.ok(!existsSync(path.join(installed, kept)), `the package has no ${kept}/`);
    // This window's development extension is the driver folder: the only Sidekicks loaded is the installed one.
    const copies = vscode.extensions.all.filter((e) => (e.packageJSON as { name?: string }).name === "sidekicks").map((e) => e.extensionPath);
    assert.deepEqual(copies, [installed], "one Sidekicks, the installed package (none from the repository)");
    const driver = vscode.extensions.getExtension("sidekicks-tests.sidekicks-vsix-driver");
    assert.equal(driver?.extensionPath, path.join(info.repoRoot, "test", "integration", "vsix-driver"), "the development extension is the driver");
    assert.equal(extension.extensionKind, vscode.ExtensionKind.Workspace);

    assert.ok(extension.isActive);
    const exports = (await extension.activate()) as { testing?: unknown } | undefined;
    assert.equal(exports?.testing, undefined, "production mode: no test API");
    const commands = await vscode.commands.getCommands(true);
    for (const id of ["sidekicks.focus", "sidekicks.createConfig", "sidekicks.newChannel"]) assert.ok(commands.includes(id), `${id} is registered`);
  });

  it("a turn, step by step: mention, a tool call while streaming, a permission request, the settled answer", async () => {
    // Four pictures of the side bar for the README (scripts/screenshots.mjs makes docs/media/turn.png of them).
    const picture = async (name: string) => assert.ok((await webview("vsix/screenshot", { name, part: "sidebar" })).taken, `picture ${name}`);
    const request = "@demo show a tool call, then ask permission";
    await webview("vsix/type", { text: request });
    await picture("turn-1-mention");
    assert.equal((await webview("test/compose", { text: request })).sent, true, "the composer did not send");
    const read = `${last} .tool-call[data-tool-call-id='demo-read']`;
    const status = await poll("the demo agent's tool call", async () => (await attribute(read, "data-status")) ?? undefined, 30_000);
    await picture("turn-2-tool-call");
    assert.ok(["in_progress", "completed"].includes(status), `the tool call shows its status: ${status}`);
    const allow = `${last} .permission.card[data-state='pending'] button.permission-option[data-option-id='allow']`;
    await poll("the permission request, waiting for an answer", async () => ((await text(allow)) !== null ? true : undefined), 30_000);
    assert.equal(await attribute(last, "data-status"), "streaming", "the turn waits for the answer");
    await picture("turn-3-permission");
    assert.equal((await webview("test/click", { selector: allow })).clicked, true);
    await poll("the answer to settle", async () => ((await attribute(last, "data-status")) === "done" ? true : undefined), 30_000);
    assert.match((await text(`${last} .message-body`)) ?? "", /You allowed the edit/);
    assert.equal(await attribute(`${last} .tool-call[data-tool-call-id='demo-read']`, "data-status"), "completed");
    await picture("turn-4-answer");
  });

  it("the demo agent answers a message typed in #general", async () => {
    const body = await ask(`@demo hello from the installed package ${TOKEN}`, "demo");
    assert.match(body, /Hello from the demo agent/);
    assert.ok(body.includes(`hello from the installed package ${TOKEN}`), `the demo agent quotes the request: ${body}`);
  });

  it("an agent's command runs in a VS Code terminal, on the installed package's node-pty", async () => {
    const body = await ask("@worker run echo", "worker");
    const name = `worker: echo ${TERMINAL_TEXT} 7`;
    const terminal = await poll(`a terminal named ${JSON.stringify(name)}`, () => vscode.window.terminals.find((t) => t.name === name));
    const line = /terminal: (\{.*?\}) (\{.*\})/.exec(body);
    assert.ok(line, `the agent's answer quotes terminal/wait_for_exit and terminal/output: ${body}`);
    assert.equal((JSON.parse(line[1]!) as { exitCode?: number }).exitCode, 0);
    assert.equal((JSON.parse(line[2]!) as { output: string }).output.trim(), `${TERMINAL_TEXT} 7`);

    // The native module this process loaded is the package's, compiled for linux-x64 and shipped in the .vsix.
    const pty = mappedFrom("pty.node");
    assert.deepEqual(pty, [path.join(extension.extensionPath, "node_modules", "node-pty", "build", "Release", "pty.node")]);
    const ptyModules = Object.keys(require.cache).filter((file) => file.includes(`${path.sep}node-pty${path.sep}`));
    assert.ok(ptyModules.length > 0, "node-pty's JavaScript is in require.cache");
    for (const file of ptyModules) assert.ok(file.startsWith(extension.extensionPath + path.sep), `node-pty module from ${file}`);
    // The README's picture of it: the channel and the terminal panel with the command's output.
    terminal.show(true);
    await webview("workbench/visible", { selector: ".integrated-terminal .xterm-screen" }); // the terminal panel is drawn
    assert.ok((await webview("vsix/screenshot", { name: "vsix-terminal" })).taken);
    terminal.dispose();
  });

  it("keeps the channel in the installed extension's global storage, then the window reloads", async function () {
    const histories = path.join(info.userDataDir, "User", "globalStorage", "sidekicks.sidekicks", "histories");
    const historyDir = await poll(`a history folder under ${histories}`, () => {
      if (!existsSync(histories)) return undefined;
      const holding = readdirSync(histories).map((name) => path.join(histories, name)).filter((dir) => filesContaining(dir, TOKEN).length > 0);
      return holding[0];
    });
    assert.ok(existsSync(path.join(historyDir, "CURRENT")), "a LevelDB folder (classic-level)");
    assert.deepEqual(mappedFrom("classic-level.node"), [path.join(extension.extensionPath, "node_modules", "classic-level", "prebuilds", "linux-x64", "classic-level.node")]);

    const tests = this.test!.parent!.tests;
    writeVsixMarker({
      passedBefore: tests.filter((t) => t.state === "passed").length + 1,
      failedBefore: tests.filter((t) => t.state === "failed").length,
      token: TOKEN,
      historyDir,
    });
    console.log(".vsix suite: reloading the window");
    await vscode.commands.executeCommand("workbench.action.reloadWindow");
    // A guard, not a synchronisation: this extension host ends with the reload; if it ever elapses, the test fails.
    await new Promise((resolve) => setTimeout(resolve, 120_000));
    assert.fail("the window did not reload");
  }).timeout(90_000);
});
