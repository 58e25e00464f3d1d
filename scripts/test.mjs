// @ts-check
// `npm test`: build, typecheck, lint, unit tests, the crash suite (kill points), the fuzz suite (malformed agent streams), the
// store faults suite (damaged, full, read-only and locked stores), webview tests, integration tests in a real VS Code (code-server;
// Claude Code and Codex there too, and `npm start -- --real-agents`),
// the same editor with the packaged .vsix installed (vsix: `npm run package`, then the suite against the installed copy),
// real ACP agents (claude-agent-acp, codex-acp, Gemini CLI) running full turns offline against the scripted model server, in that order, streaming each stage's output. Build,
// typecheck and lint count as one check each; the test stages count their tests. The very last line printed is `N passed, N failed`; the exit code is 1 when anything failed.
//
// Stages can be chosen with SIDEKICKS_TEST_STAGES=build,unit,... (default: all).
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const resultsDir = path.join(root, "test-results");
const node = process.execPath;
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

/**
 * One row per stage: `{ stage, passed, failed, skipped, seconds, note }` (`skipped`: tests that did not run, for the
 * stages that count them).
 * @type {{ stage: string, passed: number, failed: number, skipped?: number, seconds: number, note: string }[]}
 */
const summary = [];

/**
 * What failed, `{ stage, lines }`, printed again just before the summary so a CI log's tail names it.
 * @type {{ stage: string, lines: string[] }[]}
 */
const failures = [];

/**
 * The failure report of a run's output, as lines (at most 40): mocha's section from `N failing`, the harness's
 * `not ok` lines, or TAP's `not ok` lines with the message that follows. Empty when nothing failed.
 * @param {string} text
 * @returns {string[]}
 */
function failureLines(text) {
  const mocha = /^\s*\d+ failing$/m.exec(text);
  if (mocha) return text.slice(mocha.index).split("\n").slice(0, 40);
  const lines = text.split("\n");
  /** @type {string[]} */
  const found = [];
  lines.forEach((line, index) => {
    if (!/(^|\] )\s*not ok\b/.test(line) || /# SKIP/.test(line)) return;
    found.push(line);
    // TAP's YAML block after it: its location and error (a `|-` error's text is on the lines below).
    const block = lines.slice(index + 1, index + 16);
    const end = block.findIndex((next) => /^\s*(not )?ok\b|^\s*\.\.\.$/.test(next));
    found.push(...(end < 0 ? block : block.slice(0, end)).filter((next) => !/^\s*(---|duration_ms|type|failureType|code):?/.test(next)).slice(0, 8));
  });
  return found.slice(0, 40);
}

/** The running stage's child, killed as a group on Ctrl+C. @type {import("node:child_process").ChildProcess | null} */
let current = null;
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    if (current) killGroup(current);
    console.log(`\n[test] ${signal}: stopped`);
    process.exit(130);
  });
}

/** Kills `child`'s process group (it runs `detached`, so its own group). @param {import("node:child_process").ChildProcess} child */
function killGroup(child) {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
  } catch {
    // already gone
  }
}

/**
 * Runs a command in its own process group with its output streamed through; resolves to `{ code, output }`
 * (stdout as text). After `timeoutMs` (ms) the whole group is killed and the stage fails.
 * @param {string} command
 * @param {string[]} args
 * @param {number} timeoutMs
 * @returns {Promise<{ code: number | null, output: string }>}
 */
function run(command, args, timeoutMs) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"], env: process.env, detached: true });
    current = child;
    /** @type {Buffer[]} */
    const chunks = [];
    const timer = setTimeout(() => {
      console.error(`[test] ${command} ${args.join(" ")}: no end after ${timeoutMs / 60_000} min, killed`);
      killGroup(child);
    }, timeoutMs);
    child.stdout.on("data", (chunk) => {
      chunks.push(chunk);
      process.stdout.write(chunk);
    });
    child.stderr.on("data", (chunk) => process.stderr.write(chunk));
    const done = (/** @type {number | null} */ code) => {
      clearTimeout(timer);
      current = null;
      resolve({ code, output: Buffer.concat(chunks).toString() });
    };
    child.on("error", (error) => {
      console.error(`[test] ${command}: ${error.message}`);
      done(1);
    });
    child.on("close", (code, signal) => done(signal ? 1 : code));
  });
}

const MINUTE = 60_000;

/** Seconds since `started` (ms since the epoch). @param {number} started */
function since(started) {
  return (Date.now() - started) / 1000;
}

/** A stage's heading in the log. @param {string} stage */
function banner(stage) {
  console.log(`\n===== ${stage} =====`);
}

/** A stage that passes or fails as a whole (build, typecheck, lint). @param {string} stage @param {string} command @param {string[]} args */
async function check(stage, command, args) {
  banner(stage);
  const started = Date.now();
  const { code } = await run(command, args, 5 * MINUTE);
  const ok = code === 0;
  summary.push({ stage, passed: ok ? 1 : 0, failed: ok ? 0 : 1, seconds: since(started), note: ok ? "" : `exit ${code}` });
  return code === 0;
}

/** Test files of a folder whose names end with `suffix`, relative to the repo, sorted. @param {string} folder @param {string} suffix */
function testFiles(folder, suffix) {
  const dir = path.join(root, folder);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(suffix))
    .sort()
    .map((name) => path.posix.join(folder, name));
}

/**
 * `node --test` over `files`: spec reporter to the console, TAP to test-results/<stage>.tap for the counts
 * (`# pass N`, `# fail N`, `# cancelled N`). A non-zero exit with no counted failure counts as one failure.
 * @param {string} stage
 * @param {string[]} files
 * @param {string[]} [preArgs]
 */
async function nodeTests(stage, files, preArgs = []) {
  banner(stage);
  const started = Date.now();
  if (files.length === 0) {
    console.log(`[test] ${stage}: no test files, skipped`);
    summary.push({ stage, passed: 0, failed: 0, seconds: since(started), note: "no tests" });
    return;
  }
  fs.mkdirSync(resultsDir, { recursive: true });
  const tapFile = path.join(resultsDir, `${stage}.tap`);
  fs.rmSync(tapFile, { force: true });
  const { code } = await run(node, [
    ...preArgs,
    "--test",
    "--test-reporter=spec",
    "--test-reporter-destination=stdout",
    "--test-reporter=tap",
    `--test-reporter-destination=${tapFile}`,
    ...files,
    // A guard against a stage that hangs, not a time limit: the webview stage alone runs 20+ files in Chromium (about
    // 6 min on 2 idle cores, much more on a loaded machine).
  ], 30 * MINUTE);
  const tap = fs.existsSync(tapFile) ? fs.readFileSync(tapFile, "utf8") : "";
  const count = (/** @type {string} */ name) => Number(new RegExp(`^# ${name} (\\d+)$`, "m").exec(tap)?.[1] ?? 0);
  const passed = count("pass");
  // Skipped and todo tests pass in TAP's count of failures but did not run: the summary says how many.
  const skipped = count("skipped") + count("todo");
  let failed = count("fail") + count("cancelled");
  let note = "";
  if (code !== 0 && failed === 0) {
    failed = 1;
    note = `exit ${code} without a counted failure`;
  }
  if (failed > 0) failures.push({ stage, lines: failureLines(tap) });
  summary.push({ stage, passed, failed, skipped, seconds: since(started), note });
}

/** The integration harness prints `integration: N passed, N failed` as its last count line. */
async function integration() {
  banner("integration");
  const started = Date.now();
  // A first install of code-server takes 3 to 4 minutes on 2 cores.
  const tools = await run(node, ["scripts/tools.mjs", "ensure"], 20 * MINUTE);
  if (tools.code !== 0) {
    summary.push({ stage: "integration", passed: 0, failed: 1, seconds: since(started), note: "no tools (see above)" });
    return;
  }
  // Seven runs: the main suite, Workspace Trust on with the folder untrusted, a window reload in the middle of an
  // answer, and channels in editor tabs restored after a reload (the last two: two extension hosts, one after the
  // other); Claude Code and Codex in the real editor against the scripted model server (realagents, with a reload
  // too); then `npm start`'s browser demo when a tab goes away (runClosedTab.mjs: a new tab gets the history once
  // the gone tab's extension host ends) and `npm start -- --real-agents` as a user runs it, stopped by Ctrl+C
  // (runStartRealAgents.mjs). The harness has its own timeout (5 min, realagents 15); this one only catches a
  // harness that hangs itself.
  let passed = 0;
  let failed = 0;
  const notes = [];
  const runs = [[], ["--suite", "trust"], ["--suite", "reload"], ["--suite", "panel"], ["--suite", "worktrees"], ["--suite", "realagents"]].map((args) => ["test/integration/runCodeServer.mjs", ...args]);
  for (const args of [...runs, ["test/integration/runClosedTab.mjs"], ["test/integration/runStartRealAgents.mjs"]]) {
    const { code, output } = await run(node, args, args.includes("realagents") || args[0].endsWith("runStartRealAgents.mjs") ? 20 * MINUTE : 10 * MINUTE);
    const counts = [...output.matchAll(/^integration: (\d+) passed, (\d+) failed$/gm)].at(-1);
    passed += counts ? Number(counts[1]) : 0;
    const runFailed = counts ? Number(counts[2]) : 0;
    failed += runFailed;
    if (runFailed > 0 || code !== 0) failures.push({ stage: `integration ${args.slice(0, 3).join(" ")}`, lines: failureLines(output) });
    if (code !== 0 && runFailed === 0) {
      failed += 1;
      const name = args[0].endsWith("runClosedTab.mjs") ? "closed-tab" : args[0].endsWith("runStartRealAgents.mjs") ? "start-real-agents" : (args[2] ?? "main");
      notes.push(`${name} run: ${counts ? `exit ${code}` : `exit ${code} without counts`}`);
    }
  }
  summary.push({ stage: "integration", passed, failed, seconds: since(started), note: notes.join("; ") });
}

/**
 * The installed package (issue 8): `npm run package` builds the linux-x64 .vsix (its seconds go in the note), then the
 * .vsix suite installs it into code-server with `--install-extension` and runs against the installed copy
 * (`runCodeServer.mjs --suite vsix`, which prints `integration: N passed, N failed` like the other runs).
 */
async function vsix() {
  banner("vsix");
  const started = Date.now();
  const tools = await run(node, ["scripts/tools.mjs", "ensure"], 20 * MINUTE);
  if (tools.code !== 0) {
    summary.push({ stage: "vsix", passed: 0, failed: 1, seconds: since(started), note: "no tools (see above)" });
    return;
  }
  const packaging = Date.now();
  const packaged = await run(node, ["scripts/package.mjs"], 5 * MINUTE);
  const packageNote = `package ${since(packaging).toFixed(1)} s`;
  if (packaged.code !== 0) {
    summary.push({ stage: "vsix", passed: 0, failed: 1, seconds: since(started), note: `npm run package: exit ${packaged.code}` });
    return;
  }
  const { code, output } = await run(node, ["test/integration/runCodeServer.mjs", "--suite", "vsix"], 10 * MINUTE);
  const counts = [...output.matchAll(/^integration: (\d+) passed, (\d+) failed$/gm)].at(-1);
  const passed = counts ? Number(counts[1]) : 0;
  let failed = counts ? Number(counts[2]) : 0;
  if (failed > 0 || code !== 0) failures.push({ stage: "vsix", lines: failureLines(output) });
  let note = packageNote;
  if (code !== 0 && failed === 0) {
    failed = 1;
    note += `; ${counts ? `exit ${code}` : `exit ${code} without counts`}`;
  }
  summary.push({ stage: "vsix", passed, failed, seconds: since(started), note });
}

/**
 * The crash suite (test/crash, issue 5): the channel core killed at ≥ 1,000 kill points, each recovered and checked.
 * Each kill point counts as one test; its last line is `kill points: N, violations: V`.
 */
async function crash() {
  banner("crash");
  const started = Date.now();
  const { code, output } = await run(node, ["--import", "tsx", "test/crash/run.ts"], 15 * MINUTE);
  const counts = [...output.matchAll(/^kill points: (\d+), violations: (\d+)$/gm)].at(-1);
  const points = counts ? Number(counts[1]) : 0;
  let failed = counts ? Number(counts[2]) : 0;
  let note = "";
  if (code !== 0 && failed === 0) {
    failed = 1;
    note = `exit ${code}${counts ? "" : " without counts"}`;
  }
  summary.push({ stage: "crash", passed: Math.max(0, points - failed), failed, seconds: since(started), note });
}

/**
 * The fuzz suite (test/fuzz, issue 17): randomised and malformed agent streams through the channel core. Each stream
 * counts as one test; each crash, hang, lost message or misread ending as one failure. Its last line is
 * `streams: N, crashes: C, hangs: H, lost: L, heap growth: X MB, misread endings: M`.
 */
async function fuzz() {
  banner("fuzz");
  const started = Date.now();
  const { code, output } = await run(node, ["--expose-gc", "--import", "tsx", "test/fuzz/run.ts"], 10 * MINUTE);
  const counts = [...output.matchAll(/^streams: (\d+), crashes: (\d+), hangs: (\d+), lost: (\d+), heap growth: (-?[\d.]+) MB, misread endings: (\d+)$/gm)].at(-1);
  const streams = counts ? Number(counts[1]) : 0;
  let failed = counts ? Number(counts[2]) + Number(counts[3]) + Number(counts[4]) + Number(counts[6]) : 0;
  let note = counts ? `heap growth ${counts[5]} MB` : "";
  if (failed > 0) failures.push({ stage: "fuzz", lines: output.split("\n").filter((l) => /^(crashes|hangs|lost|misread): /.test(l)).slice(0, 40) });
  if (code !== 0 && failed === 0) {
    failed = 1;
    note = `exit ${code}${counts ? "" : " without counts"}`;
  }
  summary.push({ stage: "fuzz", passed: Math.max(0, streams - failed), failed, seconds: since(started), note });
}

/**
 * The store faults suite (test/faults, issue 17): damaged, full, read-only and locked stores opened through the real
 * open path. Each fault kind counts as one test; each message lost that a repair could have kept, and each file of a
 * damaged original deleted, as one failure. Its last line is `store faults: N kinds, lost: L, deleted: D`.
 */
async function faults() {
  banner("faults");
  const started = Date.now();
  const { code, output } = await run(node, ["--import", "tsx", "test/faults/run.ts"], 5 * MINUTE);
  const counts = [...output.matchAll(/^store faults: (\d+) kinds, lost: (\d+), deleted: (\d+)$/gm)].at(-1);
  const kinds = counts ? Number(counts[1]) : 0;
  let failed = counts ? Number(counts[2]) + Number(counts[3]) : 0;
  const checks = output.split("\n").filter((l) => l.startsWith("failed: "));
  let note = "";
  if (failed > 0 || checks.length > 0) failures.push({ stage: "faults", lines: [...checks, ...output.split("\n").filter((l) => /: lost [1-9]|deleted [1-9]/.test(l))].slice(0, 40) });
  if (code !== 0 && failed === 0) {
    failed = Math.max(1, checks.length);
    note = `exit ${code}${counts ? "" : " without counts"}`;
  }
  summary.push({ stage: "faults", passed: Math.max(0, kinds - failed), failed, seconds: since(started), note });
}

/** Real ACP agents (claude-agent-acp, codex-acp, Gemini CLI) running full turns through the manager against the scripted model server (test/fixtures/model-server.mjs); they are installed into .tools/ first. */
async function realAgents() {
  const tools = await run(node, ["scripts/tools.mjs", "ensure"], 20 * MINUTE);
  if (tools.code !== 0) {
    banner("realagents");
    summary.push({ stage: "realagents", passed: 0, failed: 1, seconds: 0, note: "no tools (see above)" });
    return;
  }
  await nodeTests("realagents", testFiles("test/realagents", ".test.ts"), ["--import", "tsx"]);
}

const all = ["build", "typecheck", "lint", "unit", "crash", "fuzz", "faults", "webview", "integration", "vsix", "realagents"];
const stages = new Set(process.env.SIDEKICKS_TEST_STAGES ? process.env.SIDEKICKS_TEST_STAGES.split(",") : all);

let built = true;
if (stages.has("build")) built = await check("build", node, ["scripts/build.mjs"]);
if (stages.has("typecheck")) await check("typecheck", npm, ["run", "--silent", "typecheck"]);
if (stages.has("lint")) await check("lint", npm, ["run", "--silent", "lint"]);
if (stages.has("unit")) await nodeTests("unit", testFiles("test/unit", ".test.ts"), ["--import", "tsx"]);
if (stages.has("crash")) await crash();
if (stages.has("fuzz")) await fuzz();
if (stages.has("faults")) await faults();
for (const stage of ["webview", "integration", "vsix"]) {
  if (!stages.has(stage)) continue;
  if (!built) {
    banner(stage);
    console.log(`[test] ${stage}: skipped, the build failed`);
    summary.push({ stage, passed: 0, failed: 0, seconds: 0, note: "skipped: build failed" });
  } else if (stage === "webview") {
    await nodeTests("webview", testFiles("test/webview", ".test.mjs"));
  } else if (stage === "integration") {
    await integration();
  } else {
    await vsix();
  }
}
if (stages.has("realagents")) await realAgents();

if (failures.length > 0) {
  banner("failures");
  for (const { stage, lines } of failures) {
    console.log(`--- ${stage}`);
    console.log(lines.length > 0 ? lines.join("\n") : "(no failure report in its output: see the stage above)");
  }
}

banner("summary");
let passed = 0;
let failed = 0;
let skipped = 0;
for (const row of summary) {
  const rowSkipped = row.skipped ?? 0;
  passed += row.passed;
  failed += row.failed;
  skipped += rowSkipped;
  console.log(
    `${row.stage.padEnd(12)} ${String(row.passed).padStart(4)} passed ${String(row.failed).padStart(4)} failed` +
      ` ${String(rowSkipped).padStart(4)} skipped ${row.seconds.toFixed(1).padStart(6)} s${row.note ? `  (${row.note})` : ""}`,
  );
}
// Skipped tests are counted, never hidden: on the line before the last, which stays exactly `N passed, N failed`
// (.ci/run's last line, read as such).
console.log(`${skipped} skipped (each says why above)`);
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;
