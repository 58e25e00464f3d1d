/**
 * After a restart (issue 4): an agent that supports ACP `session/load` resumes the channel's session — it remembers,
 * its replayed history is not shown again, and the channel is not repeated to it; one that does not gets a new
 * session with the channel's history re-injected.
 */
import assert from "node:assert/strict";
import path from "node:path";
import test from "node:test";
import { channelSetup, fakeAgent, textOf } from "./channelHarness";
import { tempDir } from "./helpers";

for (const loadSession of [true, false]) {
  test(`restart with an agent that ${loadSession ? "supports" : "does not support"} session/load`, async () => {
    const { dir, cleanup } = tempDir();
    const sessionsFile = path.join(dir, "sessions.json");
    const s = await channelSetup([fakeAgent("a", { loadSession, sessionsFile, prompt: [{ recall: true }, { chunk: " | " }, { echo: true }] })]);
    try {
      await s.channels.messages.send(s.general.id, "@a first message");
      const first = await s.finished((m) => m.author.kind === "agent");
      assert.match(textOf(first), /^I remember nothing/);
      await s.agents.stopAll(); // the agent process ends, as after a window reload
      await s.reopen();
      const before = s.events.of("message/finished").length;
      await s.channels.messages.send(s.general.id, "@a second message");
      const second = await s.finished((m) => m.author.kind === "agent" && s.events.of("message/finished").indexOf(m) >= before);
      const said = textOf(second);
      if (loadSession) {
        assert.match(said, /^I remember: .*first message/, "the resumed session remembers the first exchange");
        assert.doesNotMatch(said, /Your session was restarted/, "the channel is not repeated to an agent that remembers");
        const agentMessages = (await s.channels.messages.open("general")).messages.filter((m) => m.author.kind === "agent");
        assert.equal(agentMessages.length, 2, "the replayed history was not shown as new messages");
      } else {
        assert.match(said, /^I remember nothing/);
        assert.match(said, /Your session was restarted.*first message/s, "a new session gets the channel's history re-injected");
      }
    } finally {
      await s.teardown();
      cleanup();
    }
  });
}
