/**
 * A session's settings as the header shows them (src/agents/sessionState.ts). claude-agent-acp offers its permission
 * mode twice: as ACP `modes` and as a config option of category `mode` (field case 26). ACP: "If an Agent provides
 * configOptions, Clients SHOULD use them instead of the modes field": one control, the config option, kept in step
 * with `current_mode_update` too.
 */
import assert from "node:assert/strict";
import test from "node:test";
import type { ConfigOptionInfo, SessionSetup } from "../../src/acp/types";
import { applySessionUpdate, asSessionState, openedState } from "../../src/agents/sessionState";

/** What claude-agent-acp 0.101.0 answers `session/new` with (session-mode.js: `configOption(modes)`). */
const MODES = {
  currentModeId: "auto",
  availableModes: [
    { id: "default", name: "Manual" },
    { id: "acceptEdits", name: "Accept edits" },
    { id: "plan", name: "Plan" },
    { id: "auto", name: "Auto" },
  ],
};
const MODE_OPTION: ConfigOptionInfo = {
  type: "select",
  id: "mode",
  name: "Mode",
  category: "mode",
  currentValue: "auto",
  options: MODES.availableModes.map((m) => ({ value: m.id, name: m.name })),
};
const MODEL_OPTION: ConfigOptionInfo = { type: "select", id: "model", name: "Model", category: "model", currentValue: "sonnet", options: [{ value: "sonnet", name: "Sonnet" }] };
const CLAUDE: SessionSetup = { modes: MODES, configOptions: [MODE_OPTION, MODEL_OPTION] };

const modeValue = (s: ReturnType<typeof openedState>) => s.configOptions?.find((o) => o.id === "mode")?.currentValue;

test("modes and a config option of category mode for the same setting: one control, the config option", () => {
  const state = openedState(undefined, "C1", "claude", CLAUDE, false);
  assert.equal(state.modes, undefined);
  assert.deepEqual(state.configOptions?.map((o) => o.id), ["mode", "model"]);
});

test("an agent with modes and other options only (the demo: Ask/Code and Effort) keeps its modes", () => {
  const effort: ConfigOptionInfo = { type: "select", id: "effort", name: "Effort", category: "thought_level", currentValue: "medium", options: [{ value: "medium", name: "Medium" }] };
  const state = openedState(undefined, "C1", "demo", { modes: MODES, configOptions: [effort] }, false);
  assert.equal(state.modes?.currentModeId, "auto");
});

test("current_mode_update moves the mode config option when the modes were set aside; config_option_update drops them", () => {
  let state = openedState(undefined, "C1", "claude", CLAUDE, false);
  state = applySessionUpdate(state, { kind: "mode", currentModeId: "default" });
  assert.equal(modeValue(state), "default");
  assert.equal(applySessionUpdate(state, { kind: "mode", currentModeId: "nonsense" }), state, "a mode the option does not offer changes nothing");
  // An agent that first sent only modes, then a config option for the mode: one control from then on.
  let demo = openedState(undefined, "C1", "x", { modes: MODES }, false);
  assert.ok(demo.modes);
  demo = applySessionUpdate(demo, { kind: "configOptions", configOptions: [MODE_OPTION] });
  assert.equal(demo.modes, undefined);
});

test("a state stored with both (by an older version) is read back with one control", () => {
  const stored = { channelId: "C1", agent: "claude", live: true, modes: MODES, configOptions: [MODE_OPTION] };
  const state = asSessionState(JSON.parse(JSON.stringify(stored)))!;
  assert.equal(state.modes, undefined);
  assert.equal(modeValue(state), "auto");
});

test("a session title made from Sidekicks' own preamble (the channel context, a retry note) is not shown; the user's subject is", async () => {
  const { startsWithPreamble } = await import("../../src/shared/preamble");
  let state = openedState(undefined, "C1", "claude", CLAUDE, false);
  state = applySessionUpdate(state, { kind: "sessionInfo", title: "Fix the flaky date test" });
  // Claude Code's fallback title is the raw first prompt, whitespace collapsed and cut at 256 characters.
  const raw = "[Messages in this channel since you last answered, oldest first]\n\nuser:\n@codex look\n\n@codex:\nDone.";
  for (const title of [raw.replace(/\s+/g, " "), "[Messages in this channel since you last…", "  [Sidekicks: this is attempt 2 of this request. Attempt 1 ended", "[Your session was restarted. The messages"]) {
    assert.equal(startsWithPreamble(title), true, title);
    assert.equal(applySessionUpdate(state, { kind: "sessionInfo", title }).title, "Fix the flaky date test", title);
  }
  for (const title of ["[Messages]", "Messages in this channel", "[WIP] billing page", "Fix the flaky date test"]) assert.equal(startsWithPreamble(title), false, title);
});

test("choices to restore: only settings the user chose, only values the session offers; a mode crosses between modes and the mode option", async () => {
  const { choicesToRestore, recordChoice } = await import("../../src/agents/sessionChoices");
  const claude = openedState(undefined, "C1", "claude", CLAUDE, false);
  assert.deepEqual(choicesToRestore(claude), [], "nothing chosen, nothing changed");
  // Chosen through modes (an older agent version), now offered as the mode option.
  assert.deepEqual(choicesToRestore({ ...claude, chosen: { mode: "default" } }), [{ kind: "config", configId: "mode", value: "default" }]);
  assert.deepEqual(choicesToRestore({ ...claude, chosen: recordChoice(undefined, { kind: "config", configId: "mode", value: "plan" }) }), [{ kind: "config", configId: "mode", value: "plan" }]);
  assert.deepEqual(choicesToRestore({ ...claude, chosen: { mode: "auto" } }), [], "already in force");
  assert.deepEqual(choicesToRestore({ ...claude, chosen: { mode: "yolo", config: { model: "opus", gone: "x" } } }), [], "values the session does not offer are left alone");
  const codex = openedState(undefined, "C1", "codex", { modes: { currentModeId: "agent", availableModes: [{ id: "read-only", name: "Read-only" }, { id: "agent", name: "Auto review" }] } }, true);
  assert.deepEqual(choicesToRestore({ ...codex, chosen: { mode: "read-only" } }), [{ kind: "mode", modeId: "read-only" }]);
  assert.deepEqual(choicesToRestore({ ...codex, chosen: { config: { mode: "read-only" } } }), [], "a config choice for an option the session does not have");
});

test("a Retry tells the agent that a permission request the earlier attempt left unanswered was never allowed, and to ask again", async () => {
  const { describeEarlierAttempt } = await import("../../src/turns/answer");
  const message = {
    version: 1 as const, id: "M", channelId: "C", author: { kind: "agent" as const, agentName: "codex" }, createdAt: 1,
    parts: [
      { type: "toolCall" as const, toolCallId: "t1", title: "Edit notes.md", kind: "edit", status: "pending" as const, outcomeUnknown: true },
      { type: "permission" as const, requestId: "r1", toolCallId: "t1", title: "Edit notes.md", outcome: "cancelled", options: [{ optionId: "ok", name: "Yes, proceed", kind: "allow_once" as const }] },
      { type: "permission" as const, requestId: "r2", toolCallId: "t2", title: "Read a.ts", outcome: "ok", options: [{ optionId: "ok", name: "Yes, proceed", kind: "allow_once" as const }] },
    ],
  };
  const note = describeEarlierAttempt(message, 2);
  assert.match(note, /permission "Edit notes\.md": never answered, so not allowed: ask again before doing it/);
  assert.match(note, /permission "Read a\.ts": answered "Yes, proceed"/);
});
