import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { joinArgs, splitArgs } from "../../src/config/args";
import { setAgentField } from "../../src/config/rosterEdit";
import { hashText, readRosterSnapshot, saveRoster } from "../../src/config/rosterFile";
import { SidekicksError } from "../../src/shared/errors";

const ROSTER = "# mine\nagents:\n  - name: a\n    command: x   # the agent\n";

async function withFile(run: (file: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), "sidekicks-config-"));
  try {
    const file = path.join(dir, "sidekicks.yaml");
    await writeFile(file, ROSTER);
    await run(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const conflict = (message: RegExp) => (err: unknown) => err instanceof SidekicksError && err.code === "config/conflict" && message.test(err.message);

test("an edit saved over an unchanged file lands, and the next edit starts from the saved snapshot", () =>
  withFile(async (file) => {
    const first = await readRosterSnapshot(file);
    assert.equal(first.hash, hashText(ROSTER));
    const saved = await saveRoster(first, setAgentField(first.text, "a", "command", "y"));
    assert.equal(await readFile(file, "utf8"), "# mine\nagents:\n  - name: a\n    command: y   # the agent\n");
    await saveRoster(saved, setAgentField(saved.text, "a", "title", "A"));
    assert.equal(await readFile(file, "utf8"), "# mine\nagents:\n  - name: a\n    command: y   # the agent\n    title: A\n");
  }));

test("a file changed on disk since it was read is not overwritten: config/conflict, and the file keeps the other change", () =>
  withFile(async (file) => {
    const snapshot = await readRosterSnapshot(file);
    await writeFile(file, `${ROSTER}  - name: b\n    command: z\n`);
    await assert.rejects(saveRoster(snapshot, setAgentField(snapshot.text, "a", "command", "y")), conflict(/^sidekicks\.yaml changed on disk since it was read; nothing was saved\./));
    assert.match(await readFile(file, "utf8"), /name: b/);
    assert.match(await readFile(file, "utf8"), /command: x/);
  }));

test("a file deleted since it was read is not re-created by a save", () =>
  withFile(async (file) => {
    const snapshot = await readRosterSnapshot(file);
    await rm(file);
    await assert.rejects(saveRoster(snapshot, "agents: []\n"), conflict(/^sidekicks\.yaml was deleted since it was read; nothing was saved\.$/));
    await assert.rejects(readFile(file, "utf8"));
  }));

test("reading a roster that does not exist says to create it", async () => {
  await assert.rejects(readRosterSnapshot("/nonexistent/sidekicks.yaml"), (err: unknown) => err instanceof SidekicksError && err.code === "config/missing" && err.message === 'sidekicks.yaml does not exist yet: run "Sidekicks: Create config" first.');
});

test("splitArgs reads a typed command line like a shell, without expanding anything", () => {
  assert.deepEqual(splitArgs('  -y @agentclientprotocol/claude-agent-acp  '), ["-y", "@agentclientprotocol/claude-agent-acp"]);
  assert.deepEqual(splitArgs(`--model "big one" 'it''s' a\\ b "" $HOME`), ["--model", "big one", "its", "a b", "", "$HOME"]);
  assert.deepEqual(splitArgs('"say \\"hi\\""'), ['say "hi"']);
  assert.deepEqual(splitArgs(""), []);
  assert.throws(() => splitArgs('--name "open'), { message: "The double quote at position 8 is not closed." });
});

test("joinArgs writes arguments back so splitArgs reads the same list", () => {
  const cases = [["-y", "pkg@1.0"], ["--model", "big one"], ["it's", "", "a\"b", "$HOME", "~/x"]];
  for (const args of cases) assert.deepEqual(splitArgs(joinArgs(args)), args);
  assert.equal(joinArgs(["-y", "big one"]), "-y 'big one'");
});
