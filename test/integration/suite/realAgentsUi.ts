/**
 * What the real-agents suite (realAgentsIndex.ts) does in the channel view, as a user would: it reads the webview's
 * DOM through the extension's test API (`test/text`, `test/attribute`) and clicks with the harness's Playwright
 * (`vsixBridge.webview("test/click")`: a real pointer click, which fails when the element is hidden, disabled or
 * covered by another one), and asks the harness for screenshots (`vsix/screenshot`, answered once taken).
 * The agents are Claude Code and Codex from the workspace `npm start -- --real-agents` writes
 * (scripts/realAgentRoster.mjs), against the scripted model server the harness runs.
 */
import * as vscode from "vscode";
import * as assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { HostRequests } from "../../../src/shared/protocol";
import { poll } from "./poll";
import { webview as harness } from "./vsixBridge";

interface SidekicksTestApi {
  webview<M extends keyof HostRequests>(method: M, params: HostRequests[M][0]): Promise<HostRequests[M][1]>;
}

/** Generous deadlines (ms): real agents on a loaded 2-core machine. */
export const TURN_MS = 150_000;
export const START_MS = 90_000;

let api: SidekicksTestApi | undefined;

/** The extension's test API, once it is active, with the channel view shown. */
export async function openView(): Promise<void> {
  const extension = vscode.extensions.getExtension<{ testing?: SidekicksTestApi }>("sidekicks.sidekicks")!;
  api = (await extension.activate()).testing;
  assert.ok(api, "the extension exports no test API");
  await vscode.commands.executeCommand("sidekicks.focus");
  await poll("#general to show claude and codex as members", async () => {
    const header = await text(".channel-header");
    return header?.includes("claude") && header.includes("codex") ? true : undefined;
  }, 60_000);
}

/** innerText of the first element matching `selector`, or null. */
export const text = async (selector: string) => (await api!.webview("test/text", { selector })).text;
/** An attribute of the first element matching `selector`, or null. */
export const attribute = async (selector: string, name: string) => (await api!.webview("test/attribute", { selector, name })).text;

/** The selector of the message with id `id`. */
export const message = (id: string) => `.history > .message[data-message-id='${id}']`;

/** A real click (the harness's Playwright) on the first element matching `selector`; fails when there is none. */
export async function click(selector: string): Promise<void> {
  assert.equal((await harness("test/click", { selector })).clicked, true, `nothing to click at ${selector}`);
}

/** test-results/<name>.png of the whole window (or the side bar), once taken. */
export async function screenshot(name: string, part?: "sidebar"): Promise<void> {
  assert.equal((await harness("vsix/screenshot", { name, part })).taken, true, `the picture ${name}`);
}

/** Ids of the messages now in the history, oldest first. */
async function messageIds(): Promise<string[]> {
  const ids: string[] = [];
  for (let k = 1; k <= 40; k++) {
    const id = await attribute(`.history > .message:nth-last-child(${k})`, "data-message-id");
    if (id === null) break;
    ids.unshift(id);
  }
  return ids;
}

/**
 * Sends `request` from the composer (typed, Enter) and resolves with the ids of the answers of `agents`, once each
 * has appeared in the history (in the order of `agents`).
 */
export async function send(request: string, agents: readonly string[]): Promise<string[]> {
  const before = new Set(await messageIds());
  assert.equal((await api!.webview("test/compose", { text: request })).sent, true, `the composer did not send ${JSON.stringify(request)}`);
  return poll(
    `the answers of ${agents.join(", ")} to ${JSON.stringify(request)}`,
    async () => {
      const found: Record<string, string> = {};
      for (const id of (await messageIds()).filter((m) => !before.has(m))) {
        if ((await attribute(message(id), "data-author")) !== "agent") continue;
        const author = await text(`${message(id)} .message-author`);
        if (author && agents.includes(author) && !found[author]) found[author] = id;
      }
      return agents.every((a) => found[a]) ? agents.map((a) => found[a]!) : undefined;
    },
    START_MS,
  );
}

/** The answer `id` once it settled (done or error), within `timeoutMs`; resolves with its `data-outcome`. */
export function settled(id: string, timeoutMs = TURN_MS): Promise<string> {
  return poll(
    `the answer ${id} to settle`,
    async () => {
      const status = await attribute(message(id), "data-status");
      return status === "done" || status === "error" ? ((await attribute(message(id), "data-outcome")) ?? status) : undefined;
    },
    timeoutMs,
  );
}

/** The answer's body as shown (innerText). */
export const body = async (id: string) => (await text(`${message(id)} .message-body`)) ?? "";

/**
 * What a user should never see in an answer: a Markdown fence or heading marker left as text, or a terminal escape
 * sequence. Fails naming what it found.
 */
export function assertCleanText(shown: string, what: string): void {
  assert.doesNotMatch(shown, /```/, `${what}: a Markdown fence shown as text`);
  assert.doesNotMatch(shown, /\u001b|\[\d+(;\d+)*m/, `${what}: a terminal escape code shown as text`);
}

/** The mode the header's session button shows for `agent` (its text, e.g. "Manual · 1.2k / 200k"). */
export const sessionButton = async (agent: string) => (await text(`.session-trigger[data-agent='${agent}']`)) ?? "";

/**
 * Sets `agent`'s mode to the one named `modeName` as a user does: the header's session button, the Mode list in its
 * dialog, the mode's entry; then waits until the button shows it, and closes the dialog.
 */
export async function chooseMode(agent: string, modeName: string): Promise<void> {
  await poll(`@${agent}'s session button`, async () => ((await sessionButton(agent)) !== "" ? true : undefined), START_MS);
  await click(`.session-trigger[data-agent='${agent}']`);
  const select = ".session-popover vscode-single-select";
  await poll("the session dialog's mode list", async () => ((await attribute(select, "data-control")) !== null ? true : undefined));
  // The list's face and its entries live in the element's shadow DOM, which Playwright's selectors pierce.
  await click(`${select} .select-face`);
  await click(`${select} li.option:text-is(${JSON.stringify(modeName)})`);
  await poll(`@${agent}'s header to show ${modeName}`, async () => ((await sessionButton(agent)).startsWith(modeName) ? true : undefined), 30_000);
  await click(".channel-name"); // a press elsewhere closes the dialog
  await poll("the session dialog to close", async () => ((await attribute(".session-popover", "class")) === null ? true : undefined));
}

/** The workspace folder (the agents' cwd). */
export function workspaceFile(name: string): string {
  return path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, name);
}

/**
 * notes.txt back to "alpha", created.txt and permitted.txt gone: what `script:tools` and `script:permission` expect.
 * Only what differs is touched (a file written or removed just before a prompt is seen by the file watcher late).
 */
export function resetFiles(): void {
  if (read("notes.txt") !== "alpha\n") writeFileSync(workspaceFile("notes.txt"), "alpha\n");
  for (const name of ["created.txt", "permitted.txt"]) if (exists(name)) rmSync(workspaceFile(name));
}

export const exists = (name: string) => existsSync(workspaceFile(name));
export const read = (name: string) => readFileSync(workspaceFile(name), "utf8");
