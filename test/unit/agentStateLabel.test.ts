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
import { agentStateLabel, agentStatusLabel, describeAgent } from "../../src/shared/stateLabel";
import type { AgentState, AgentWait } from "../../src/shared/protocol";

const root = path.resolve(import.meta.dirname, "../..");
const STATES: AgentState[] = ["stopped", "starting", "ready", "busy", "error"];
const WAITS: AgentWait[] = ["authenticate", "session/new", "session/load", "session/set_mode", "session/set_config_option", "session/set_model", "session/cancel"];

test("the Agents view describes each state with the header's word; a pending restart or removal and an error are added", () => {
  assert.deepEqual(STATES.map((state) => describeAgent({ state })), ["stopped", "starting…", "ready", "busy", "error"]);
  assert.deepEqual(STATES.map(agentStateLabel), ["stopped", "starting…", "ready", "busy", "error"]);
  assert.equal(describeAgent({ state: "busy", pending: "restart" }), "busy · restarts after its turn (definition changed)");
  assert.equal(describeAgent({ state: "busy", pending: "remove" }), "busy · removed, stops after this turn");
  assert.equal(describeAgent({ state: "error", error: { message: 'Agent "x" exited with code 3.' } }), 'error: Agent "x" exited with code 3.');

  // Issue 18: while Sidekicks waits for a running agent's answer, the state says what for, never "ready".
  const waiting = ["signing in…", "starting session…", "loading session…", "changing session settings…", "changing session settings…", "changing session settings…", "waiting for the agent to stop…"];
  assert.deepEqual(WAITS.map((w) => describeAgent({ state: "ready", waiting: w })), waiting);
  assert.deepEqual(WAITS.map((w) => agentStatusLabel("busy", w)), waiting);
  assert.equal(agentStatusLabel("stopped", "session/new"), "stopped", "a stopped agent waits for nothing");
  assert.equal(describeAgent({ state: "busy", waiting: "session/cancel", pending: "restart" }), "waiting for the agent to stop… · restarts after its turn (definition changed)");

  l10n.config({ contents: readFileSync(path.join(root, "l10n/bundle.l10n.fr.json"), "utf8") });
  assert.deepEqual(STATES.map((state) => describeAgent({ state })), ["arrêté", "démarrage…", "prêt", "occupé", "erreur"]);
  assert.deepEqual(WAITS.map((w) => agentStatusLabel("ready", w)), ["connexion…", "ouverture de session…", "chargement de session…", "réglage de la session…", "réglage de la session…", "réglage de la session…", "attente de l'arrêt de l'agent…"]);
  assert.equal(describeAgent({ state: "busy", pending: "restart" }), "occupé · redémarre après son tour (définition modifiée)");
});
