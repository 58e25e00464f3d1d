import * as vscode from "vscode";
import type { SidekicksApp } from "../app/SidekicksApp";
import { parseSearch, type HistoryHit } from "../channels/HistorySearch";
import { exportTime } from "../channels/exportMarkdown";
import { plainSnippet } from "../shared/markdownPlain";
import type { HostEvents } from "../shared/protocol";

/** Shows a channel in the view and reveals one of its messages there (loading its page). */
export type RevealMessage = (channelName: string, target: HostEvents["message/reveal"]) => void;

/** Milliseconds the search waits after the last key before it runs. */
const DEBOUNCE_MS = 150;

type HitItem = vscode.QuickPickItem & { hit?: HistoryHit };

function itemOf(hit: HistoryHit): HitItem {
  const author = hit.author === "user" ? vscode.l10n.t("You") : hit.author === "system" ? "Sidekicks" : `@${hit.author}`;
  const channel = hit.channelName.startsWith("@") ? hit.channelName : `#${hit.channelName}`;
  // A label reads `$(name)` as an icon: a snippet's own `$(` is kept as text. Where and who go on the detail line with
  // the time: as the description they went off the end of a long snippet's line (a trial saw agents' hits without them).
  return { label: plainSnippet(hit.snippet).replace(/\$\(/g, "$\u200b("), detail: `${channel} · ${author} · ${exportTime(hit.createdAt)}`, hit };
}


/**
 * Registers `Sidekicks: Search history…` (a QuickPick that searches every channel as the user types, with `in:#channel`,
 * `from:agent`, `after:` and `before:` filters; choosing a result opens its channel at that message) and `Sidekicks:
 * Export channel…` (a channel, all of it or since a date, as Markdown in a file the user picks, then opened).
 */
export function registerHistoryCommands(context: vscode.ExtensionContext, getApp: () => Promise<SidekicksApp | undefined>, reveal: RevealMessage): void {
  const withApp = (run: (app: SidekicksApp, arg: unknown) => Promise<void>) => async (arg?: unknown) => {
    const app = await getApp();
    if (!app) return void vscode.window.showWarningMessage(vscode.l10n.t("Sidekicks is not running: open a folder with a sidekicks.yaml."));
    try {
      await run(app, arg);
    } catch (err) {
      void vscode.window.showErrorMessage(err instanceof Error ? err.message : String(err));
    }
  };
  context.subscriptions.push(
    vscode.commands.registerCommand("sidekicks.searchHistory", withApp(async (app, arg) => searchHistory(app, reveal, await startingQuery(app, arg)))),
    vscode.commands.registerCommand("sidekicks.exportChannel", withApp((app) => exportChannel(app))),
  );
}

/**
 * The search's first text when the view asked for it (Ctrl+F in the view: `{ channelId }`, the channel it shows): that
 * channel's filter and a space, `in:#name ` (a direct conversation `in:@name `), for the user to type the words after
 * (or delete, to search every channel). Anything else, or a channel that is gone: empty.
 */
async function startingQuery(app: SidekicksApp, arg: unknown): Promise<string> {
  const channelId = typeof arg === "object" && arg !== null && "channelId" in arg ? (arg as { channelId: unknown }).channelId : undefined;
  if (typeof channelId !== "string") return "";
  const channel = (await app.directory.list()).find((c) => c.id === channelId);
  if (!channel || /\s/.test(channel.name)) return "";
  return channel.name.startsWith("@") ? `in:${channel.name} ` : `in:#${channel.name} `;
}

async function searchHistory(app: SidekicksApp, reveal: RevealMessage, startWith = ""): Promise<void> {
  const pick = vscode.window.createQuickPick<HitItem>();
  pick.title = vscode.l10n.t("Search history");
  pick.placeholder = vscode.l10n.t("Words, and in:#channel from:agent after:2026-01-31 before:2026-02-28");
  pick.matchOnDescription = false;
  pick.matchOnDetail = false;
  let timer: NodeJS.Timeout | undefined;
  let generation = 0;
  const run = async (value: string): Promise<void> => {
    const mine = ++generation;
    const parsed = parseSearch(value);
    // Filters alone (`from:odie`, `in:#general after:2026-01-31`) list the newest messages that pass them.
    const filtered = parsed.channel !== undefined || parsed.author !== undefined || parsed.since !== undefined || parsed.until !== undefined;
    if (parsed.text.trim() === "" && !filtered) {
      pick.items = [];
      pick.busy = false;
      return;
    }
    pick.busy = true;
    try {
      const { hits, more, noChannel } = await app.history.search.search(value);
      if (mine !== generation) return;
      if (noChannel) {
        pick.items = [{ label: noChannel, alwaysShow: true }];
        return;
      }
      const items: HitItem[] = hits.map(itemOf);
      // The QuickPick would filter the items again by its own rules: every result is shown as the search found it.
      for (const item of items) item.alwaysShow = true;
      if (hits.length === 0) {
        // A filter that was not understood is said, not silently searched as a word.
        const unread = parseSearch(value).unreadDates ?? [];
        items.push({ label: vscode.l10n.t("No message matches."), detail: unread.length > 0 ? vscode.l10n.t("Not a date (YYYY-MM-DD), searched as a word: {0}", unread.join(" ")) : undefined, alwaysShow: true });
      }
      else if (more) items.push({ label: vscode.l10n.t("Only the {0} newest are shown: add words or filters.", hits.length), alwaysShow: true });
      pick.items = items;
    } catch (err) {
      if (mine === generation) pick.items = [{ label: err instanceof Error ? err.message : String(err), alwaysShow: true }];
    } finally {
      if (mine === generation) pick.busy = false;
    }
  };
  const done = new Promise<HistoryHit | undefined>((resolve) => {
    pick.onDidChangeValue((value) => {
      clearTimeout(timer);
      timer = setTimeout(() => void run(value), DEBOUNCE_MS);
    });
    pick.onDidAccept(() => {
      const hit = pick.selectedItems[0]?.hit;
      if (hit) {
        resolve(hit);
        pick.hide();
      }
    });
    pick.onDidHide(() => resolve(undefined));
  });
  if (startWith !== "") {
    pick.value = startWith;
    // The cursor after the filter, nothing selected, so that the first key typed adds a word instead of replacing the
    // filter. A QuickPick takes `valueSelection` at run time (its extension host side is shared with InputBox's), though
    // @types/vscode 1.99 declares it only on InputBox; where it is not taken the filter is selected, as before.
    (pick as typeof pick & { valueSelection?: readonly [number, number] }).valueSelection = [startWith.length, startWith.length];
  }
  pick.show();
  const hit = await done;
  clearTimeout(timer);
  pick.dispose();
  if (hit) reveal(hit.channelName, { channelId: hit.channelId, messageId: hit.messageId });
}

async function exportChannel(app: SidekicksApp): Promise<void> {
  const channels = await app.directory.list();
  const picked = await vscode.window.showQuickPick(
    channels.map((c) => ({ label: c.kind === "direct" ? c.name : `#${c.name}`, description: c.description, channel: c })),
    { title: vscode.l10n.t("Export channel"), placeHolder: vscode.l10n.t("Export which channel?") },
  );
  if (!picked) return;
  const range = await vscode.window.showQuickPick(
    [
      { label: vscode.l10n.t("All messages"), since: false },
      { label: vscode.l10n.t("Messages since a date…"), since: true },
    ],
    { title: vscode.l10n.t("Export #{0}", picked.channel.name) },
  );
  if (!range) return;
  let since: number | undefined;
  if (range.since) {
    const typed = await vscode.window.showInputBox({
      title: vscode.l10n.t("Export #{0}", picked.channel.name),
      prompt: vscode.l10n.t("Messages written on or after this day (UTC), as YYYY-MM-DD"),
      value: new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10),
      validateInput: (v) => (dayStart(v) === undefined ? vscode.l10n.t("A date such as 2026-01-31") : undefined),
    });
    if (typed === undefined) return;
    since = dayStart(typed);
  }
  const { name, markdown } = await app.history.exportChannel(picked.channel.id, since);
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const file = `${name}-${new Date().toISOString().slice(0, 10)}.md`;
  const target = await vscode.window.showSaveDialog({
    title: vscode.l10n.t("Export #{0}", name),
    saveLabel: vscode.l10n.t("Export"),
    filters: { Markdown: ["md"] },
    ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, file) } : {}),
  });
  if (!target) return;
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(markdown));
  await vscode.window.showTextDocument(target);
}

/** The start (UTC) of a `YYYY-MM-DD` day, or undefined when `text` is not one. */
function dayStart(text: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text.trim())) return undefined;
  const at = Date.parse(`${text.trim()}T00:00:00Z`);
  return Number.isNaN(at) ? undefined : at;
}
