import { existsSync } from "node:fs";
import path from "node:path";
import * as vscode from "vscode";
import { joinArgs, splitArgs } from "../config/args";
import { DEFAULT_CONFIG_FILES } from "../config/location";
import { RecentConfigs } from "../config/recentConfigs";
import { parseRoster, type PermissionPolicy } from "../config/roster";
import { addAgent, agentData, agentNames, setAgentField, type EditableAgentField } from "../config/rosterEdit";
import { readRosterSnapshot, saveRoster, type RosterSnapshot, type TextFiles } from "../config/rosterFile";
import { PATTERNS } from "../config/spec";
import { SidekicksError } from "../shared/errors";

/** What the roster commands need from the extension. */
export interface RosterCommandsHost {
  /** The roster file in use (absolute), or undefined when there is none (no folder open). */
  configPath(): string | undefined;
  /** Re-reads the roster after a save, so the change shows at once (the file watcher would follow). */
  reload(): Promise<unknown>;
}

/** `TextFiles` over `vscode.workspace.fs` (works for remote workspaces too). */
const workspaceFiles: TextFiles = {
  read: async (file) => new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.file(file))),
  write: (file, text) => Promise.resolve(vscode.workspace.fs.writeFile(vscode.Uri.file(file), new TextEncoder().encode(text))),
};

/** The permission policies offered by `Edit agent…`, with their explanation in the editor's language. */
const permissions = (): { value: PermissionPolicy; detail: string }[] => [
  { value: "ask", detail: vscode.l10n.t("Ask me for every permission request (allow once, allow always, reject).") },
  { value: "allow-reads", detail: vscode.l10n.t("Allow read, search and think tool calls automatically; ask for the rest.") },
  { value: "allow-all", detail: vscode.l10n.t("Allow every request automatically. Not a safety check: the agent's own claims decide.") },
];

/**
 * Registers `Sidekicks: Add agent…`, `Sidekicks: Edit agent…` and `Sidekicks: Open config`. Edits go through
 * `src/config/rosterEdit.ts` (comments, anchors and merge keys kept) and are saved with `vscode.workspace.fs` only
 * when the file on disk is still what was read (`config/conflict` otherwise). A roster open in an editor with
 * unsaved changes is never edited: the command refuses and says so. Roster files used are remembered in
 * `context.globalState` (the last 10) and offered by `Open config`.
 */
export function registerRosterCommands(context: vscode.ExtensionContext, host: RosterCommandsHost): void {
  const recent = new RecentConfigs(context.globalState);
  const remember = (file: string) => void recent.remember(file);
  const command = (id: string, run: () => Promise<unknown>) =>
    context.subscriptions.push(vscode.commands.registerCommand(id, () => run().catch((err: unknown) => showFailure(err))));

  command("sidekicks.addAgent", async () => {
    const snapshot = await beginEdit(host);
    if (!snapshot) return;
    const taken = new Set(agentNames(snapshot.text).map((n) => n.toLowerCase()));
    const name = await vscode.window.showInputBox({
      title: vscode.l10n.t("Add agent (1/3): name"),
      prompt: vscode.l10n.t("The mention name: @name in a message"),
      placeHolder: "claude",
      validateInput: (v) =>
        v === ""
          ? vscode.l10n.t("A name is needed.")
          : !new RegExp(PATTERNS.agentName.pattern).test(v)
            ? PATTERNS.agentName.invalid(v)
            : taken.has(v.toLowerCase())
              ? vscode.l10n.t('"{0}" is already the name of an agent.', v)
              : undefined,
    });
    if (name === undefined) return;
    const commandLine = await vscode.window.showInputBox({
      title: vscode.l10n.t("Add agent (2/3): the program @{0} runs", name),
      prompt: vscode.l10n.t("A program that speaks ACP on stdio, found on the PATH (sidekicks:demo runs the offline demo agent)"),
      placeHolder: "npx",
      validateInput: (v) => (v.trim() === "" ? vscode.l10n.t("A command is needed.") : undefined),
    });
    if (commandLine === undefined) return;
    const argsLine = await vscode.window.showInputBox({
      title: vscode.l10n.t("Add agent (3/3): arguments of {0}", commandLine.trim()),
      prompt: vscode.l10n.t("Separated by spaces; quote an argument that has spaces. May be empty."),
      placeHolder: "-y @agentclientprotocol/claude-agent-acp",
      validateInput: argsProblem,
    });
    if (argsLine === undefined) return;
    const text = addAgent(snapshot.text, { name, command: commandLine.trim(), args: splitArgs(argsLine) });
    if (await finishEdit(host, snapshot, text)) {
      remember(snapshot.file);
      void vscode.window.showInformationMessage(vscode.l10n.t("Added @{0} to {1}.", name, path.basename(snapshot.file)));
    }
  });

  command("sidekicks.editAgent", async () => {
    const snapshot = await beginEdit(host);
    if (!snapshot) return;
    const names = agentNames(snapshot.text);
    if (names.length === 0) return void vscode.window.showInformationMessage(vscode.l10n.t("The roster has no agent yet: use Sidekicks: Add agent…."));
    const picked = await vscode.window.showQuickPick(
      names.map((n) => ({ label: `@${n}`, name: n, description: describeAgent(agentData(snapshot.text, n)) })),
      { title: vscode.l10n.t("Edit agent"), placeHolder: vscode.l10n.t("Which agent?") },
    );
    if (!picked) return;
    const current = agentData(snapshot.text, picked.name);
    const field = await vscode.window.showQuickPick(
      [
        { label: "command", field: "command" as const, description: String(current.command ?? "") },
        { label: "args", field: "args" as const, description: joinArgs(Array.isArray(current.args) ? current.args.map(String) : []) },
        { label: "title", field: "title" as const, description: typeof current.title === "string" ? current.title : vscode.l10n.t("(the name: {0})", picked.name) },
        { label: "permissions", field: "permissions" as const, description: typeof current.permissions === "string" ? current.permissions : vscode.l10n.t("ask (default)") },
      ],
      { title: vscode.l10n.t("Edit @{0}", picked.name), placeHolder: vscode.l10n.t("Which field?") },
    );
    if (!field) return;
    const value = await askValue(picked.name, field.field, current);
    if (value === NOTHING) return;
    const text = setAgentField(snapshot.text, picked.name, field.field, value);
    if (text === snapshot.text) return;
    if (await finishEdit(host, snapshot, text)) {
      remember(snapshot.file);
      void vscode.window.showInformationMessage(
        value === undefined
          ? vscode.l10n.t("@{0}: {1} reset to its default.", picked.name, field.field)
          : vscode.l10n.t("@{0}: {1} saved.", picked.name, field.field),
      );
    }
  });

  command("sidekicks.openConfig", async () => {
    const file = host.configPath();
    if (!file) return void vscode.window.showErrorMessage(vscode.l10n.t("Open a folder first: the roster lives in the workspace."));
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const others = [...recent.list(), ...(folder ? DEFAULT_CONFIG_FILES.map((f) => path.join(folder, f)) : [])].filter((f, i, all) => f !== file && all.indexOf(f) === i && existsSync(f));
    let target = file;
    if (others.length > 0) {
      const show = (f: string) => (folder && !path.relative(folder, f).startsWith("..") ? path.relative(folder, f) : f);
      const choice = await vscode.window.showQuickPick(
        [
          { label: show(file), file, description: vscode.l10n.t("in use") },
          ...others.map((f) => ({ label: show(f), file: f, description: vscode.l10n.t("used recently") })),
        ],
        { title: vscode.l10n.t("Open config"), placeHolder: vscode.l10n.t("Which roster file?") },
      );
      if (!choice) return;
      target = choice.file;
    }
    if (!existsSync(target)) {
      const choice = await vscode.window.showWarningMessage(vscode.l10n.t("{0} does not exist yet.", target), vscode.l10n.t("Create config"));
      if (choice) await vscode.commands.executeCommand("sidekicks.createConfig");
      return;
    }
    remember(target);
    await vscode.window.showTextDocument(vscode.Uri.file(target));
    if (target !== file) await offerSwitch(file, target, folder);
  });

  context.subscriptions.push(
    vscode.workspace.onDidSaveTextDocument((doc) => {
      if (doc.uri.scheme === "file" && doc.uri.fsPath === host.configPath()) remember(doc.uri.fsPath);
    }),
  );
  const initial = host.configPath();
  if (initial && existsSync(initial)) remember(initial);
}

const NOTHING = Symbol("cancelled");

/** Asks for a field's new value; `undefined` removes the key (back to its default), NOTHING means cancelled. */
async function askValue(name: string, field: EditableAgentField, current: Record<string, unknown>): Promise<unknown> {
  const title = `@${name}: ${field}`;
  switch (field) {
    case "permissions": {
      const now = typeof current.permissions === "string" ? current.permissions : "ask";
      const choice = await vscode.window.showQuickPick(
        permissions().map((p) => ({ label: p.value, detail: p.detail, description: p.value === now ? vscode.l10n.t("current") : undefined })),
        { title, placeHolder: vscode.l10n.t("How should this agent's permission requests be answered?") },
      );
      return choice ? choice.label : NOTHING;
    }
    case "args": {
      const line = await vscode.window.showInputBox({ title, value: joinArgs(Array.isArray(current.args) ? current.args.map(String) : []), prompt: vscode.l10n.t("Separated by spaces; quote an argument that has spaces."), validateInput: argsProblem });
      return line === undefined ? NOTHING : splitArgs(line);
    }
    case "title": {
      const value = await vscode.window.showInputBox({ title, value: typeof current.title === "string" ? current.title : "", prompt: vscode.l10n.t('Shown instead of the name; empty shows "{0}".', name) });
      return value === undefined ? NOTHING : value.trim() === "" ? undefined : value.trim();
    }
    default: {
      const value = await vscode.window.showInputBox({ title, value: typeof current[field] === "string" ? (current[field] as string) : "", validateInput: (v) => (v.trim() === "" ? vscode.l10n.t("A value is needed.") : undefined) });
      return value === undefined ? NOTHING : value.trim();
    }
  }
}

function argsProblem(line: string): string | undefined {
  try {
    splitArgs(line);
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

function describeAgent(agent: Record<string, unknown>): string {
  const args = Array.isArray(agent.args) ? ` ${joinArgs(agent.args.map(String))}` : "";
  return `${String(agent.command ?? "")}${args}`;
}

function isDirty(file: string): boolean {
  return vscode.workspace.textDocuments.some((d) => d.uri.scheme === "file" && path.normalize(d.uri.fsPath) === path.normalize(file) && d.isDirty);
}

async function refuseDirty(file: string): Promise<void> {
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t("{0} has unsaved changes in the editor. Save or revert them, then try again: Sidekicks does not edit a file you are editing.", path.basename(file)),
    vscode.l10n.t("Show file"),
  );
  if (choice) await vscode.window.showTextDocument(vscode.Uri.file(file));
}

/** Reads the roster for an edit, or says why it cannot be edited now (and returns undefined). */
async function beginEdit(host: RosterCommandsHost): Promise<RosterSnapshot | undefined> {
  const file = host.configPath();
  if (!file) return void vscode.window.showErrorMessage(vscode.l10n.t("Open a folder first: the roster lives in the workspace."));
  if (isDirty(file)) return void (await refuseDirty(file));
  let snapshot: RosterSnapshot;
  try {
    snapshot = await readRosterSnapshot(file, workspaceFiles);
  } catch (err) {
    const choice = await vscode.window.showWarningMessage(err instanceof Error ? err.message : String(err), vscode.l10n.t("Create config"));
    if (choice) await vscode.commands.executeCommand("sidekicks.createConfig");
    return undefined;
  }
  agentNames(snapshot.text); // throws config/invalid on YAML syntax errors: reported by showFailure
  return snapshot;
}

/** Checks the edited text and saves it; false (after telling the user why) when it must not be saved. */
async function finishEdit(host: RosterCommandsHost, snapshot: RosterSnapshot, text: string): Promise<boolean> {
  const messages = (t: string) => parseRoster(t, snapshot.file).problems.map((p) => p.message);
  const before = new Set(messages(snapshot.text));
  const added = messages(text).filter((m) => !before.has(m));
  if (added.length > 0) {
    void vscode.window.showErrorMessage(vscode.l10n.t("Not saved: the change would make the roster invalid ({0}).", added[0]!));
    return false;
  }
  if (isDirty(snapshot.file)) {
    await refuseDirty(snapshot.file);
    return false;
  }
  await saveRoster(snapshot, text, workspaceFiles);
  await host.reload();
  return true;
}

function showFailure(err: unknown): void {
  const message = err instanceof Error ? err.message : String(err);
  const open = err instanceof SidekicksError && (err.code === "config/conflict" || err.code === "config/invalid");
  void vscode.window.showErrorMessage(message, ...(open ? [vscode.l10n.t("Open config")] : [])).then((choice) => {
    if (choice) void vscode.commands.executeCommand("sidekicks.openConfig");
  });
}

/** After opening another roster file: offers to make it the one in use (setting `sidekicks.configPath`). */
async function offerSwitch(inUse: string, picked: string, folder: string | undefined): Promise<void> {
  const relative = folder && !path.relative(folder, picked).startsWith("..") ? path.relative(folder, picked) : picked;
  const choice = await vscode.window.showInformationMessage(
    vscode.l10n.t("Sidekicks uses {0}. Use {1} instead?", `${path.basename(path.dirname(inUse))}/${path.basename(inUse)}`, relative),
    vscode.l10n.t("Use this file"),
  );
  if (!choice) return;
  await vscode.workspace.getConfiguration("sidekicks", vscode.workspace.workspaceFolders?.[0]?.uri).update("configPath", relative, vscode.ConfigurationTarget.Workspace);
  const reload = await vscode.window.showInformationMessage(vscode.l10n.t("sidekicks.configPath is now {0}. Reload the window to switch rosters.", relative), vscode.l10n.t("Reload Window"));
  if (reload) await vscode.commands.executeCommand("workbench.action.reloadWindow");
}
