// @ts-check
// Builds the .vsix for one platform target with @vscode/vsce (issue 8): `npm run package [-- --target <t>]`,
// default linux-x64. Targets: linux-x64 (node-pty compiled here), darwin-arm64, darwin-x64, win32-x64 (node-pty's and
// classic-level's own prebuilt binaries for that platform). The host bundle is built with --production first.
//
// Native modules ship from node_modules, pruned per target: node-pty keeps its JavaScript and the one binary the
// target loads; classic-level keeps its JavaScript and its prebuild for the target; sources, build intermediates,
// debug symbols and other platforms' binaries stay out (`.vscodeignore` + the per-target lines written here).
// Output: dist/sidekicks-<version>-<target>.vsix; prints its size in bytes.
import { execFileSync } from "node:child_process";
import { readFileSync, statSync, writeFileSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const args = process.argv.slice(2);
const target = args.includes("--target") ? args[args.indexOf("--target") + 1] : "linux-x64";

/** Per target: the node-pty binary folder it loads, and classic-level's prebuild folder. * @type {Record<string, { pty: string, level: string }>}
 */
const TARGETS = {
  "linux-x64": { pty: "build/Release", level: "linux-x64" },
  "darwin-arm64": { pty: "prebuilds/darwin-arm64", level: "darwin-x64+arm64" },
  "darwin-x64": { pty: "prebuilds/darwin-x64", level: "darwin-x64+arm64" },
  "win32-x64": { pty: "prebuilds/win32-x64", level: "win32-x64" },
};
const plan = TARGETS[target];
if (!plan) {
  console.error(`package: unknown target ${target}; one of ${Object.keys(TARGETS).join(", ")}`);
  process.exit(2);
}
if (target === "linux-x64" && (os.platform() !== "linux" || os.arch() !== "x64")) {
  console.error("package: linux-x64 ships the node-pty binary compiled by npm install, so it must be built on linux-x64");
  process.exit(2);
}

const ignore = [
  readFileSync(path.join(root, ".vscodeignore"), "utf8"),
  "# per target (scripts/package.mjs)",
  "node_modules/node-addon-api/**",
  "node_modules/node-pty/{deps,src,third_party,scripts,typings,node-addon-api}/**",
  "node_modules/node-pty/{binding.gyp,README.md}",
  "node_modules/node-pty/lib/**/*.map",
  "node_modules/node-pty/lib/**/*.test.js",
  "node_modules/node-pty/build/**",
  "node_modules/node-pty/prebuilds/**",
  // vsce re-includes whatever a negated pattern matches, so the negations name only what the target loads.
  `!node_modules/node-pty/${plan.pty}/**/*.{node,exe,dll}`,
  `!node_modules/node-pty/${plan.pty}/spawn-helper`,
  "node_modules/classic-level/deps/**",
  "node_modules/classic-level/{binding.cc,binding.gyp,CHANGELOG.md,UPGRADING.md,README.md}",
  "node_modules/classic-level/prebuilds/**",
  `!node_modules/classic-level/prebuilds/${plan.level}/*.node`,
  "node_modules/**/{CHANGELOG,UPGRADING}.md",
  "node_modules/**/*.d.ts",
].join("\n");
const tmp = mkdtempSync(path.join(os.tmpdir(), "sidekicks-package-"));
const ignoreFile = path.join(tmp, ".vscodeignore");
writeFileSync(ignoreFile, ignore + "\n");

const { version } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
const out = path.join(root, "dist", `sidekicks-${version}-${target}.vsix`);
/** @param {string} cmd @param {string[]} cmdArgs */
const run = (cmd, cmdArgs) => execFileSync(cmd, cmdArgs, { cwd: root, stdio: "inherit" });
try {
  run(process.execPath, [path.join(root, "scripts/build.mjs"), "--production"]);
  run(process.execPath, [
    path.join(root, "node_modules/@vscode/vsce/vsce"),
    "package",
    "--target", target,
    "--ignoreFile", ignoreFile,
    "--no-rewrite-relative-links",
    "--allow-missing-repository",
    "--out", out,
  ]);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
console.log(`vsix: ${path.relative(root, out)} ${statSync(out).size} bytes`);
