/**
 * Mocha entry of the integration suite, run inside the real extension host (code-server, or VS Code via
 * `@vscode/test-electron`), in order: the walking skeleton, the Agents view, a broken roster, signing in, the channel switcher,
 * two demo agents answering one message, the demo's edit (files changed, its diff) and delegation, an agent's files and
 * terminals through the editor, code highlighting, images, files and links in answers, the field cases' exchanges, what the view shows for them, a roster edited through the UI, history search and export, message actions (open in editor, edit and resend, regenerate).
 */
import { runMocha } from "./runMocha";

export function run(): Promise<void> {
  return runMocha(async () => {
    await import("./skeleton.test.js");
    await import("./agents.test.js");
    await import("./config.test.js");
    await import("./signin.test.js");
    await import("./channels.test.js");
    await import("./twoAgents.test.js");
    await import("./demoShowcase.test.js");
    await import("./agentWorkspace.test.js");
    await import("./highlight.test.js");
    await import("./contentBlocks.test.js");
    await import("./fileMention.test.js");
    await import("./fieldCasesTurns.test.js");
    await import("./fieldCasesShown.test.js");
    await import("./fieldCaseRoster.test.js");
    await import("./historySearch.test.js");
    await import("./messageActions.test.js");
  });
}
