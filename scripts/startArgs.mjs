// @ts-check
// `npm start`'s command line and environment, as pure functions (test/unit/startArgs.test.ts): which port the
// browser editor (code-server) takes, and the usage text `npm start -- --help` prints. Types: startArgs.d.mts.

/** The port `npm start` tries first when none is asked for; when it is taken, any free port. */
export const DEFAULT_PORT = 8080;

/** What `npm start -- --help` prints. */
export const START_USAGE = `Usage: npm start [-- options]

Builds Sidekicks and opens a demo workspace (.demo/workspace) with two offline demo agents, demo and odie:
in VS Code when its \`code\` command is on your PATH, otherwise in VS Code in the browser (code-server, installed
into .tools/ on the first run), whose local address is printed. Ctrl+C stops it.

Options:
  --real-agents       real agents instead, offline: Claude Code, Codex and Gemini CLI (installed into .tools/ on
                      the first run, a few minutes) pointed at a scripted model server that npm start runs until
                      it stops; the workspace is .demo/real-agents, whose sidekicks.yaml lists what to try
                      (@claude say hello script:text, @codex work on the notes script:tools, …). No account, no
                      network, nothing of your own Claude, Codex or Gemini settings read or written
  -p, --port <port>   the browser editor's port on 127.0.0.1 (implies the browser editor); if it is taken,
                      npm start stops and says so instead of taking another one
  -h, --help          print this and exit

Environment:
  SIDEKICKS_PORT, PORT         the port, as --port (--port wins, then SIDEKICKS_PORT, then PORT); without one,
                               ${DEFAULT_PORT} when free, else any free port
  SIDEKICKS_EDITOR=code-server the browser editor even when \`code\` is on your PATH
  SIDEKICKS_DEMO_DIR           where the demo workspaces and the browser editor's data go (default: .demo)

Examples:
  npm start
  npm start -- --real-agents
  npm start -- --port 9000
  PORT=9000 npm start
`;

/**
 * Parses a port number given by `source` (a flag or a variable name): an integer from 1 to 65535.
 * @param {unknown} value
 * @param {import("./startArgs.mjs").PortSource} source
 * @returns {{ port: number, error?: undefined } | { error: string, port?: undefined }}
 */
function portOf(value, source) {
  const text = String(value).trim();
  const port = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    return { error: `${source} must be a port number from 1 to 65535, not ${JSON.stringify(String(value))}.` };
  }
  return { port };
}

/**
 * Reads `npm start`'s arguments (`argv`: what follows `npm start --`) and environment (`env`). Without the `--`, npm
 * takes `--port` as its own setting and passes it in `npm_config_port` ("9000" for `--port=9000`, "true" for
 * `--port 9000`, whose number then comes as the first argument): read as --port too.
 *
 * `--real-agents` (npm passes it as `npm_config_real_agents` "true" without the `--`) adds `realAgents: true`.
 *
 * @returns `{ help }` for -h/--help; else `{ port, portFrom }` for an explicit port (`portFrom`: "--port",
 *   "SIDEKICKS_PORT" or "PORT"), or `{}` for none, with `realAgents: true` when asked; `{ error }` (one sentence) for
 *   an unknown argument or a bad port.
 * @type {typeof import("./startArgs.mjs").parseStartArgs}
 */
export function parseStartArgs(argv, env = {}) {
  const options = parseArgs(argv, env);
  if (options.help || options.error) return options;
  return env.npm_config_real_agents === "true" || argv.includes("--real-agents") ? { ...options, realAgents: true } : options;
}

/**
 * `parseStartArgs` without `--real-agents`.
 * @param {readonly string[]} argv
 * @param {Record<string, string | undefined>} env
 * @returns {import("./startArgs.mjs").StartOptions}
 */
function parseArgs(argv, env) {
  let flagPort;
  const npmPort = env.npm_config_port;
  if (npmPort !== undefined && npmPort !== "") {
    const value = npmPort === "true" ? argv[0] : npmPort;
    if (npmPort === "true") argv = argv.slice(1);
    if (value === undefined) return { error: "--port needs a port number, such as npm start -- --port 9000." };
    const parsed = portOf(value, "--port");
    if (parsed.error) return parsed;
    flagPort = parsed.port;
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "-h" || arg === "--help") return { help: true };
    if (arg === "--real-agents") continue;
    const inline = /^--port=(.*)$/.exec(arg);
    if (inline || arg === "--port" || arg === "-p") {
      const value = inline ? inline[1] : argv[++i];
      if (value === undefined || value === "") return { error: `${inline ? "--port" : arg} needs a port number, such as ${arg} 9000.` };
      const parsed = portOf(value, "--port");
      if (parsed.error) return parsed;
      flagPort = parsed.port;
      continue;
    }
    return { error: `Unknown argument ${JSON.stringify(arg)}.` };
  }
  if (flagPort !== undefined) return { port: flagPort, portFrom: "--port" };
  for (const name of /** @type {const} */ (["SIDEKICKS_PORT", "PORT"])) {
    const value = env[name];
    if (value === undefined || value.trim() === "") continue;
    const parsed = portOf(value, name);
    return parsed.error ? parsed : { port: parsed.port, portFrom: name };
  }
  return {};
}
