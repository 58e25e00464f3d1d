// @ts-check
// The scripted model server (test/fixtures/model-server.mjs) as a child process of `npm start -- --real-agents`: it
// serves on 127.0.0.1 for as long as its parent lives. It stops on SIGINT/SIGTERM (Ctrl+C reaches it with the
// terminal's process group) and also when its stdin closes — which happens when the parent dies by any means, even
// SIGKILL — so it never outlives `npm start`. Types: modelServerChild.d.mts.
//
// Parent side: `startModelServerChild({ port, logFile })`. Child side: `node scripts/modelServerChild.mjs --serve
// [--port N]` prints one JSON line `{"url": …, "port": …}` once it listens, then one log line per request.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const self = fileURLToPath(import.meta.url);
const serverModule = path.join(path.dirname(self), "..", "test", "fixtures", "model-server.mjs");

/**
 * Starts the model server as a child of this process on `port` (0: a free port the system picks) with `node`
 * (default: this Node). Its request lines are appended to `logFile` when given. Resolves once it listens to
 * `{ url, port, child, stop }`; `stop()` ends it (SIGTERM, then SIGKILL after 3 s) and resolves once it exited; it is
 * also killed when this process exits.
 * @throws Error naming its output when the child exits before it listens (a port that is taken, say), or says nothing
 *   within `timeoutMs` (ms)
 * @type {typeof import("./modelServerChild.mjs").startModelServerChild}
 */
export async function startModelServerChild({ port = 0, logFile, node = process.execPath, timeoutMs = 60_000 } = {}) {
  const child = spawn(node, [self, "--serve", "--port", String(port)], { stdio: ["pipe", "pipe", "pipe"] });
  const onExit = () => child.kill("SIGKILL");
  process.on("exit", onExit);
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const log = logFile ? fs.createWriteStream(logFile, { flags: "a" }) : undefined;
  log?.on("error", () => undefined); // a log that cannot be written is no reason to stop serving
  let output = "";
  const listening = new Promise((resolve, reject) => {
    let buffer = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk) => {
      buffer += chunk;
      let newline;
      while ((newline = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        if (line.startsWith("{")) {
          try {
            resolve(JSON.parse(line));
            continue;
          } catch {
            // not the address line
          }
        }
        log?.write(`${line}\n`);
      }
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk) => {
      output += chunk;
      log?.write(chunk);
    });
    child.once("exit", (code, signal) => reject(new Error(`the scripted model server exited before it listened (${signal ?? `exit ${code}`})${output.trim() ? `: ${output.trim()}` : ""}`)));
    child.once("error", reject);
    setTimeout(() => reject(new Error(`the scripted model server did not listen within ${timeoutMs / 1000} s`)), timeoutMs).unref();
  });
  const stop = async () => {
    process.off("exit", onExit);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 3000);
      await exited;
      clearTimeout(timer);
    }
    log?.end();
  };
  try {
    const address = await listening;
    return { url: address.url, port: address.port, child, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The child: serves until a signal or until its stdin (the pipe from its parent) closes. @param {string[]} argv */
async function serve(argv) {
  const at = argv.indexOf("--port");
  const port = at >= 0 ? Number(argv[at + 1]) : 0;
  const { startModelServer } = await import(serverModule);
  const server = await startModelServer({ port, log: (/** @type {string} */ line) => console.log(`${new Date().toISOString()} ${line}`) });
  console.log(JSON.stringify({ url: server.url, port: server.port }));
  let closing = false;
  const close = () => {
    if (closing) return;
    closing = true;
    void server.close().then(() => process.exit(0));
  };
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, close);
  process.stdin.on("end", close);
  process.stdin.on("close", close);
  process.stdin.resume();
}

if (process.argv[1] && path.resolve(process.argv[1]) === self && process.argv[2] === "--serve") {
  serve(process.argv.slice(3)).catch((error) => {
    console.error(error.message);
    process.exit(1);
  });
}
