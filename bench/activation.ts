/**
 * activation.ms — time spent in `activate` (target ≤ 20 ms), median of fresh processes, each loading the built
 * `dist/extension.js` against a stand-in `vscode` module (bench/activationChild.cjs) on a workspace whose
 * sidekicks.yaml declares the demo agent: views, commands and the channel tabs' serializer registered; the app's start
 * (roster read and validated, history store opened) runs after `activate` returned and is measured apart as
 * `activation.readyMs` (from the call of `activate` until the app is ready); no agent process starts. Also the time to
 * load the bundle (`activation.loadMs`), and the sizes:
 * `webview.bundleBytes` (dist/webview.js + dist/webview.css) and `vsix.bytes` for linux-x64 (target ≤ 3 MB), both
 * from a production build (`npm run package`).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { tempDir } from "../test/unit/helpers";
import { median } from "./stats";

const ROOT = path.resolve(__dirname, "..");
const RUNS = Number(process.env.BENCH_ACTIVATION_RUNS ?? 9);

/** Builds the linux-x64 package (production bundles) and measures activation and sizes. */
export async function activationFigures(): Promise<Record<string, number | string>> {
  execFileSync(process.execPath, [path.join(ROOT, "scripts/package.mjs"), "--target", "linux-x64"], { cwd: ROOT, stdio: "ignore" });
  const vsix = readdirSync(path.join(ROOT, "dist")).find((f) => f.endsWith("-linux-x64.vsix"))!;
  const { dir, cleanup } = tempDir("sidekicks-activation-");
  try {
    const workspace = path.join(dir, "workspace");
    mkdirSync(workspace);
    writeFileSync(path.join(workspace, "sidekicks.yaml"), "version: 1\nagents:\n  - name: demo\n    command: sidekicks:demo\n");
    const samples: { loadMs: number; activateMs: number; readyMs: number }[] = [];
    for (let i = 0; i < RUNS; i++) {
      const out = execFileSync(process.execPath, [path.join(__dirname, "activationChild.cjs"), ROOT, workspace, path.join(dir, `storage-${i % 2}`)], { encoding: "utf8" });
      samples.push(JSON.parse(out.trim().split("\n").pop()!));
    }
    const round1 = (x: number) => Math.round(x * 10) / 10;
    return {
      "activation.ms": round1(median(samples.map((s) => s.activateMs))),
      "activation.loadMs": round1(median(samples.map((s) => s.loadMs))),
      "activation.readyMs": round1(median(samples.map((s) => s.readyMs))),
      "activation.target": "≤ 20",
      "webview.bundleBytes": statSync(path.join(ROOT, "dist/webview.js")).size + statSync(path.join(ROOT, "dist/webview.css")).size,
      "vsix.bytes": statSync(path.join(ROOT, "dist", vsix)).size,
      "vsix.target": "≤ 3 MB",
    };
  } finally {
    cleanup();
    // Leave the development bundles (with source maps) in place for the tests that follow.
    execFileSync(process.execPath, [path.join(ROOT, "scripts/build.mjs")], { cwd: ROOT, stdio: "ignore" });
  }
}

if (require.main === module) void activationFigures().then((r) => console.log(r));
