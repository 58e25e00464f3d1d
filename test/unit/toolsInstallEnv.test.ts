/**
 * `npm start` on a machine without the tools (a tryout saw it fail): the outer npm passes `npm_config_user_agent`
 * (`node/v20…`) down, the inner `npm install` of code-server took it as its own user agent, and code-server's
 * postinstall refused: "code-server currently requires node v24". The inner install's environment drops it, so the
 * inner npm, run under Node 24, names Node 24 to install scripts. A real npm is asked.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import test from "node:test";
import { tempDir } from "./helpers";

test("the Node 24 install's npm names Node 24 to install scripts, even when run from an outer npm on Node 20", async (t) => {
  // Imported here: the script ends with its command line's top-level await, which a static import would run as CommonJS.
  const script = "../../scripts/tools.mjs";
  const { node24InstallEnv, node24Path } = (await import(script)) as { node24InstallEnv: () => NodeJS.ProcessEnv; node24Path: string };
  if (!existsSync(node24Path)) return t.skip("Node 24 is not installed (node scripts/tools.mjs ensure)");
  const outer = process.env.npm_config_user_agent;
  process.env.npm_config_user_agent = "npm/11.19.1 node/v20.20.2 linux x64 workspaces/false";
  const { dir, cleanup } = tempDir();
  try {
    const env = node24InstallEnv();
    assert.equal(env.npm_config_user_agent, undefined);
    // What an install script of a package sees (code-server's postinstall reads exactly this).
    writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "probe", version: "1.0.0", scripts: { probe: "echo $npm_config_user_agent" } }));
    const agent = execFileSync("npm", ["run", "--silent", "probe"], { cwd: dir, env, encoding: "utf8" }).trim();
    assert.match(agent, /node\/v24\./, `the inner npm's user agent: ${agent}`);
  } finally {
    cleanup();
    if (outer === undefined) delete process.env.npm_config_user_agent;
    else process.env.npm_config_user_agent = outer;
  }
});
