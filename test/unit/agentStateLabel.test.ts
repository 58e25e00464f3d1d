/**
 * One word per agent state wherever it is shown (the Agents view's description, the channel header's member badges:
 * test/webview/sessionControls.test.mjs and l10n.test.mjs check the header's words), in English and in French. This
 * file configures the French bundle: it runs in its own process, so the other tests keep English.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import * as l10n from "@vscode/l10n";
import { agentStateLabel, describeAgent } from "../../src/shared/stateLabel";
import type { AgentState } from "../../src/shared/protocol";

const root = path.resolve(import.meta.dirname, "../..");
const STATES: AgentState[] = ["stopped", "starting", "ready", "busy", "error"];

test("the Agents view describes each state with the header's word; a pending restart or removal and an error are added", () => {
  assert.deepEqual(STATES.map((state) => describeAgent({ state })), ["stopped", "starting…", "ready", "busy", "error"]);
  assert.deepEqual(STATES.map(agentStateLabel), ["stopped", "starting…", "ready", "busy", "error"]);
  assert.equal(describeAgent({ state: "busy", pending: "restart" }), "busy · restarts after its turn (definition changed)");
  assert.equal(describeAgent({ state: "busy", pending: "remove" }), "busy · removed, stops after this turn");
  assert.equal(describeAgent({ state: "error", error: { message: 'Agent "x" exited with code 3.' } }), 'error: Agent "x" exited with code 3.');

  l10n.config({ contents: readFileSync(path.join(root, "l10n/bundle.l10n.fr.json"), "utf8") });
  assert.deepEqual(STATES.map((state) => describeAgent({ state })), ["arrêté", "démarrage…", "prêt", "occupé", "erreur"]);
  assert.equal(describeAgent({ state: "busy", pending: "restart" }), "occupé · redémarre après son tour (définition modifiée)");
});
