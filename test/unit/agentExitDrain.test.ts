/**
 * The last chunks of an answer arrive in one piece with its end (issue 17; the fuzz suite lost them under load, when
 * one read of the agent's stdout held the chunks and the prompt's result, or the chunks and the exit): all of them
 * are in the answer, in order. A real subprocess that writes everything in one synchronous write, LevelDB in a temp
 * folder.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { channelSetup, textOf } from "./channelHarness";

/** test/fixtures/quitting-agent.mjs: its chunks and its end in one write. */
const QUITTER = path.resolve(__dirname, "../fixtures/quitting-agent.mjs");
const COUNT = 400;
const SIZE = 64;
const EXPECTED = "start\n".length + COUNT * SIZE + "the last words".length;

for (const mode of ["answer", "exit"] as const) {
  test(`chunks that come in one piece with the agent's ${mode === "answer" ? "result" : "exit"} all land in its answer`, async () => {
    const s = await channelSetup([{ name: "quitter", command: process.execPath, args: [QUITTER], env: { QUIT_CHUNKS: String(COUNT), QUIT_SIZE: String(SIZE), QUIT_MODE: mode } }]);
    const agentAnswers = () => s.events.of("message/finished").filter((f) => f.author.kind === "agent");
    try {
      for (let round = 0; round < 4; round++) {
        await s.channels.messages.send(s.general.id, `@quitter round ${round}`);
        const answer = await s.finished((m) => m.author.kind === "agent" && agentAnswers().indexOf(m) === round, 15_000);
        if (mode === "exit") {
          assert.equal(answer.outcome, "failed");
          assert.match(answer.error?.message ?? "", /exited \(code 1\)/);
        } else assert.equal(answer.outcome, "completed");
        const saved = await s.store.message(s.general.id, answer.id);
        assert.ok(saved, "the answer is saved");
        const text = textOf({ ...answer, parts: saved.parts });
        assert.equal(text.length, EXPECTED, `round ${round}: every chunk is kept`);
        assert.ok(text.endsWith("the last words"), `round ${round}: the last chunk is there`);
        if (mode === "exit") await s.agents.start("quitter");
      }
    } finally {
      await s.teardown();
    }
  });
}
