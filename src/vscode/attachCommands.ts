import * as vscode from "vscode";
import { terminalAttachment } from "../app/attachments";
import type { SidekicksApp } from "../app/SidekicksApp";
import { GENERAL } from "../channels/ChannelDirectory";
import type { AttachmentRequest, ChannelSummary, HostEvents, ProblemView } from "../shared/protocol";
import { ATTACHMENT_TEXT_MAX, MAX_ATTACHMENTS, MAX_PROBLEMS } from "../shared/protocol/requestGuards";

/** Where the commands hand context: the channel view's composer, and the channel it shows. */
export interface ComposerTarget {
  /** Adds chips to the composer of a channel (`composer/attach`), opening that channel first. */
  attach(target: HostEvents["composer/attach"], channelName: string): void;
  /** The channel the view shows, by name, if any. */
  currentChannel(): string | undefined;
}

/** Lines of context around a problem sent with "Ask an agent to fix this". */
const FIX_CONTEXT_LINES = 3;

/**
 * Registers the editor's ways to hand context to an agent (issue 21, "Entry points"): `Sidekicks: Send selection to
 * agent…` (asks which agent, in which channel, with a quick pick), `Sidekicks: Send terminal selection to agent…` (the
 * terminal's context menu: its selected output as a `terminal` chip), `Sidekicks: Add file to message` (the explorer's
 * and the editor title's context menus: the files go to the composer of the channel the view shows), `Sidekicks: Ask
 * an agent to fix this` (a quick fix on a diagnostic: its problems and the lines around them), and `Sidekicks: Focus
 * message box`. Nothing is sent: each puts chips in the composer, where the user writes and sends, or removes them.
 */
export function registerAttachCommands(context: vscode.ExtensionContext, getApp: () => Promise<SidekicksApp | undefined>, composer: ComposerTarget): void {
  const command = (id: string, run: (app: SidekicksApp, ...args: unknown[]) => Promise<void>) =>
    context.subscriptions.push(
      vscode.commands.registerCommand(id, async (...args: unknown[]) => {
        const app = await getApp();
        if (!app) return void vscode.window.showWarningMessage(vscode.l10n.t("Sidekicks is not running: open a folder with a sidekicks.yaml."));
        try {
          await run(app, ...args);
        } catch (err) {
          void vscode.window.showErrorMessage(err instanceof Error ? err.message : String(err));
        }
      }),
    );
  const hand = async (app: SidekicksApp, attachments: AttachmentRequest[], target?: { channel: ChannelSummary; agent?: string }) => {
    const channel = target?.channel ?? (await shownChannel(app, composer.currentChannel()));
    if (!channel) return;
    composer.attach({ channelId: channel.id, attachments: attachments.slice(0, MAX_ATTACHMENTS), ...(target?.agent ? { mention: target.agent } : {}) }, channel.name);
    await vscode.commands.executeCommand("sidekicks.channel.focus");
  };

  command("sidekicks.sendSelection", async (app) => {
    const editor = vscode.window.activeTextEditor;
    if (!editor) return void vscode.window.showInformationMessage(vscode.l10n.t("Open a file and select code to send it to an agent."));
    const attachments = selectionAttachments(editor);
    if (!attachments) return;
    const target = await pickAgent(app, composer.currentChannel(), vscode.l10n.t("Send the selection to which agent?"));
    if (target) await hand(app, attachments, target);
  });

  command("sidekicks.sendTerminalSelection", async (app) => {
    const terminal = vscode.window.activeTerminal;
    const text = terminal ? await terminalSelection(terminal) : undefined;
    if (!terminal || !text) return void vscode.window.showInformationMessage(vscode.l10n.t("Select text in a terminal to send it to an agent."));
    const attachment = terminalAttachment(terminal.name, text);
    const target = await pickAgent(app, composer.currentChannel(), vscode.l10n.t("Send the terminal selection to which agent?"));
    if (target) await hand(app, [attachment], target);
  });

  command("sidekicks.addFileToMessage", async (app, uri, uris) => {
    const picked = Array.isArray(uris) && uris.every((u) => u instanceof vscode.Uri) ? (uris as vscode.Uri[]) : uri instanceof vscode.Uri ? [uri] : [];
    const files = picked.length > 0 ? picked : vscode.window.activeTextEditor ? [vscode.window.activeTextEditor.document.uri] : [];
    const usable = files.filter((f) => f.scheme === "file");
    if (usable.length === 0) return void vscode.window.showInformationMessage(vscode.l10n.t("Only files saved in the workspace can be attached."));
    await hand(app, usable.map((f) => ({ kind: "file", path: f.fsPath })));
  });

  command("sidekicks.askToFix", async (app, uri, diagnostics) => {
    if (!(uri instanceof vscode.Uri) || uri.scheme !== "file") return;
    const list = (Array.isArray(diagnostics) ? diagnostics : []).filter((d): d is vscode.Diagnostic => d instanceof vscode.Diagnostic);
    const problems = (list.length > 0 ? list : vscode.languages.getDiagnostics(uri)).slice(0, MAX_PROBLEMS).map(toProblem);
    if (problems.length === 0) return void vscode.window.showInformationMessage(vscode.l10n.t("No problem to fix here."));
    const start = Math.min(...problems.map((p) => p.range.start));
    const end = Math.max(...problems.map((p) => p.range.end));
    const lines = (await vscode.workspace.openTextDocument(uri)).lineCount;
    const around = { start: Math.max(1, start - FIX_CONTEXT_LINES), end: Math.min(Math.max(lines, 1), end + FIX_CONTEXT_LINES) };
    const target = await pickAgent(app, composer.currentChannel(), vscode.l10n.t("Ask which agent to fix this?"));
    if (!target) return;
    await hand(app, [{ kind: "problems", path: uri.fsPath, range: { start, end }, problems }, { kind: "file", path: uri.fsPath, range: around }], target);
  });

  command("sidekicks.focusComposer", async (app) => hand(app, []));

  context.subscriptions.push(
    vscode.languages.registerCodeActionsProvider({ scheme: "file" }, new AskToFix(), { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] }),
  );
}

/** The quick fix "Ask an agent to fix this" on a diagnostic (a code action that runs `sidekicks.askToFix`). */
class AskToFix implements vscode.CodeActionProvider {
  provideCodeActions(document: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    if (context.diagnostics.length === 0) return [];
    const action = new vscode.CodeAction(vscode.l10n.t("Ask an agent to fix this"), vscode.CodeActionKind.QuickFix);
    action.diagnostics = [...context.diagnostics];
    action.command = { command: "sidekicks.askToFix", title: action.title, arguments: [document.uri, [...context.diagnostics]] };
    return [action];
  }
}

/** Each selection of the editor as a chip (a large one as lines of its file); none: the whole file. */
function selectionAttachments(editor: vscode.TextEditor): AttachmentRequest[] | undefined {
  const doc = editor.document;
  if (doc.uri.scheme !== "file") {
    void vscode.window.showInformationMessage(vscode.l10n.t("Only files saved in the workspace can be attached: save this one first."));
    return undefined;
  }
  const path = doc.uri.fsPath;
  const chosen = editor.selections.filter((s) => !s.isEmpty);
  if (chosen.length === 0) return [{ kind: "file", path }];
  return chosen.map((s): AttachmentRequest => {
    // A selection ending at the start of a line does not take that line.
    const end = s.end.character === 0 && s.end.line > s.start.line ? s.end.line : s.end.line + 1;
    const range = { start: s.start.line + 1, end };
    const text = doc.getText(s);
    return text.length > ATTACHMENT_TEXT_MAX ? { kind: "file", path, range } : { kind: "selection", path, range, text };
  });
}

/**
 * The text selected in `terminal`: its `selection` where the editor gives it (`Terminal.selection`, still the proposed API `terminalSelection`; not in the 1.99 typings), else copied with
 * `workbench.action.terminal.copySelection` and read from the clipboard, which is then given back what it held.
 */
async function terminalSelection(terminal: vscode.Terminal): Promise<string | undefined> {
  try {
    const own = (terminal as { selection?: unknown }).selection; // the getter is there in VS Code 1.117 (code-server 4.139)
    if (typeof own === "string" && own !== "") return own;
  } catch {
    // an editor that guards the proposal: copy it instead
  }
  const saved = await vscode.env.clipboard.readText();
  const marker = `\u0000sidekicks-${Date.now()}`;
  try {
    await vscode.env.clipboard.writeText(marker);
    await vscode.commands.executeCommand("workbench.action.terminal.copySelection");
    const copied = await vscode.env.clipboard.readText();
    return copied === marker ? undefined : copied;
  } finally {
    await vscode.env.clipboard.writeText(saved);
  }
}

function toProblem(d: vscode.Diagnostic): ProblemView {
  const severity = (["error", "warning", "info", "hint"] as const)[d.severity] ?? "error";
  const code = typeof d.code === "object" ? d.code.value : d.code;
  const end = d.range.end.character === 0 && d.range.end.line > d.range.start.line ? d.range.end.line : d.range.end.line + 1;
  return {
    severity,
    message: d.message.slice(0, 4096),
    range: { start: d.range.start.line + 1, end },
    ...(d.source ? { source: d.source.slice(0, 256).replace(/[\u0000-\u001f]/g, " ") } : {}),
    ...(code !== undefined ? { code: String(code).slice(0, 256).replace(/[\u0000-\u001f]/g, " ") } : {}),
  };
}

async function shownChannel(app: SidekicksApp, name: string | undefined): Promise<ChannelSummary | undefined> {
  const channels = await app.directory.list();
  return channels.find((c) => c.name === name) ?? channels.find((c) => c.name === GENERAL) ?? channels[0];
}

/**
 * Asks which agent, in which channel: one item per member of each channel and direct conversation (the shown
 * channel first). Undefined when the user escaped or no channel has a member.
 */
async function pickAgent(app: SidekicksApp, shown: string | undefined, placeHolder: string): Promise<{ channel: ChannelSummary; agent: string } | undefined> {
  const channels = (await app.directory.list()).filter((c) => c.members.length > 0);
  if (channels.length === 0) {
    void vscode.window.showWarningMessage(vscode.l10n.t("No agent in any channel yet: declare one in sidekicks.yaml (Sidekicks: Add agent…)."));
    return undefined;
  }
  channels.sort((a, b) => Number(b.name === shown) - Number(a.name === shown) || Number(a.kind === "direct") - Number(b.kind === "direct"));
  const items = channels.flatMap((channel) =>
    channel.members.map((agent) => ({
      label: `@${agent}`,
      description: channel.kind === "direct" ? vscode.l10n.t("direct conversation") : `#${channel.name}`,
      detail: channel.name === shown ? vscode.l10n.t("the channel the Sidekicks view shows") : undefined,
      channel,
      agent,
    })),
  );
  const picked = await vscode.window.showQuickPick(items, { placeHolder, matchOnDescription: true });
  return picked ? { channel: picked.channel, agent: picked.agent } : undefined;
}
