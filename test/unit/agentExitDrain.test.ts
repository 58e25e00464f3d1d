/**
 * An agent that writes its last chunks and exits at once (issue 17): everything it wrote before it exited is in the
 * answer, which settles failed and says the agent exited. A real subprocess that writes synchronously (so nothing is
 * lost on its side), LevelDB in a temp folder.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { channelSetup, textOf } from "./channelHarness";

/** test/fixtures/quitting-agent.mjs: writes its chunks synchronously, then exits with code 1. */
const QUITTER = path.resolve(__dirname, "../fixtures/quitting-agent.mjs");

test("chunks written just before an agent exits all land in its answer, which says it exited", async () => {
  const count = 400;
  const size = 64;
  const s = await channelSetup([{ name: "quitter", command: process.execPath, args: [QUITTER], env: { QUIT_CHUNKS: String(count), QUIT_SIZE: String(size) } }]);
  const agentAnswers = () => s.events.of("message/finished").filter((f) => f.author.kind === "agent");
  try {
    for (let round = 0; round < 5; round++) {
      await s.channels.messages.send(s.general.id, `@quitter round ${round}`);
      const answer = await s.finished((m) => m.author.kind === "agent" && agentAnswers().indexOf(m) === round, 15_000);
      assert.equal(answer.outcome, "failed");
      assert.match(answer.error?.message ?? "", /exited \(code 1\)/);
      const saved = await s.store.message(s.general.id, answer.id);
      assert.ok(saved, "the answer is saved");
      const text = textOf({ ...answer, parts: saved.parts });
      assert.equal(text.length, "start\n".length + count * size + "the last words".length, `round ${round}: every chunk is kept`);
      assert.ok(text.endsWith("the last words"), `round ${round}: the last chunk, written just before the exit, is there`);
      await s.agents.start("quitter");
    }
  } finally {
    await s.teardown();
  }
});
