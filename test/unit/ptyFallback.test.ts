/**
 * A platform where node-pty does not load (a package built for another platform): the extension still works, agents
 * still get files, terminals are simply not offered (`initialize` says so) and a direct call explains why.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import path from "node:path";
import test from "node:test";

const ROOT = path.resolve(__dirname, "../..");

test("without node-pty: terminals are not advertised, files still are, and creating a terminal says what to install", () => {
  const script = `
    const { TerminalManager, terminalsAvailable } = require("./src/workspace/terminals.ts");
    const { AcpClient } = require("./src/acp/AcpClient.ts");
    (async () => {
      const out = { available: terminalsAvailable() };
      try { await new TerminalManager({ cwd: process.cwd() }).create({ command: "echo" }); } catch (e) { out.error = [e.code, e.message]; }
      const script = JSON.stringify({ prompt: [{ capabilities: true }] });
      let said = "";
      const client = await AcpClient.start(
        { command: process.execPath, args: [${JSON.stringify(path.join(ROOT, "test/fixtures/fake-agent.mjs"))}], env: { ...process.env, FAKE_AGENT_SCRIPT: script }, cwd: process.cwd() },
        { onUpdate: (_s, u) => { if (u.kind === "text") said += u.text; }, onPermissionRequest: async () => ({ outcome: "cancelled" }), onStderr: () => {}, onLog: () => {},
          serves: { fs: true, terminal: terminalsAvailable() }, onClientRequest: async () => ({}) },
        { agentName: "fake", initializeTimeoutMs: 20000 },
      );
      const session = await client.newSession(process.cwd(), []);
      await client.prompt(session, "go");
      out.capabilities = JSON.parse(said);
      await client.stop();
      console.log(JSON.stringify(out));
    })().catch((e) => { console.error(e); process.exit(1); });
  `;
  const output = execFileSync(process.execPath, ["--require", path.join(ROOT, "test/fixtures/no-pty.cjs"), "--import", "tsx", "-e", script], { cwd: ROOT, encoding: "utf8", timeout: 60_000 });
  const result = JSON.parse(output.trim().split("\n").pop()!);
  assert.equal(result.available, false);
  assert.equal(result.error[0], "terminal/unavailable");
  assert.match(result.error[1], /Terminals are not available here: node-pty did not load .*Install the Sidekicks package built for this platform/);
  assert.deepEqual([result.capabilities.fs.readTextFile, result.capabilities.fs.writeTextFile, result.capabilities.terminal], [true, true, false]);
});
