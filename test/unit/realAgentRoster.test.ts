/**
 * `npm start -- --real-agents` (issue 15): the roster entries of the real agents against the scripted model server
 * (scripts/realAgentRoster.mjs, shared with the real-agent tests and the real-editor suite), the workspace it writes,
 * the model server as a child process that never outlives npm start (scripts/modelServerChild.mjs), and the flag.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { startModelServerChild } from "../../scripts/modelServerChild.mjs";
import { REAL_AGENTS, modelUrlOf, realAgentEntry, writeRealAgentsWorkspace } from "../../scripts/realAgentRoster.mjs";
import { parseStartArgs } from "../../scripts/startArgs.mjs";
import { parseRoster } from "../../src/config/roster";
import { tempDir, waitFor } from "./helpers";

const ENTRIES = { claude: "/opt/agents/claude/index.js", codex: "/opt/agents/codex/index.js", gemini: "/opt/agents/gemini with space/gemini.js" };
const NODE = "/opt/node 24/bin/node";

test("each real agent's entry keeps its state in its own folders and points at the model server; nothing of the user's own accounts", () => {
  const { dir, cleanup } = tempDir();
  try {
    const url = "http://127.0.0.1:4321";
    const claude = realAgentEntry("claude", { dir, modelUrl: url, node: NODE, entry: ENTRIES.claude });
    assert.deepEqual([claude.name, claude.command, claude.args], ["claude", NODE, [ENTRIES.claude]]);
    assert.equal(claude.env.HOME, path.join(dir, "claude-home"));
    assert.equal(claude.env.CLAUDE_CONFIG_DIR, path.join(dir, "claude-home", ".claude"));
    assert.equal(claude.env.ANTHROPIC_BASE_URL, url);
    // The editor's environment is merged under a roster's env: variables that would reach a real account are blanked.
    assert.equal(claude.env.ANTHROPIC_AUTH_TOKEN, "");
    assert.equal(claude.env.CLAUDE_CODE_USE_BEDROCK, "");

    const codex = realAgentEntry("codex", { dir, modelUrl: url, node: NODE, entry: ENTRIES.codex, name: "cx" });
    assert.equal(codex.name, "cx");
    assert.equal(codex.env.CODEX_HOME, path.join(dir, "codex-config"));
    assert.equal(codex.env.OPENAI_API_KEY, "");
    const toml = readFileSync(path.join(dir, "codex-config", "config.toml"), "utf8");
    assert.match(toml, /^model_provider = "scripted"$/m);
    assert.match(toml, /^base_url = "http:\/\/127\.0\.0\.1:4321\/v1"$/m);
    assert.match(toml, /^wire_api = "responses"$/m);

    const gemini = realAgentEntry("gemini", { dir, modelUrl: url, node: NODE, entry: ENTRIES.gemini });
    assert.deepEqual(gemini.args, [ENTRIES.gemini, "--experimental-acp"]);
    assert.equal(gemini.env.GOOGLE_GEMINI_BASE_URL, url);
    assert.equal(gemini.env.GOOGLE_GENAI_USE_VERTEXAI, "");
    for (const agent of REAL_AGENTS) assert.ok(existsSync(path.join(dir, `${agent}-home`)) && existsSync(path.join(dir, `${agent}-tmp`)), `${agent}'s folders`);
    assert.throws(() => realAgentEntry("opencode" as never, { dir, modelUrl: url, node: NODE, entry: "x" }), /unknown real agent "opencode"/);
  } finally {
    cleanup();
  }
});

test("the real-agents workspace: a roster Sidekicks reads as the same three entries, headed by the script keywords to try, and notes.txt", async () => {
  const { dir, cleanup } = tempDir();
  try {
    const folder = path.join(dir, "real-agents");
    const stateDir = path.join(dir, "real-agents-home");
    const url = "http://127.0.0.1:4321";
    const first = writeRealAgentsWorkspace({ folder, stateDir, modelUrl: url, node: NODE, entries: ENTRIES });
    assert.deepEqual(first, { written: ["sidekicks.yaml", "notes.txt"], kept: [], keptUrl: undefined });
    const yaml = readFileSync(path.join(folder, "sidekicks.yaml"), "utf8");
    const { roster, problems } = parseRoster(yaml, path.join(folder, "sidekicks.yaml"));
    assert.deepEqual(problems, []);
    const expected = REAL_AGENTS.map((agent) => realAgentEntry(agent, { dir: stateDir, modelUrl: url, node: NODE, entry: ENTRIES[agent] }));
    assert.deepEqual(roster!.agents.map((a) => ({ name: a.name, command: a.command, args: a.args, env: a.env })), expected);
    assert.equal(readFileSync(path.join(folder, "notes.txt"), "utf8"), "alpha\n");

    // The comment block names keywords the scripted server knows, and where the agents' state is.
    const header = yaml.slice(0, yaml.indexOf("agents:"));
    assert.ok(header.split("\n").filter(Boolean).every((line) => line.startsWith("#")), "only comments before agents:");
    const { scripts } = (await import(path.resolve(__dirname, "../fixtures/model-scripts.mjs"))) as { scripts: Record<string, unknown> };
    const named = [...header.matchAll(/script:([a-z0-9]+)/g)].map((m) => m[1]!);
    assert.deepEqual([...new Set(named)].sort(), ["delegate", "fail", "long", "permission", "plan", "planmode", "slow", "text", "tools"]);
    for (const name of named) assert.ok(name in scripts, `script:${name} is a script of the model server`);
    assert.ok(header.includes(stateDir), "the header says where the agents' HOMEs are");
    assert.equal(modelUrlOf(yaml), url);
  } finally {
    cleanup();
  }
});

test("npm start again: an untouched roster follows the model server's new port; one its user edited is kept and the stale port named", () => {
  const { dir, cleanup } = tempDir();
  try {
    const folder = path.join(dir, "real-agents");
    const write = (url: string) => writeRealAgentsWorkspace({ folder, stateDir: path.join(dir, "home"), modelUrl: url, node: NODE, entries: ENTRIES });
    write("http://127.0.0.1:4321");
    const yamlFile = path.join(folder, "sidekicks.yaml");
    assert.deepEqual(write("http://127.0.0.1:4321"), { written: [], kept: [], keptUrl: undefined }, "nothing to do on the same port");
    assert.deepEqual(write("http://127.0.0.1:5555").written, ["sidekicks.yaml"]);
    assert.equal(modelUrlOf(readFileSync(yamlFile, "utf8")), "http://127.0.0.1:5555");
    assert.doesNotMatch(readFileSync(yamlFile, "utf8"), /4321/);

    // script:tools made notes.txt "beta": written back to alpha. A note of the user's own is kept.
    writeFileSync(path.join(folder, "notes.txt"), "beta\n");
    assert.deepEqual(write("http://127.0.0.1:5555").written, ["notes.txt"]);
    assert.equal(readFileSync(path.join(folder, "notes.txt"), "utf8"), "alpha\n");
    writeFileSync(path.join(folder, "notes.txt"), "my own notes\n");

    const edited = `${readFileSync(yamlFile, "utf8")}limits:\n  maxRunningAgents: 2\n`;
    writeFileSync(yamlFile, edited);
    assert.deepEqual(write("http://127.0.0.1:5555"), { written: [], kept: ["sidekicks.yaml"], keptUrl: undefined });
    assert.deepEqual(write("http://127.0.0.1:6000"), { written: [], kept: ["sidekicks.yaml"], keptUrl: "http://127.0.0.1:5555" });
    assert.equal(readFileSync(yamlFile, "utf8"), edited, "the user's roster is never overwritten");
    assert.equal(readFileSync(path.join(folder, "notes.txt"), "utf8"), "my own notes\n");
  } finally {
    cleanup();
  }
});

test("npm start -- --real-agents (or npm start --real-agents, which npm passes as npm_config_real_agents)", () => {
  assert.deepEqual(parseStartArgs(["--real-agents"]), { realAgents: true });
  assert.deepEqual(parseStartArgs(["--real-agents", "--port", "9000"]), { port: 9000, portFrom: "--port", realAgents: true });
  assert.deepEqual(parseStartArgs([], { npm_config_real_agents: "true" }), { realAgents: true });
  assert.deepEqual(parseStartArgs(["--real-agents", "--help"]), { help: true });
  assert.deepEqual(parseStartArgs(["--real-agent"]), { error: 'Unknown argument "--real-agent".' });
});

/** Whether process `pid` is alive (signal 0), and not a zombie. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

test("the model server child answers the agents' API, stops with stop(), and ends when its parent dies, even by SIGKILL", async () => {
  const server = await startModelServerChild();
  const response = await fetch(`${server.url}/v1/messages/count_tokens`, { method: "POST", body: JSON.stringify({ messages: [] }) });
  assert.equal(response.status, 200);
  const pid = server.child.pid!;
  await server.stop();
  assert.equal(alive(pid), false, "stopped");

  // A parent (as npm start) that starts the child and is then killed without a chance to stop it.
  const modulePath = path.resolve(__dirname, "../../scripts/modelServerChild.mjs");
  const parent = spawn(process.execPath, ["--input-type=module", "-e", `const { startModelServerChild } = await import(${JSON.stringify(modulePath)}); const s = await startModelServerChild(); console.log(JSON.stringify({ pid: s.child.pid, url: s.url })); setInterval(() => {}, 1000);`], { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  parent.stdout.on("data", (chunk) => (out += chunk));
  const child = await waitFor(() => (out.includes("\n") ? (JSON.parse(out.split("\n")[0]!) as { pid: number; url: string }) : undefined), 30_000, "the parent's report");
  assert.equal((await fetch(`${child.url}/v1/messages/count_tokens`, { method: "POST", body: "{}" })).status, 200);
  parent.kill("SIGKILL");
  await waitFor(() => (alive(child.pid) ? undefined : true), 15_000, "the child to end after its parent was killed");
});
