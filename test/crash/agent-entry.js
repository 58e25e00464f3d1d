/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS by design: bundled by run.ts into a V8 startup snapshot */
// The crash suite's agent: the scripted fake agent (test/fixtures/fake-agent.mjs, script in FAKE_AGENT_SCRIPT), bundled
// by run.ts with the ACP SDK into one file and, when Node can, into a V8 startup snapshot (the SDK's schemas are
// built once, not in each of the ~700 agent processes of a run). Two additions the suite needs, because the agent
// manager spawns agents detached (their own process group, which a SIGKILL of the child's group does not reach):
// - its pid is written to a file in CRASH_PID_DIR at once, so the harness kills it after killing the child;
// - it exits by itself when its parent (the child running the channel core) is gone.
const { writeFileSync } = require("node:fs");
const path = require("node:path");
const v8 = require("node:v8");
require("@agentclientprotocol/sdk"); // initialised here: inside the snapshot when one is built

function run() {
  if (process.env.CRASH_PID_DIR) writeFileSync(path.join(process.env.CRASH_PID_DIR, String(process.pid)), "");
  const parent = process.ppid;
  setInterval(() => {
    try {
      process.kill(parent, 0);
    } catch {
      process.exit(0);
    }
  }, 100).unref();
  require("../fixtures/fake-agent.mjs"); // bundled lazily: runs now, with this process's env
}

if (v8.startupSnapshot?.isBuildingSnapshot()) v8.startupSnapshot.setDeserializeMainFunction(run);
else run();
