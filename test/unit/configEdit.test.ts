import { test } from "node:test";
import assert from "node:assert/strict";
import { parseRoster } from "../../src/config/roster";
import { addAgent, editRoster, removeAgent, setAgentField } from "../../src/config/rosterEdit";
import { CONFIG_TEMPLATE } from "../../src/config/template";
import { SidekicksError } from "../../src/shared/errors";

const FILE = "/project/sidekicks.yaml";

/** Line diff (longest common subsequence): the original's lines that went, the new text's lines that came. */
function lineDiff(before: string, after: string): { removed: string[]; added: string[] } {
  const a = before.split("\n");
  const b = after.split("\n");
  const lcs = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) for (let j = b.length - 1; j >= 0; j--) lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const removed: string[] = [];
  const added: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      i++;
      j++;
    } else if (j < b.length && (i === a.length || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) {
      added.push(b[j++]!);
    } else {
      removed.push(a[i++]!);
    }
  }
  return { removed, added };
}

const roster = (text: string) => {
  const { roster: r, problems } = parseRoster(text, FILE);
  assert.deepEqual(problems, [], "the edited file must stay valid");
  return r!;
};

const FIELD_CASE_14 = `# Agent definitions
defaults: &defaults
  env:
    LOG: info   # inline note
agents:
  - name: claude
    <<: *defaults
    command: npx
    args: ["@zed-industries/claude-code-acp"]

# - name: gemini          # disabled
#   command: gemini
`;

test("field case 14: set agents[0].command = claude-code-acp changes exactly one line; comments, &defaults, *defaults, <<: survive", () => {
  const after = setAgentField(FIELD_CASE_14, "claude", "command", "claude-code-acp");
  assert.deepEqual(lineDiff(FIELD_CASE_14, after), { removed: ["    command: npx"], added: ["    command: claude-code-acp"] });
  assert.equal(after, FIELD_CASE_14.replace("command: npx", "command: claude-code-acp"));
  const agent = roster(after).agents[0]!;
  assert.deepEqual([agent.command, agent.env], ["claude-code-acp", { LOG: "info" }], "validation sees the merged env");
});

const SHARED = `defaults: &defaults
  permissions: allow-all   # both agents
  env:
    LOG: info
    REGION: eu
agents:
  - name: a
    <<: *defaults
    command: x
  - name: b
    <<: *defaults
    command: y
`;

test("a key that comes from <<: *defaults is set on the agent's own map; the shared anchor is not touched", () => {
  const after = setAgentField(SHARED, "a", "env", { LOG: "debug", REGION: "eu" });
  assert.deepEqual(lineDiff(SHARED, after), { removed: [], added: ["    env:", "      LOG: debug", "      REGION: eu"] });
  const r = roster(after);
  assert.deepEqual(r.agents[0]!.env, { LOG: "debug", REGION: "eu" });
  assert.deepEqual(r.agents[1]!.env, { LOG: "info", REGION: "eu" }, "the other agent still merges the anchor");
});

test("setting one variable inside a merged env copies the merged map into the agent, changed, and keeps the rest", () => {
  const after = editRoster(SHARED, [{ op: "set", path: ["agents", 1, "env", "LOG"], value: "trace" }]);
  assert.deepEqual(lineDiff(SHARED, after), { removed: [], added: ["    env:", "      LOG: trace", "      REGION: eu"] });
  assert.deepEqual(roster(after).agents.map((a) => a.env.LOG), ["info", "trace"]);
});

test("a merged scalar (permissions) is overridden in the agent's own map, one added line", () => {
  const after = setAgentField(SHARED, "b", "permissions", "ask");
  assert.deepEqual(lineDiff(SHARED, after), { removed: [], added: ["    permissions: ask"] });
  assert.deepEqual(roster(after).agents.map((a) => a.permissions), ["allow-all", "ask"]);
});

test("removing a key that only comes from a merge key is refused with the reason", () => {
  assert.throws(
    () => setAgentField(SHARED, "a", "permissions", undefined),
    (err: unknown) => err instanceof SidekicksError && err.code === "config/invalid" && err.message === "agents[0].permissions comes from a merge key (<<:); change the anchor it is merged from instead.",
  );
});

test("an alias value (env: *shared) is replaced by an edited copy; the anchor stays", () => {
  const text = "shared: &shared\n  A: '1'\nagents:\n  - name: a\n    command: x\n    env: *shared\n";
  const after = editRoster(text, [{ op: "set", path: ["agents", 0, "env", "B"], value: "2" }]);
  assert.deepEqual(lineDiff(text, after), { removed: ["    env: *shared"], added: ["    env:", '      A: "1"', '      B: "2"'] });
});

const TEAM = `# Team roster.
version: 1

agents:
  # The reviewer.
  - name: claude
    title: "Claude Code"        # shown in the view
    command: "npx"
    args: ["-y", "@agentclientprotocol/claude-agent-acp"]

  # The builder.
  - name: codex
    command: npx
    args:
      - -y
      - "@agentclientprotocol/codex-acp"
    env:
      OPENAI_API_KEY: \${env:OPENAI_API_KEY}

# Later:
# - name: gemini
`;

const roundTrips: { what: string; edit: (t: string) => string; removed: string[]; added: string[]; check?: (t: string) => void }[] = [
  { what: "a quoted scalar keeps its quotes and its comment", edit: (t) => setAgentField(t, "claude", "title", "Claude"), removed: ['    title: "Claude Code"        # shown in the view'], added: ['    title: "Claude"        # shown in the view'] },
  { what: "a quoted command keeps its quotes", edit: (t) => setAgentField(t, "claude", "command", "claude-agent-acp"), removed: ['    command: "npx"'], added: ['    command: "claude-agent-acp"'] },
  { what: "a flow list stays one line", edit: (t) => setAgentField(t, "claude", "args", ["--acp"]), removed: ['    args: ["-y", "@agentclientprotocol/claude-agent-acp"]'], added: ['    args: ["--acp"]'] },
  {
    what: "a block list is rewritten in place, at its own indentation",
    edit: (t) => setAgentField(t, "codex", "args", ["-y", "@agentclientprotocol/codex-acp@1.2.0"]),
    removed: ['      - "@agentclientprotocol/codex-acp"'],
    added: ['      - "@agentclientprotocol/codex-acp@1.2.0"'],
    check: (t) => assert.deepEqual(roster(t).agents[1]!.args, ["-y", "@agentclientprotocol/codex-acp@1.2.0"]),
  },
  { what: "a new key goes after the agent's last key", edit: (t) => setAgentField(t, "codex", "permissions", "allow-reads"), removed: [], added: ["    permissions: allow-reads"] },
  { what: "a new key after a flow list", edit: (t) => setAgentField(t, "claude", "description", "Reviews diffs"), removed: [], added: ["    description: Reviews diffs"] },
  { what: "a value that needs quotes gets them", edit: (t) => setAgentField(t, "codex", "title", "@codex: the builder"), removed: [], added: ['    title: "@codex: the builder"'] },
  { what: "removing a key removes its line with its comment", edit: (t) => setAgentField(t, "claude", "title", undefined), removed: ['    title: "Claude Code"        # shown in the view'], added: [] },
  { what: "removing a map removes all its lines", edit: (t) => setAgentField(t, "codex", "env", undefined), removed: ["    env:", "      OPENAI_API_KEY: ${env:OPENAI_API_KEY}"], added: [] },
  { what: "one variable of an env map", edit: (t) => editRoster(t, [{ op: "set", path: ["agents", 1, "env", "CODEX_HOME"], value: "${workspaceFolder}/.codex" }]), removed: [], added: ["      CODEX_HOME: ${workspaceFolder}/.codex"] },
  {
    what: "an added agent goes after the last one, before the trailing comments",
    edit: (t) => addAgent(t, { name: "gemini", command: "gemini", args: ["--acp"] }),
    removed: [],
    added: ["  - name: gemini", "    command: gemini", '    args: ["--acp"]'],
    check: (t) => assert.deepEqual(roster(t).agents.map((a) => a.name), ["claude", "codex", "gemini"]),
  },
  {
    what: "a removed agent takes its lines only",
    edit: (t) => removeAgent(t, "CLAUDE"),
    removed: ["  - name: claude", '    title: "Claude Code"        # shown in the view', '    command: "npx"', '    args: ["-y", "@agentclientprotocol/claude-agent-acp"]'],
    added: [],
    check: (t) => assert.deepEqual(roster(t).agents.map((a) => a.name), ["codex"]),
  },
  {
    what: "a new top-level map",
    edit: (t) => editRoster(t, [{ op: "set", path: ["limits", "maxRunningAgents"], value: 2 }]),
    removed: [],
    added: ["limits:", "  maxRunningAgents: 2", ""],
    check: (t) => assert.equal(roster(t).limits.maxRunningAgents, 2),
  },
  {
    what: "a channel appended to a new list",
    edit: (t) => editRoster(t, [{ op: "append", path: ["channels"], value: { name: "review", members: ["claude", "codex"] } }]),
    removed: [],
    added: ["channels:", "  - name: review", '    members: ["claude", "codex"]', ""],
    check: (t) => assert.deepEqual(roster(t).channels, [{ name: "review", members: ["claude", "codex"] }]),
  },
  {
    what: "several edits in one go",
    edit: (t) => editRoster(t, [
      { op: "set", path: ["agents", 0, "command"], value: "claude-agent-acp" },
      { op: "set", path: ["agents", 0, "args"], value: [] },
      { op: "set", path: ["version"], value: 1 },
    ]),
    removed: ['    command: "npx"', '    args: ["-y", "@agentclientprotocol/claude-agent-acp"]'],
    added: ['    command: "claude-agent-acp"', "    args: []"],
  },
];

for (const r of roundTrips) {
  test(`save round-trip: ${r.what}; nothing else differs`, () => {
    const after = r.edit(TEAM);
    assert.deepEqual(lineDiff(TEAM, after), { removed: r.removed, added: r.added });
    roster(after);
    r.check?.(after);
  });
}

test("adding an agent to the Create config template keeps its comments and examples", () => {
  const after = addAgent(CONFIG_TEMPLATE, { name: "mine", command: "my-agent", args: ["--acp", "--model", "big one"] });
  assert.deepEqual(lineDiff(CONFIG_TEMPLATE, after), { removed: [], added: ["  - name: mine", "    command: my-agent", '    args: ["--acp", "--model", "big one"]'] });
  assert.deepEqual(roster(after).agents.map((a) => [a.name, a.args]), [["demo", []], ["mine", ["--acp", "--model", "big one"]]]);
  assert.ok(after.indexOf("name: mine") < after.indexOf("# Claude Code"), "the new agent comes right after the demo agent");
});

test("adding to an empty agents list writes a block list in place of []", () => {
  const text = "version: 1  # format\nagents: []\n";
  const after = addAgent(text, { name: "a", command: "x" });
  assert.equal(after, "version: 1  # format\nagents:\n  - name: a\n    command: x\n");
});

test("flow maps and lists written inline stay inline: only their own line changes", () => {
  const text = "agents:\n  - name: a\n    command: x\n    env: {A: \"1\"}   # inline\n  - {name: b, command: y}\n";
  assert.deepEqual(lineDiff(text, editRoster(text, [{ op: "set", path: ["agents", 0, "env", "B"], value: "2" }])), { removed: ['    env: {A: "1"}   # inline'], added: ['    env: {A: "1", B: "2"}   # inline'] });
  assert.deepEqual(lineDiff(text, editRoster(text, [{ op: "delete", path: ["agents", 0, "env", "A"] }])), { removed: ['    env: {A: "1"}   # inline'], added: ["    env: {}   # inline"] });
  assert.deepEqual(lineDiff(text, setAgentField(text, "b", "title", "Bee")), { removed: ["  - {name: b, command: y}"], added: ["  - {name: b, command: y, title: Bee}"] });
});

test("removing the first key of a list item keeps the dash on the next key", () => {
  const text = "agents:\n  - name: a\n    command: x\n    title: A\n";
  assert.equal(editRoster(text, [{ op: "delete", path: ["agents", 0, "name"] }]), "agents:\n  - command: x\n    title: A\n");
});

test("a shape the in-place writer does not handle goes through the Document API and still keeps the comments", () => {
  const after = addAgent("# Roster, to be filled in.\n", { name: "a", command: "x" });
  assert.equal(after, "# Roster, to be filled in.\n\nagents:\n  - name: a\n    command: x\n");
  roster(after);
});

test("Windows line endings are kept", () => {
  const text = "agents:\r\n  - name: a\r\n    command: x\r\n";
  assert.equal(setAgentField(text, "a", "title", "A"), "agents:\r\n  - name: a\r\n    command: x\r\n    title: A\r\n");
  assert.equal(setAgentField(text, "a", "command", "y"), "agents:\r\n  - name: a\r\n    command: y\r\n");
});

test("an edit that changes nothing returns the text as it was", () => {
  assert.equal(setAgentField(TEAM, "codex", "command", "npx"), TEAM);
  assert.equal(setAgentField(TEAM, "codex", "title", undefined), TEAM);
});

test("edits refuse a file with YAML syntax errors and an unknown agent, with the reason", () => {
  assert.throws(() => setAgentField("agents: [\n", "a", "command", "x"), (e: unknown) => e instanceof SidekicksError && e.code === "config/invalid" && /YAML syntax errors/.test(e.message));
  assert.throws(() => setAgentField(TEAM, "gemini", "command", "x"), (e: unknown) => e instanceof SidekicksError && e.message === 'There is no agent named "gemini" in the roster.');
});
