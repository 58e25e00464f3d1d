import { test } from "node:test";
import assert from "node:assert/strict";
import { AcpClient } from "../../src/acp/AcpClient";
import { SidekicksError } from "../../src/shared/errors";
import { fakeAgentLaunch, recordingHandlers } from "./helpers";

const opts = { agentName: "fake" };

test("streams agent_message_chunk text in order and returns the stop reason", async () => {
  const rec = recordingHandlers();
  const client = await AcpClient.start(
    fakeAgentLaunch({ prompt: [{ chunk: "Hello" }, { chunk: ", " }, { echo: true }] }),
    rec.handlers,
    opts,
  );
  try {
    const sessionId = await client.newSession(process.cwd());
    const stop = await client.prompt(sessionId, "hi there");
    assert.equal(stop, "end_turn");
    assert.equal(rec.text(), "Hello, You said: hi there");
    assert.ok(rec.updates.every((u) => u.sessionId === sessionId));
  } finally {
    await client.stop();
  }
});

test("an agent that exits mid-prompt rejects the prompt with agent/exited, exit code and stderr, within 2 s", async () => {
  const rec = recordingHandlers();
  const client = await AcpClient.start(
    fakeAgentLaunch({ prompt: [{ chunk: "Working on it" }, { stderr: "fatal: out of tokens" }, { sleep: 50 }, { exit: 143 }] }),
    rec.handlers,
    opts,
  );
  const sessionId = await client.newSession(process.cwd());
  const started = Date.now();
  await assert.rejects(client.prompt(sessionId, "go"), (err: unknown) => {
    assert.ok(err instanceof SidekicksError);
    assert.equal(err.code, "agent/exited");
    assert.match(err.message, /exited \(code 143\)/);
    assert.match(err.detail ?? "", /fatal: out of tokens/);
    return true;
  });
  assert.ok(Date.now() - started < 2000, `took ${Date.now() - started} ms`);
  assert.equal(rec.text(), "Working on it");
});

test("a command that does not exist fails with agent/spawn naming the command", async () => {
  const rec = recordingHandlers();
  const launch = { ...fakeAgentLaunch({}), command: "definitely-not-an-acp-agent-xyz", args: [] };
  await assert.rejects(AcpClient.start(launch, rec.handlers, opts), (err: unknown) => {
    assert.ok(err instanceof SidekicksError);
    assert.equal(err.code, "agent/spawn");
    assert.match(err.message, /command not found: "definitely-not-an-acp-agent-xyz"/);
    return true;
  });
});

test("an environment too large for the system fails with agent/spawn saying what to shorten, not a bare 'spawn E2BIG'", async () => {
  const rec = recordingHandlers();
  const base = fakeAgentLaunch({});
  const launch = { ...base, env: { ...base.env, HUGE: "x".repeat(1024 * 1024) } };
  await assert.rejects(AcpClient.start(launch, rec.handlers, opts), (err: unknown) => {
    assert.ok(err instanceof SidekicksError);
    assert.equal(err.code, "agent/spawn");
    assert.match(err.message, /too large for the system \(E2BIG\)\. Shorten "args" or "env"/);
    return true;
  });
});

test("an agent that exits at start fails initialize with agent/exited and its stderr", async () => {
  const rec = recordingHandlers();
  await assert.rejects(AcpClient.start(fakeAgentLaunch({ exitOnStart: 3 }), rec.handlers, opts), (err: unknown) => {
    assert.ok(err instanceof SidekicksError);
    assert.equal(err.code, "agent/exited");
    assert.match(err.message, /code 3/);
    assert.match(err.detail ?? "", /exiting on start as scripted/);
    return true;
  });
});

test("field case 6: non-JSON stdout lines are skipped and logged; initialize still succeeds", async () => {
  const rec = recordingHandlers();
  const client = await AcpClient.start(
    fakeAgentLaunch({ banner: ["Loaded cached credentials."], prompt: [{ raw: "\u001b]0;zsh\u0007not json either" }, { chunk: "ok" }] }),
    rec.handlers,
    opts,
  );
  try {
    const sessionId = await client.newSession(process.cwd());
    assert.equal(await client.prompt(sessionId, "x"), "end_turn");
    assert.equal(rec.text(), "ok");
    assert.equal(rec.logs.filter((l) => l.includes("stdout line skipped")).length, 2);
    assert.ok(rec.logs.some((l) => l.includes("Loaded cached credentials.")));
  } finally {
    await client.stop();
  }
});

test("field case 6: an agent that never answers initialize fails with a clear error quoting its stdout", async () => {
  const rec = recordingHandlers();
  await assert.rejects(
    AcpClient.start(fakeAgentLaunch({ banner: ["Please run with --acp"], silent: true }), rec.handlers, {
      ...opts,
      // Long enough for the agent to start and print its banner on a loaded machine.
      initializeTimeoutMs: 3_000,
    }),
    (err: unknown) => {
      assert.ok(err instanceof SidekicksError);
      assert.equal(err.code, "agent/protocol");
      assert.match(err.message, /did not answer ACP initialize/);
      assert.match(err.detail ?? "", /Please run with --acp/);
      return true;
    },
  );
});

test("field case 6: a CLI started without its ACP flag (a banner, then silence) fails soon, quoting the banner, not after the full timeout", async () => {
  const rec = recordingHandlers();
  await assert.rejects(
    // The full timeout is far beyond the test runner's: only the not-ACP verdict can end this start.
    AcpClient.start(fakeAgentLaunch({ banner: ["Welcome to FooCLI 2.1 — type /help"], silent: true }), rec.handlers, { ...opts, initializeTimeoutMs: 600_000, notAcpQuietMs: 300 }),
    (err: unknown) => {
      assert.ok(err instanceof SidekicksError);
      assert.equal(err.code, "agent/protocol");
      assert.match(err.message, /printed text that is not ACP \("Welcome to FooCLI 2\.1 — type \/help"\)/);
      assert.match(err.message, /--acp/);
      return true;
    },
  );
});

test("field cases 6 and 12: the error quoting an agent's non-ACP output shows its text without terminal escape sequences", async () => {
  const rec = recordingHandlers();
  await assert.rejects(
    AcpClient.start(fakeAgentLaunch({ banner: ["\u001b[31mred\u001b[0m banner \u001b]0;title\u0007here"], silent: true }), rec.handlers, { ...opts, initializeTimeoutMs: 600_000, notAcpQuietMs: 300 }),
    (err: unknown) => {
      assert.ok(err instanceof SidekicksError);
      assert.match(err.message, /not ACP \("red banner here"\)/);
      assert.match(err.detail ?? "", /Last non-ACP line on stdout: red banner here/);
      assert.doesNotMatch(`${err.message}${err.detail}`, /\u001b/, "no escape character reaches the user");
      return true;
    },
  );
});

test("field case 5: an update for an unknown session is dropped with a debug log; the connection stays", async () => {
  const rec = recordingHandlers();
  const client = await AcpClient.start(
    fakeAgentLaunch({ prompt: [{ notifySession: "not-mine" }, { chunk: "still here" }] }),
    rec.handlers,
    opts,
  );
  try {
    const sessionId = await client.newSession(process.cwd());
    assert.equal(await client.prompt(sessionId, "x"), "end_turn");
    assert.equal(rec.text(), "still here");
    assert.ok(rec.logs.some((l) => l.startsWith("debug: session/update for unknown session not-mine")));
  } finally {
    await client.stop();
  }
});

test("permission requests reach the handler and the chosen option goes back to the agent", async () => {
  const rec = recordingHandlers((r) => ({ outcome: "selected", optionId: r.options[0]!.optionId }));
  const client = await AcpClient.start(
    fakeAgentLaunch({ prompt: [{ permission: { toolCallId: "t1", title: "Write config.json" } }] }),
    rec.handlers,
    opts,
  );
  try {
    const sessionId = await client.newSession(process.cwd());
    await client.prompt(sessionId, "x");
    assert.equal(rec.permissions.length, 1);
    assert.equal(rec.permissions[0]!.title, "Write config.json");
    assert.equal(rec.text(), " [chose ok]");
  } finally {
    await client.stop();
  }
});

test("authentication required on session/new is an actionable agent/request error", async () => {
  const rec = recordingHandlers();
  const client = await AcpClient.start(fakeAgentLaunch({ authRequired: true }), rec.handlers, opts);
  try {
    await assert.rejects(client.newSession(process.cwd()), (err: unknown) => {
      assert.ok(err instanceof SidekicksError);
      assert.equal(err.code, "agent/request");
      assert.match(err.message, /needs you to sign in first \(Log in with fake-agent login\)/);
      return true;
    });
  } finally {
    await client.stop();
  }
});

test("stop() ends the process group: no process of the agent survives", async () => {
  const rec = recordingHandlers();
  const client = await AcpClient.start(fakeAgentLaunch({}), rec.handlers, opts);
  const pid = client.pid!;
  await client.stop();
  assert.throws(() => process.kill(-pid, 0), /ESRCH/);
});

test("field case 8: a stderr flood while streaming keeps every stdout chunk in order and bounded stderr memory", async () => {
  const rec = recordingHandlers();
  const client = await AcpClient.start(
    fakeAgentLaunch({ prompt: [{ stderrFlood: { lines: 20_000, size: 256 } }, { chunks: { count: 200, size: 10 } }, { stderrFlood: { lines: 20_000, size: 256 } }] }),
    { ...rec.handlers, onStderr: () => undefined },
    opts,
  );
  try {
    const sessionId = await client.newSession(process.cwd());
    assert.equal(await client.prompt(sessionId, "x"), "end_turn");
    assert.equal(rec.text(), "xxxxxxxxx\n".repeat(200));
    const tail = client.stderrTail;
    assert.ok(tail.length <= 64 * 1024, `kept ${tail.length} chars of stderr`);
    assert.ok(tail.length > 60 * 1024, "keeps a useful tail");
  } finally {
    await client.stop();
  }
});

test("a program that is not an ACP agent (cat echoes our requests) fails with a clear agent/protocol error", async () => {
  const rec = recordingHandlers();
  const launch = { ...fakeAgentLaunch({}), command: "cat", args: [] };
  await assert.rejects(AcpClient.start(launch, rec.handlers, { ...opts, initializeTimeoutMs: 5000 }), (err: unknown) => {
    assert.ok(err instanceof SidekicksError);
    assert.equal(err.code, "agent/protocol");
    assert.match(err.message, /does not look like an ACP agent/);
    assert.match(err.message, /--acp/);
    return true;
  });
});

test("available_commands_update is mapped to name, description and hint, even for a session not known yet", async () => {
  const rec = recordingHandlers();
  const commands = [
    { name: "idioms", description: "Explain a French idiom", input: { hint: "a French phrase" } },
    { name: "/help", description: "Help" },
  ];
  const client = await AcpClient.start(fakeAgentLaunch({ prompt: [{ commandsFor: "s-not-yet", commands }, { chunk: "ok" }] }), rec.handlers, opts);
  try {
    const sessionId = await client.newSession(process.cwd());
    assert.equal(await client.prompt(sessionId, "x"), "end_turn");
    const update = rec.updates.find((u) => u.update.kind === "commands");
    assert.deepEqual(update, {
      sessionId: "s-not-yet",
      update: { kind: "commands", commands: [{ name: "idioms", description: "Explain a French idiom", hint: "a French phrase" }, { name: "help", description: "Help" }] },
    });
  } finally {
    await client.stop();
  }
});

test("field case 22: announced commands are clean — /help once, duplicates merged, empty name left out, spaced and slashed names kept greyed (routing could not call them), markup kept as text", async () => {
  const rec = recordingHandlers();
  const commands = [
    { name: "/help", description: "Help" },
    { name: "review", description: "Review" },
    { name: "review", description: "Review again" },
    { name: "has space", description: "Cannot be typed" },
    { name: "", description: "Nameless" },
    { name: "<img/src=x/onerror=alert(1)>", description: "Markup with slashes" },
    { name: "<svg:onload=alert(1)>", description: "Markup" },
    { name: "frontend:component", description: "Claude Code's namespaced command" },
  ];
  const client = await AcpClient.start(fakeAgentLaunch({ prompt: [{ commandsFor: "s-odd", commands }, { chunk: "ok" }] }), rec.handlers, opts);
  try {
    const sessionId = await client.newSession(process.cwd());
    assert.equal(await client.prompt(sessionId, "x"), "end_turn");
    const update = rec.updates.find((u) => u.update.kind === "commands")?.update;
    assert.ok(update?.kind === "commands");
    assert.deepEqual(
      update.commands.map((c) => (c.notCallable ? `${c.name} (${c.notCallable})` : c.name)),
      ["help", "review", "has space (whitespace)", "<img/src=x/onerror=alert(1)> (slash)", "<svg:onload=alert(1)>", "frontend:component"],
      "one /help (never //help), review once, names typing cannot call kept to show and marked, markup kept as text, a namespaced one kept",
    );
    assert.equal(update.commands[1]!.description, "Review", "the first announcement of a name is kept");
    assert.deepEqual(update.problems, [
      'the commands "has space", "<img/src=x/onerror=alert(1)>" cannot be called: a name with spaces, a "/" or over 100 characters cannot be typed as /name (shown greyed in the command menu)',
      "1 command with an empty name left out",
      "1 command announced again merged into the first of the same name",
    ]);
  } finally {
    await client.stop();
  }
});

test("session/load: the replayed history never reaches onUpdate and is counted at debug; the session then streams", async () => {
  const rec = recordingHandlers();
  const replay = ["Earlier: ", "a long answer ", "about lasagna."];
  const client = await AcpClient.start(fakeAgentLaunch({ loadSession: true, replay, prompt: [{ reportSession: true }] }), rec.handlers, opts);
  try {
    assert.equal(client.info?.loadSession, true);
    assert.deepEqual(await client.loadSession("s-stored", process.cwd()), { replayed: 3 });
    assert.deepEqual(rec.updates, [], "no replayed update was delivered");
    assert.ok(rec.logs.includes("debug: session/load s-stored: 3 replayed session/update(s) dropped (history already shown)"), rec.logs.join("\n"));
    assert.ok(!rec.logs.some((l) => l.includes("unknown session")), "the replay is not mistaken for stray updates");
    assert.equal(await client.prompt("s-stored", "which session?"), "end_turn");
    assert.deepEqual(JSON.parse(rec.text()), { cwd: process.cwd(), mcpServers: [], loaded: true });
  } finally {
    await client.stop();
  }
});

test("session/load refused by the agent rejects with agent/request quoting its message", async () => {
  const rec = recordingHandlers();
  const client = await AcpClient.start(fakeAgentLaunch({ loadSession: true, failLoad: "no such session on disk" }), rec.handlers, opts);
  try {
    await assert.rejects(client.loadSession("s-gone", process.cwd()), (err: unknown) => {
      assert.ok(err instanceof SidekicksError);
      assert.equal(err.code, "agent/request");
      assert.match(err.message, /answered session\/load with an error/);
      return true;
    });
  } finally {
    await client.stop();
  }
});

test("field case 20: initialize answered with another protocol version fails start (ACP: the client closes the connection)", async () => {
  const rec = recordingHandlers();
  await assert.rejects(AcpClient.start(fakeAgentLaunch({ protocolVersion: 2 }), rec.handlers, opts), (err: unknown) => {
    assert.ok(err instanceof SidekicksError);
    assert.equal(err.code, "agent/protocol");
    assert.equal(err.message, 'Agent "fake" speaks ACP protocol version 2; Sidekicks speaks version 1. Update Sidekicks, or use a version of the agent that speaks 1.');
    return true;
  });
});
