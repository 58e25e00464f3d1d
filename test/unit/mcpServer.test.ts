/**
 * Issue 22: the Sidekicks MCP server each agent session gets in `session/new`. The fake agent (a real subprocess)
 * reports the `mcpServers` it was given, or calls a tool with the MCP SDK's own client; the test talks to the server
 * with that client too. LevelDB in a temp folder holds the channel the channel tools read.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { AgentConfig } from "../../src/config/roster";
import type { SkillProblem } from "../../src/mcp/skills";
import { SKILLS_CHANGED_START, SKILLS_HEADER } from "../../src/shared/preamble";
import { channelSetup, fakeAgent, textOf } from "./channelHarness";
import { tempDir } from "./helpers";

type HttpServer = { type: "http"; name: string; url: string; headers: { name: string; value: string }[] };

/** A workspace with two skills: `release` (SKILL.md, a reference file, a symlink leading out) and a broken one. */
function skillsWorkspace() {
  const { dir, cleanup } = tempDir("sidekicks-skills-");
  const release = path.join(dir, "skills", "release");
  mkdirSync(path.join(release, "forms"), { recursive: true });
  writeFileSync(path.join(release, "SKILL.md"), "---\nname: release-notes\nversion: 1.2.0\ndescription: Writes release notes from the changelog\n---\n# Release notes\n\nRead CHANGELOG.md first.\n");
  writeFileSync(path.join(release, "forms", "template.md"), "## Added\n## Fixed\n");
  writeFileSync(path.join(dir, "secret.txt"), "not for agents\n");
  symlinkSync(path.join(dir, "secret.txt"), path.join(release, "leak.md"));
  mkdirSync(path.join(dir, "skills", "broken"), { recursive: true });
  writeFileSync(path.join(dir, "skills", "broken", "SKILL.md"), "no front matter here\n");
  return { dir, cleanup };
}

/** The agent `a` (MCP over HTTP) with `script`, and a roster stdio server of its own. */
function agentA(script: object, extra: Partial<AgentConfig> = {}): AgentConfig {
  return { ...fakeAgent("a", { mcpHttp: true, ...script }), mcpServers: [{ name: "files", command: "files-server", args: [], env: [] }], ...extra };
}

/** Sends `text` to `a` in #general and returns its settled answer. */
async function ask(s: Awaited<ReturnType<typeof channelSetup>>, text: string) {
  const { messageId } = await s.channels.messages.send(s.general.id, text);
  return s.finished((m) => m.author.agentName === "a" && m.status === "done" && m.id > messageId, 15_000);
}

/** The sidekicks entry of the `mcpServers` the fake agent reported (`reportSession`). */
function sidekicksEntry(answerText: string): { all: { name: string }[]; server: HttpServer } {
  const reported = JSON.parse(answerText) as { mcpServers: (HttpServer | { name: string })[] };
  const server = reported.mcpServers.find((m) => m.name === "sidekicks") as HttpServer | undefined;
  assert.ok(server, `a sidekicks server in ${answerText}`);
  return { all: reported.mcpServers, server };
}

/** A connected MCP SDK client for `server`, with `headers` (default: the ones session/new gave). */
async function connect(server: HttpServer, headers = Object.fromEntries(server.headers.map((h) => [h.name, h.value]))): Promise<Client> {
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } }));
  return client;
}

const textResult = (r: Awaited<ReturnType<Client["callTool"]>>) => ({ text: (r.content as { type: string; text: string }[]).map((c) => c.text).join(""), isError: r.isError === true });

test("session/new gets Sidekicks' MCP server beside the roster's own; a real MCP client lists its tools with the session's token and is refused without it", async () => {
  const s = await channelSetup([agentA({ prompt: [{ reportSession: true }] })]);
  try {
    const answer = await ask(s, "@a report");
    const { all, server } = sidekicksEntry(textOf(answer));
    assert.deepEqual(all.map((m) => m.name), ["files", "sidekicks"], "the roster's server first, Sidekicks' beside it");
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp\/[0-9a-f]{24}$/);
    const client = await connect(server);
    const tools = await client.listTools();
    assert.deepEqual(tools.tools.map((t) => t.name).sort(), ["channel_members", "channel_recent_messages", "delegate", "post_progress", "skill_read", "skill_reference"]);
    await client.close();
    const wrong = await fetch(server.url, { method: "POST", headers: { authorization: "Bearer AAAA", "content-type": "application/json", accept: "application/json, text/event-stream" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }) });
    assert.equal(wrong.status, 401);
    const none = await fetch(server.url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }) });
    assert.equal(none.status, 401);
    await assert.rejects(connect(server, { Authorization: `${server.headers[0]!.value}x` }), "a token one character off is refused");
  } finally {
    await s.teardown();
  }
});

test("an agent with sidekicksTools: false, or that does not announce MCP over HTTP, gets only the roster's servers", async () => {
  const off = agentA({ prompt: [{ reportSession: true }] }, { sidekicksTools: false });
  const noHttp: AgentConfig = { ...fakeAgent("b", { prompt: [{ reportSession: true }] }), mcpServers: [] };
  const s = await channelSetup([off, noHttp]);
  try {
    const a = await ask(s, "@a report");
    assert.deepEqual((JSON.parse(textOf(a)) as { mcpServers: { name: string }[] }).mcpServers.map((m) => m.name), ["files"]);
    await s.channels.messages.send(s.general.id, "@b report");
    const b = await s.finished((m) => m.author.agentName === "b" && m.status === "done");
    assert.deepEqual((JSON.parse(textOf(b)) as { mcpServers: unknown[] }).mcpServers, []);
  } finally {
    await s.teardown();
  }
});

test("skills: the catalog opens the first prompt only; skill_read gives the instructions, skill_reference a file, and no path leaves the folder", async () => {
  const ws = skillsWorkspace();
  const problems: { agent: string; problems: SkillProblem[] }[] = [];
  const s = await channelSetup([agentA({ prompt: [{ blocks: true }, { chunk: "\n" }, { reportSession: true }] }, { skills: ["skills/release", "skills/broken"] })], {
    workspaceFolder: ws.dir,
    channels: { skillProblems: (agent, p) => problems.push({ agent, problems: p }) },
  });
  try {
    const first = await ask(s, "@a one");
    assert.equal(first.outcome, "completed", "a broken skill does not fail the turn");
    const [blocks, report] = textOf(first).split("\n");
    assert.ok(blocks!.includes(SKILLS_HEADER), "the catalog is in the first prompt");
    assert.ok(blocks!.includes("release-notes (version 1.2.0): Writes release notes from the changelog"));
    assert.deepEqual(problems.map((p) => [p.agent, p.problems.map((x) => x.path)]), [["a", ["skills/broken"]]], "the broken skill is reported");
    assert.match(problems[0]!.problems[0]!.message, /front matter/);
    const second = await ask(s, "@a two");
    assert.ok(!textOf(second).includes(SKILLS_HEADER), "the catalog is not repeated in the same session");
    assert.ok(!textOf(second).includes(SKILLS_CHANGED_START), "nothing changed, nothing announced");
    const versions = async (m: { id: string }) => (await s.store.turn((await s.store.message(s.general.id, m.id))!.turnId!))?.skills;
    assert.deepEqual(await versions(first), [{ name: "release-notes", version: "1.2.0" }], "the turn records the skill versions in use");

    // The skill is edited while the session runs: the next prompt says so, and its turn records the new version.
    writeFileSync(path.join(ws.dir, "skills", "release", "SKILL.md"), "---\nname: release-notes\nversion: 1.3.0\ndescription: Writes release notes\n---\nNew rules.\n");
    const third = await ask(s, "@a three");
    assert.ok(textOf(third).includes("release-notes is now version 1.3.0 (was 1.2.0): read it again with skill_read"), textOf(third));
    assert.deepEqual(await versions(third), [{ name: "release-notes", version: "1.3.0" }]);
    assert.deepEqual(await versions(second), [{ name: "release-notes", version: "1.2.0" }], "an earlier turn keeps what it used");
    writeFileSync(path.join(ws.dir, "skills", "release", "SKILL.md"), "---\nname: release-notes\nversion: 1.2.0\ndescription: Writes release notes from the changelog\n---\n# Release notes\n\nRead CHANGELOG.md first.\n");

    const client = await connect(sidekicksEntry(report!).server);
    const read = textResult(await client.callTool({ name: "skill_read", arguments: { name: "release-notes" } }));
    assert.equal(read.isError, false);
    assert.match(read.text, /^# release-notes \(version 1\.2\.0\)\n\n# Release notes\n\nRead CHANGELOG\.md first\./);
    assert.match(read.text, /forms\/template\.md/);
    assert.deepEqual(textResult(await client.callTool({ name: "skill_reference", arguments: { name: "release-notes", file: "forms/template.md" } })), { text: "## Added\n## Fixed\n", isError: false });
    for (const file of ["../../secret.txt", path.join(ws.dir, "secret.txt"), "leak.md", "forms/../../../secret.txt"]) {
      const r = textResult(await client.callTool({ name: "skill_reference", arguments: { name: "release-notes", file } }));
      assert.equal(r.isError, true, `${file} is refused`);
      assert.doesNotMatch(r.text, /not for agents/);
    }
    const unknown = textResult(await client.callTool({ name: "skill_read", arguments: { name: "nope" } }));
    assert.deepEqual(unknown, { text: 'No skill "nope". The skills attached to you here: release-notes.', isError: true });
    await client.close();
  } finally {
    await s.teardown();
    ws.cleanup();
  }
});

test("channel tools: recent messages and members as the store holds them; post_progress shows a note on the running answer, which goes on", async () => {
  const s = await channelSetup([
    agentA({ prompt: [{ chunk: "before " }, { mcpCall: { tool: "post_progress", args: { text: "Halfway there" } } }, { chunk: " after" }] }),
    { ...fakeAgent("b", { prompt: [{ chunk: "hello from b" }] }), mcpServers: [] },
  ]);
  try {
    await s.channels.messages.send(s.general.id, "@b hi");
    await s.finished((m) => m.author.agentName === "b" && m.status === "done");
    const answer = await ask(s, "@a go");
    assert.equal(answer.outcome, "completed");
    assert.deepEqual(answer.parts.find((p) => p.type === "notice"), { type: "notice", text: "Halfway there", retrying: false });
    assert.match(textOf(answer), /^before mcp: .*Progress note shown\..* after$/);
    const stored = await s.store.message(s.general.id, answer.id);
    assert.ok(stored?.parts.some((p) => p.type === "notice" && p.text === "Halfway there"), "the note is in the stored answer");

    // Reach the same session's server the way the agent does, and read the channel.
    const reportAgent = await channelTools(s);
    const recent = JSON.parse(textResult(await reportAgent.callTool({ name: "channel_recent_messages", arguments: { limit: 3 } })).text) as { author: string; text: string }[];
    const latest = await s.store.latestMessages(s.general.id, 3);
    assert.deepEqual(recent.map((m) => m.author), latest.map((m) => (m.author.kind === "agent" ? m.author.agentName : m.author.kind)));
    assert.deepEqual(recent.map((m) => m.text).slice(0, 2), ["hello from b", "@a go"]);
    assert.deepEqual(JSON.parse(textResult(await reportAgent.callTool({ name: "channel_members", arguments: {} })).text), { channel: "general", members: ["a", "b"] });
    const late = textResult(await reportAgent.callTool({ name: "post_progress", arguments: { text: "too late" } }));
    assert.deepEqual(late, { text: "You have no answer running in this channel, so the note was not shown.", isError: true });
    await reportAgent.close();
  } finally {
    await s.teardown();
  }
});

/** A client of the session `a` has in #general, with the entry its session/new was given (read from the server). */
async function channelTools(s: Awaited<ReturnType<typeof channelSetup>>): Promise<Client> {
  const opened = await s.channels.tools.server.open({ channelId: s.general.id, agent: "a", skills: [], workspaceFolder: process.cwd() });
  return connect(opened.server as HttpServer);
}
