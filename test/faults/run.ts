/**
 * `npm run test:faults` (issue 17): store faults. Each kind writes a real history (test/faults/history.ts: a few
 * hundred messages across four channels through the real `Store` API) in a temp folder, damages it the way a disk, a
 * crash or a second process does, opens it through the real open path (`Store.open`, then `#general` synced, the
 * channels listed and read as the app reads them) and counts what a user would lose:
 * - **lost**: messages a repair could have kept (LevelDB's `RepairDB` on a copy taken right after the fault, counting
 *   the records that still parse) that the opened history does not show; for the disk-full kind, also every commit
 *   that reported success and is gone after a reopen;
 * - **deleted**: files of the damaged original that are not, byte for byte, in the folder it was moved aside to (and,
 *   for a folder opened in place, its tables that disappeared).
 * Each kind also checks what the user is told (the error's code). Prints one line per kind, then exactly
 * `store faults: N kinds, lost: L, deleted: D`; exits 1 when L + D > 0 or a check failed.
 *
 * Run with `node --import tsx test/faults/run.ts`. FAULTS_ONLY=kind,kind runs some kinds only.
 */
import { spawn } from "node:child_process";
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, statSync, truncateSync, writeSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ClassicLevel } from "classic-level";
import { journalOf } from "../../src/store/openLevel";
import { keys } from "../../src/store/records";
import type { SidekicksError } from "../../src/shared/errors";
import type { CommitReport } from "./child";
import { asideFolders, buildHistory, missingFrom, repairableMessages, snapshot, visibleHistory, type Written } from "./history";

const ROOT = path.resolve(__dirname, "../..");
const CHILD = path.join(__dirname, "child.ts");
const failures: string[] = [];
const fail = (kind: string, why: string) => failures.push(`${kind}: ${why}`);

/** What one kind counted. */
interface Outcome {
  lost: number;
  deleted: number;
  line: string;
}

/** A kind: its name and its run in a fresh temp folder `root` (the store at `root/store`). */
type Kind = [name: string, run: (root: string, dir: string) => Promise<Outcome>];

const files = (dir: string, pattern: RegExp) => readdirSync(dir).filter((f) => pattern.test(f)).map((f) => path.join(dir, f));
const only = (dir: string, pattern: RegExp) => {
  const found = files(dir, pattern).sort((a, b) => statSync(b).size - statSync(a).size);
  if (!found[0]) throw new Error(`no file ${pattern} in ${dir}`);
  return found[0];
};
/** Writes `bytes` of 0x5a at a third of `file`'s length. */
function garbage(file: string, bytes = 4096): void {
  const fd = openSync(file, "r+");
  try {
    writeSync(fd, Buffer.alloc(bytes, 0x5a), 0, bytes, Math.floor(statSync(file).size / 3));
  } finally {
    closeSync(fd);
  }
}

/**
 * A fault on the files of a closed store: the baseline (what a repair keeps) is taken right after it, then the
 * history is opened. `aside`: the open must set the original aside and open a repaired copy; else it opens in place.
 */
function damage(name: string, fault: (dir: string, written: Written) => Promise<void> | void, expect: "aside" | "inPlace"): Kind {
  return [
    name,
    async (root, dir) => {
      const written = await buildHistory(dir);
      await fault(dir, written);
      const before = snapshot(dir);
      const repairable = await repairableMessages(dir, root);
      return openAndCount(name, root, dir, written, before, repairable, expect);
    },
  ];
}

async function openAndCount(name: string, root: string, dir: string, written: Written, before: Map<string, string>, repairable: number, expect: "aside" | "inPlace"): Promise<Outcome> {
  const visible = await visibleHistory(dir);
  const lost = Math.max(0, repairable - visible.total);
  const asides = asideFolders(dir);
  let deleted = 0;
  if (expect === "aside") {
    if (asides.length !== 1) fail(name, `${asides.length} folders set aside, expected 1`);
    if (!visible.recovery) fail(name, "opened without saying it repaired anything");
    else if (visible.recovery.messages !== visible.total) fail(name, `the repair reports ${visible.recovery.messages} messages, the channels show ${visible.total}`);
    if (existsSync(journalOf(dir))) fail(name, "the repair journal is still there");
    deleted = asides[0] ? missingFrom(before, snapshot(asides[0])).length : before.size;
  } else {
    if (asides.length > 0) fail(name, `a healthy-looking folder was set aside (${asides.length})`);
    if (visible.recovery) fail(name, "reported a repair of a folder it should open in place");
    const tables = new Map([...before].filter(([file]) => /\.(ldb|sst)$/.test(file)));
    deleted = missingFrom(tables, snapshot(dir)).length;
    if (visible.generalId !== written.generalId) fail(name, "#general got a new id: its messages are hidden");
  }
  return { lost, deleted, line: `written ${written.total}, repairable ${repairable}, shown ${visible.total}${visible.corrupt.length ? `, ${visible.corrupt.length} records reported` : ""}` };
}

/** Runs `node --import tsx child.ts …args`, optionally through `wrapper` (a mount namespace). */
function child(args: string[], wrapper: string[] = []): { done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string }>; proc: ReturnType<typeof spawn>; line: Promise<string> } {
  const command = [...wrapper, process.execPath, "--import", "tsx", CHILD, ...args];
  const proc = spawn(command[0]!, command.slice(1), { cwd: ROOT, stdio: ["pipe", "pipe", "inherit"] });
  let stdout = "";
  let firstLine: (line: string) => void = () => undefined;
  const line = new Promise<string>((resolve) => (firstLine = resolve));
  proc.stdout!.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
    if (stdout.includes("\n")) firstLine(stdout.slice(0, stdout.indexOf("\n")));
  });
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string }>((resolve) => proc.on("close", (code, signal) => resolve({ code, signal, stdout })));
  void done.then(({ stdout: out }) => firstLine(out.split("\n")[0] ?? ""));
  return { done, proc, line };
}

const NO_NAMESPACE = "no output: this kind mounts a small tmpfs (or a read-only bind mount) in a mount namespace of its own (`unshare -m` as root, `unshare -rm` otherwise); see the error above";

/** The last line of a child's output as JSON (`{}` when there is none). */
function parseLast(stdout: string): unknown {
  const last = stdout.trim().split("\n").at(-1);
  return last ? JSON.parse(last) : {};
}

/** `unshare` into a mount namespace of its own (a user namespace too when not root), running `script` first. */
function namespaced(script: string, ...args: string[]): string[] {
  const ns = process.getuid?.() === 0 ? ["unshare", "-m"] : ["unshare", "-rm"];
  return [...ns, "sh", "-c", `${script} && shift && exec "$@"`, "sh", ...args];
}

async function expectError(name: string, dir: string, code: SidekicksError["code"]): Promise<void> {
  try {
    await visibleHistory(dir);
    fail(name, `opened, expected ${code}`);
  } catch (err) {
    const e = err as SidekicksError;
    if (e.code !== code) fail(name, `${e.code ?? "no code"} (${e.message}), expected ${code}`);
    if (/LEVEL_[A-Z_]+/.test(e.message)) fail(name, `a raw LevelDB code reaches the user: ${e.message}`);
  }
}

const REPAIR_STEPS = ["journal", "aside", "copied", "repairing", "repaired", "renamed"];

const kinds: Kind[] = [
  damage("missing CURRENT", (dir) => rmSync(path.join(dir, "CURRENT")), "aside"),
  damage("missing MANIFEST", (dir) => rmSync(only(dir, /^MANIFEST-\d+$/)), "aside"),
  damage("missing table", (dir) => rmSync(only(dir, /\.ldb$/)), "aside"),
  damage("garbage in the log", (dir) => garbage(only(dir, /\.log$/)), "aside"),
  damage("truncated log", (dir) => truncateSync(only(dir, /\.log$/), Math.floor(statSync(only(dir, /\.log$/)).size / 2)), "inPlace"),
  [
    "garbage table",
    async (root, dir) => {
      const written = await buildHistory(dir);
      garbage(only(dir, /\.ldb$/));
      const repairable = await repairableMessages(dir, root);
      // The footer is intact, so the open finds nothing; the first read of the damaged block does.
      await expectError("garbage table", dir, "store/damaged");
      return openAndCount("garbage table", root, dir, written, snapshot(dir), repairable, "aside");
    },
  ],
  damage(
    "corrupt record",
    async (dir, written) => {
      const db = new ClassicLevel<string, string>(dir);
      const keysOfGeneral = await db.keys({ gte: keys.messagePrefix(written.generalId), lt: keys.messagePrefix(written.generalId) + "\uffff", limit: 3 }).all();
      await db.put(keysOfGeneral[2]!, "{not json");
      await db.close();
    },
    "inPlace",
  ),
  damage(
    "corrupt channel record",
    async (dir, written) => {
      const db = new ClassicLevel<string, string>(dir);
      await db.put(keys.channel(written.generalId), "\u0000\u0001 not a channel");
      await db.close();
    },
    "inPlace",
  ),
  [
    "disk full mid-commit",
    async (root) => {
      const mnt = path.join(root, "mnt");
      const out = path.join(root, "out");
      mkdir(mnt);
      const run = child(["diskFull", path.join(mnt, "store"), out], namespaced('mount -t tmpfs -o size=3m tmpfs "$1"', mnt));
      const { code, stdout } = await run.done;
      const result = parseLast(stdout) as { reports?: CommitReport[]; crashed?: string };
      if (!stdout.trim()) fail("disk full mid-commit", NO_NAMESPACE);
      if (!result.reports) {
        fail("disk full mid-commit", `the child did not report (exit ${code}): ${result.crashed ?? stdout}`);
        return { lost: 0, deleted: 0, line: "not run" };
      }
      const reports = result.reports;
      const firstFailure = reports.findIndex((r) => !r.ok);
      if (firstFailure < 0) fail("disk full mid-commit", "the disk never filled");
      else if (reports[firstFailure]!.code !== "store/writeFailed") fail("disk full mid-commit", `the failed commit said ${reports[firstFailure]!.code}`);
      const falseSuccesses = reports.filter((r, i) => r.ok && firstFailure >= 0 && i > firstFailure).length;
      const acknowledged = reports.filter((r) => r.ok).length;
      const before = snapshot(out);
      const repairable = await repairableMessages(out, root);
      const visible = await visibleHistory(out);
      const expected = 50 + acknowledged; // buildHistory(200) puts a quarter in #general, the commits go there too
      const shown = visible.byChannel.get("general") ?? 0;
      const lost = Math.max(0, expected - shown, repairable - visible.total);
      const tables = new Map([...before].filter(([file]) => /\.(ldb|sst)$/.test(file)));
      return {
        lost,
        deleted: missingFrom(tables, snapshot(out)).length,
        line: `${acknowledged} commits reported saved, ${reports.length - acknowledged} refused (${falseSuccesses} reported saved after the first failure); #general shows ${shown} of ${expected} after a reopen`,
      };
    },
  ],
  [
    "read-only folder",
    async (_root, dir) => {
      const written = await buildHistory(dir);
      const before = snapshot(dir);
      const run = child(["open", dir], namespaced('mount --bind "$1" "$1" && mount -o remount,bind,ro "$1"', dir));
      const { stdout } = await run.done;
      const result = parseLast(stdout) as { ok?: boolean; code?: string; message?: string };
      if (!stdout.trim()) fail("read-only folder", NO_NAMESPACE);
      if (result.ok !== false || result.code !== "store/unavailable") fail("read-only folder", `open said ${stdout.trim()}, expected store/unavailable`);
      if (asideFolders(dir).length > 0) fail("read-only folder", "a read-only folder was set aside as damaged");
      const deleted = missingFrom(before, snapshot(dir)).length;
      const visible = await visibleHistory(dir); // writable again
      return { lost: Math.max(0, written.total - visible.total), deleted, line: `refused: ${result.code}; writable again: shown ${visible.total} of ${written.total}` };
    },
  ],
  [
    "second process",
    async (_root, dir) => {
      const written = await buildHistory(dir);
      const holder = child(["hold", dir]);
      if ((await holder.line) !== "open") fail("second process", "the holder did not open the store");
      const before = new Set(snapshot(dir).keys());
      await expectError("second process", dir, "store/locked");
      if (asideFolders(dir).length > 0) fail("second process", "a locked folder was set aside");
      const deleted = [...before].filter((f) => /\.(ldb|sst)$|^MANIFEST|^CURRENT$/.test(f) && !existsSync(path.join(dir, f))).length;
      holder.proc.stdin!.end();
      await holder.done;
      const visible = await visibleHistory(dir);
      return { lost: Math.max(0, written.total - visible.total), deleted, line: `store/locked while held; after it let go: shown ${visible.total} of ${written.total}` };
    },
  ],
  [
    "damaged while another process holds it",
    async (root, dir) => {
      const name = "damaged while another process holds it";
      const written = await buildHistory(dir);
      const holder = child(["hold", dir]);
      if ((await holder.line) !== "open") fail(name, "the holder did not open the store");
      rmSync(path.join(dir, "CURRENT")); // looks damaged, but a live LevelDB has it: never moved from under it
      await expectError(name, dir, "store/locked");
      if (asideFolders(dir).length > 0) fail(name, "a folder another process holds was set aside");
      holder.proc.stdin!.end();
      await holder.done;
      const before = snapshot(dir);
      const repairable = await repairableMessages(dir, root);
      return openAndCount(name, root, dir, written, before, repairable, "aside");
    },
  ],
  [
    "crash during repair",
    async (root) => {
      let lost = 0;
      let deleted = 0;
      const seen: string[] = [];
      for (const step of REPAIR_STEPS) {
        const dir = path.join(root, step, "store");
        mkdir(path.dirname(dir));
        const written = await buildHistory(dir);
        rmSync(path.join(dir, "CURRENT"));
        const before = snapshot(dir);
        const repairable = await repairableMessages(dir, path.dirname(dir));
        const { signal, stdout } = await child(["repairCrash", dir, step]).done;
        if (signal !== "SIGKILL") fail("crash during repair", `step ${step}: the child was not killed (${stdout.trim()})`);
        const outcome = await openAndCount(`crash during repair at ${step}`, root, dir, written, before, repairable, "aside");
        lost += outcome.lost;
        deleted += outcome.deleted;
        seen.push(`${step}: ${outcome.line.replace(/^written \d+, /, "")}`);
      }
      return { lost, deleted, line: `killed at ${REPAIR_STEPS.length} steps, then opened again — ${seen.join("; ")}` };
    },
  ],
];

function mkdir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
}

async function main(): Promise<void> {
  const started = Date.now();
  const wanted = process.env.FAULTS_ONLY?.split(",");
  let lost = 0;
  let deleted = 0;
  let count = 0;
  for (const [name, run] of kinds) {
    if (wanted && !wanted.includes(name)) continue;
    const root = mkdtempSync(path.join(os.tmpdir(), "sidekicks-faults-"));
    const kindStarted = Date.now();
    try {
      const outcome = await run(root, path.join(root, "store"));
      lost += outcome.lost;
      deleted += outcome.deleted;
      console.log(`${name}: lost ${outcome.lost}, deleted ${outcome.deleted} — ${outcome.line} (${((Date.now() - kindStarted) / 1000).toFixed(1)} s)`);
    } catch (err) {
      fail(name, `threw ${(err as Error).stack ?? String(err)}`);
      console.log(`${name}: threw`);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
    count++;
  }
  for (const line of failures) console.log(`failed: ${line}`);
  console.log(`(${((Date.now() - started) / 1000).toFixed(1)} s)`);
  console.log(`store faults: ${count} kinds, lost: ${lost}, deleted: ${deleted}`);
  process.exitCode = lost + deleted + failures.length > 0 ? 1 : 0;
}

void main();
