/**
 * The domain speaks the editor's language once the host configured `@vscode/l10n` with the editor's bundle, as
 * `activate` does with `vscode.l10n.bundle` (src/extension.ts). Here the French bundle is loaded the same way
 * (its contents); this file runs in its own process, so the other tests keep English.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import * as l10n from "@vscode/l10n";
import { routeMessage } from "../../src/shared/mentions";
import { limitError } from "../../src/agents/policy";
import { parseRoster } from "../../src/config/roster";

const root = path.resolve(import.meta.dirname, "../..");

test("before configuration the domain's sentences are English; with the French bundle they are French, names kept", () => {
  const unknown = routeMessage("@demi hello", ["demo", "claude"]);
  assert.equal(unknown.kind === "error" && unknown.message, "No member named @demi — did you mean @demo?");
  const yaml = "agents:\n  - name: demo\n    command: sidekicks:demo\n    comand: x\nchannels:\n  - name: review\n    members: [dmeo]\n";
  const problems = (text: string) => parseRoster(text, "/w/sidekicks.yaml").problems.map((p) => p.message);
  assert.deepEqual(problems(yaml), ['agents[0]: unknown key "comand" (did you mean "command"?)', 'channels[0].members[0]: no agent named "dmeo" (did you mean "demo"?)']);

  l10n.config({ contents: readFileSync(path.join(root, "l10n/bundle.l10n.fr.json"), "utf8") });

  const french = routeMessage("@demi hello", ["demo", "claude"]);
  assert.equal(french.kind === "error" && french.message, "Aucun membre nommé @demi — vouliez-vous dire @demo ?");
  const none = routeMessage("@zed hello", ["demo", "claude"]);
  assert.equal(none.kind === "error" && none.message, "Aucun membre nommé @zed dans ce canal. Membres : @demo, @claude.");
  assert.equal(
    limitError(2, ["demo", "claude"]).message,
    "Les 2 agents lancés sont tous occupés (demo, claude). Attendez que l'un d'eux ait fini, ou augmentez limits.maxRunningAgents dans sidekicks.yaml.",
  );
  // The roster's problems too (the Problems panel and the view's banner), keys and values kept as written.
  assert.deepEqual(problems(yaml), ["agents[0] : clé inconnue « comand » (vouliez-vous dire « command » ?)", "channels[0].members[0] : aucun agent ne s’appelle « dmeo » (vouliez-vous dire « demo » ?)"]);
});
