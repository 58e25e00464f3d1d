import { test } from "node:test";
import assert from "node:assert/strict";
import { formatProblem, parseRoster } from "../../src/config/roster";
import { CONFIG_TEMPLATE } from "../../src/config/template";
import { resolveLaunch } from "../../src/agents/launch";

const FILE = "/work/project/sidekicks.yaml";
const problems = (text: string) => parseRoster(text, FILE).problems.map(formatProblem);

test("the Create config template is a valid roster with the demo agent, and names its prompts (edit a file, delegate)", () => {
  const { roster, problems: found } = parseRoster(CONFIG_TEMPLATE, FILE);
  assert.deepEqual(found, []);
  assert.deepEqual(roster?.agents.map((a) => [a.name, a.command]), [["demo", "sidekicks:demo"]]);
  assert.match(CONFIG_TEMPLATE, /"@demo edit a file"/);
  assert.match(CONFIG_TEMPLATE, /"@demo delegate to odie"/);
});

test("the template's commented examples (limits, a second demo agent, three real agents, a channel) are valid once uncommented", () => {
  // Commented YAML starts with a lowercase key or "- " after "# "; prose starts with a capital letter.
  const uncommented = CONFIG_TEMPLATE.replace(/^(\s*)# ((?:[a-z][A-Za-z]*:|- |  ).*)$/gm, "$1$2");
  assert.notEqual(uncommented, CONFIG_TEMPLATE);
  const { roster, problems: found } = parseRoster(uncommented, FILE);
  assert.deepEqual(found.map(formatProblem), []);
  assert.deepEqual(roster?.agents.map((a) => a.name), ["demo", "odie", "claude", "codex", "gemini"]);
  assert.deepEqual(roster?.limits, { maxRunningAgents: 4, idleTimeoutMs: 600_000, requestTimeoutMs: 60_000, cancelTimeoutMs: 10_000 });
  assert.deepEqual(roster?.channels, [{ name: "review", description: "Two reviewers and a referee", members: ["claude", "codex", "gemini"], moderator: "gemini" }]);
});

test("the template as written has the documented defaults: version 1, 4 agents at once, 10 minutes idle, #general first", () => {
  const { roster } = parseRoster(CONFIG_TEMPLATE, FILE);
  assert.equal(roster?.version, 1);
  assert.deepEqual(roster?.limits, { maxRunningAgents: 4, idleTimeoutMs: 600_000, requestTimeoutMs: 60_000, cancelTimeoutMs: 10_000 });
  assert.deepEqual(roster?.channels, []);
  assert.deepEqual(roster?.ui, { defaultChannel: "general" });
  assert.deepEqual(roster?.agents[0], {
    name: "demo",
    command: "sidekicks:demo",
    args: [],
    env: {},
    title: "demo",
    icon: { kind: "codicon", name: "hubot" },
    runtime: { type: "local" },
    permissions: "ask",
    mcpServers: [],
    sidekicksTools: true,
    skills: [],
  });
});

test("problems carry an end position covering the offending key or value", () => {
  const [problem] = parseRoster("agents:\n  - name: demo\n    command: sidekicks:demo\n    permissions: sometimes\n", FILE).problems;
  assert.deepEqual([problem?.line, problem?.column, problem?.endLine, problem?.endColumn], [4, 18, 4, 27]);
  const [unknown] = parseRoster("agents:\n  - name: demo\n    command: x\n    colour: red\n", FILE).problems;
  assert.deepEqual([unknown?.line, unknown?.column, unknown?.endLine, unknown?.endColumn], [4, 5, 4, 11]);
});

const invalid: [string, string, string[]][] = [
  ["a misspelt key, with the nearest valid key", "agents:\n  - name: demo\n    comand: x\n", [
    `${FILE}:2:5: agents[0]: missing required key "command"`,
    `${FILE}:3:5: agents[0]: unknown key "comand" (did you mean "command"?)`,
  ]],
  ["a wrong type, at the value", "agents:\n  - name: demo\n    command: 3\n", [`${FILE}:3:14: agents[0].command: must be a string, not a number`]],
  ["a name that cannot be mentioned", "agents:\n  - name: 9lives\n    command: x\n", [
    `${FILE}:2:11: agents[0].name: "9lives" is not a valid name: start with a letter, then letters, digits, "-" or "_", end with a letter or digit (at most 32)`,
  ]],
  ["duplicate names (case-insensitive), at the second", "agents:\n  - name: a\n    command: x\n  - name: A\n    command: y\n", [
    `${FILE}:4:11: agents[1].name: "A" is already the name of agents[0]; names must be unique (ignoring case)`,
  ]],
  // Where the bracket opened, not where the parser gave up (the end of the file): a tryout found the raw words there.
  ["broken YAML syntax", "agents: [\n", [`${FILE}:1:9: YAML syntax: this "[" is never closed: end it with "]", or write the items on lines of their own`]],
  ["an unclosed map, a [ in a string and a comment not counted", 'agents: {name: "a[" # {\n', [`${FILE}:1:9: YAML syntax: this "{" is never closed: end it with "}", or write the items on lines of their own`]],
  // Where the quote opened, not the end of the file where the parser gave up (a tryout saw column 1 of the last line).
  ["an unclosed double quote", 'agents:\n  - name: a\n    command: "x\n    args: []\n', [`${FILE}:3:14: YAML syntax: this " is never closed: end the string with " on the same line, or write the value without quotes`]],
  ["an unclosed single quote", "agents:\n  - name: 'a\n", [`${FILE}:2:11: YAML syntax: this ' is never closed: end the string with ' on the same line, or write the value without quotes`]],
  ["an unknown top-level key", "agent:\n  - name: a\n", [
    `${FILE}:1:1: (top level): missing required key "agents"`,
    `${FILE}:1:1: (top level): unknown key "agent" (did you mean "agents"?)`,
  ]],
  ["args that are not a list", "agents:\n  - name: a\n    command: x\n    args: --acp\n", [`${FILE}:4:11: agents[0].args: must be a list, not a string`]],
  ["a wrong version", "version: 2\nagents: []\n", [`${FILE}:1:10: version: must be 1`]],
];

for (const [what, text, expected] of invalid) {
  test(`invalid roster: ${what}`, () => assert.deepEqual(problems(text), expected));
}

test("merge keys and anchors are understood (field case 14's shape)", () => {
  assert.deepEqual(problems("defaults: &d\n  command: npx\n"), [`${FILE}:1:1: (top level): missing required key "agents"`]);
  const ok = parseRoster("agents:\n  - &base\n    name: a\n    command: npx\n  - <<: *base\n    name: b\n", FILE);
  assert.deepEqual(ok.roster?.agents.map((a) => [a.name, a.command]), [["a", "npx"], ["b", "npx"]]);
});

test("workspace resolves against the file's folder; ${env:…} and ${workspaceFolder} are substituted", () => {
  const { roster } = parseRoster("agents:\n  - name: a\n    command: ${workspaceFolder}/bin/agent\n    args: ['--key=${env:SK_TEST_KEY}']\n    env: { HOME_DIR: '${env:SK_MISSING}x' }\n    workspace: ../other\n", FILE);
  const agent = roster!.agents[0]!;
  assert.equal(agent.workspace, "/work/other");
  const launch = resolveLaunch(agent, { workspaceFolder: "/work/project", nodePath: "/node", demoAgentPath: "/d.js", env: { SK_TEST_KEY: "k1", PATH: "/bin" } });
  assert.equal(launch.command, "/work/project/bin/agent");
  assert.deepEqual(launch.args, ["--key=k1"]);
  assert.equal(launch.env.HOME_DIR, "x");
  assert.equal(launch.env.PATH, "/bin");
  assert.equal(launch.cwd, "/work/other");
});

test("sidekicks:demo runs the bundled demo agent with the editor's runtime as Node", () => {
  const launch = resolveLaunch({ name: "demo", command: "sidekicks:demo", args: [], env: {} }, { workspaceFolder: "/w", nodePath: "/vscode/electron", demoAgentPath: "/ext/dist/demo-agent.js", env: {} });
  assert.deepEqual([launch.command, launch.args, launch.env.ELECTRON_RUN_AS_NODE, launch.cwd], ["/vscode/electron", ["/ext/dist/demo-agent.js"], "1", "/w"]);
});

test("limits.requestTimeout and limits.cancelTimeout (issue 18): durations in ms, at most 24h, never 0", () => {
  const agents = "agents:\n  - name: demo\n    command: sidekicks:demo\n";
  const { roster } = parseRoster(`limits:\n  requestTimeout: 2m\n  cancelTimeout: 30s\n${agents}`, FILE);
  assert.equal(roster?.limits.requestTimeoutMs, 120_000);
  assert.equal(roster?.limits.cancelTimeoutMs, 30_000);
  assert.match(problems(`limits:\n  requestTimeout: 25h\n${agents}`).join("\n"), /limits\.requestTimeout: "25h" is longer than 24h/);
  assert.match(problems(`limits:\n  cancelTimeout: 25h\n${agents}`).join("\n"), /limits\.cancelTimeout: "25h" is longer than 24h/);
  assert.notDeepEqual(problems(`limits:\n  cancelTimeout: 0s\n${agents}`), [], "0s is not a duration: a Stop always ends");
});
