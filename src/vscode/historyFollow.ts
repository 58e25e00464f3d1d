import * as vscode from "vscode";
import { answerOffer, type MovedHistory } from "../store/historyHomes";

/**
 * Offers the history of a folder that moved (issue 21, `src/store/historyHomes.ts`) in a notification: "Use it here"
 * makes this roster follow it and reloads the window to open it; "No" is remembered; a notification dismissed
 * without an answer is offered again at the next start. Several candidates: the user picks one (newest first).
 * Never adopts without the user's yes; moves and deletes nothing.
 */
export async function offerMovedHistory(historiesDir: string, configPath: string, offer: readonly MovedHistory[], log: vscode.LogOutputChannel): Promise<void> {
  const first = offer[0];
  if (!first) return;
  const use = vscode.l10n.t("Use it here");
  const choose = vscode.l10n.t("Choose…");
  const no = vscode.l10n.t("No");
  const text =
    offer.length === 1
      ? vscode.l10n.t("Sidekicks found history for a folder that moved: {0}. Use it here? (The window reloads; the history started here is kept.)", first.configPath)
      : vscode.l10n.t("Sidekicks found history for {0} folders that moved, the latest {1}. Use one here? (The window reloads; the history started here is kept.)", offer.length, first.configPath);
  const choice = await vscode.window.showInformationMessage(text, offer.length === 1 ? use : choose, no);
  if (choice === undefined) return; // dismissed: offered again next time
  let adopt: string | undefined;
  if (choice === no) adopt = undefined;
  else if (offer.length === 1) adopt = first.dir;
  else {
    const picked = await vscode.window.showQuickPick(
      offer.map((m) => ({ label: m.configPath, description: new Date(m.lastUsed).toLocaleString(), dir: m.dir })),
      { placeHolder: vscode.l10n.t("Which folder's history should this folder use?") },
    );
    if (!picked) return;
    adopt = picked.dir;
  }
  try {
    answerOffer(historiesDir, configPath, adopt);
  } catch (err) {
    void vscode.window.showErrorMessage(vscode.l10n.t("Could not use that history: {0}", err instanceof Error ? err.message : String(err)));
    return;
  }
  log.info(adopt ? `history of ${configPath}: now ${adopt} (the user chose it)` : `history of ${configPath}: the user declined ${offer.map((m) => m.dir).join(", ")}`);
  if (adopt) await vscode.commands.executeCommand("workbench.action.reloadWindow");
}
