// @ts-check
// Roster entries for the real ACP agents pointed at the scripted model server (test/fixtures/model-server.mjs): Claude
// Code (claude-agent-acp), Codex (codex-acp) and Gemini CLI (`gemini --experimental-acp`), each with a throwaway HOME
// (and Codex its CODEX_HOME with a config.toml) so nothing of the user's real accounts or settings is read or written.
// ONE implementation of those settings, shared by the real-agent tests (test/realagents/harness.ts, `realAgentConfig`),
// the real-editor suite (`runCodeServer.mjs --suite realagents`) and `npm start -- --real-agents`
// (scripts/realAgentsDemo.mjs). Facts it relies on: ../../shared/REAL-AGENTS-OFFLINE.md. Types: realAgentRoster.d.mts.
// Imports nothing, so TypeScript tests can import it as they are (the caller says where Node 24 and the agents are:
// scripts/tools.mjs `node24Path`, `realAgentEntries`).
import fs from "node:fs";
import path from "node:path";

/** The real agents, by the name their entry gets. */
/** @type {readonly import("./realAgentRoster.mjs").RealAgentName[]} */
export const REAL_AGENTS = ["claude", "codex", "gemini"];

/**
 * Variables of the editor's environment (a roster's `env` is merged over it) that would send an agent to a real
 * account or service instead of the scripted server: blanked, so a developer's own shell settings never reach it.
 */
const BLANKED = {
  claude: ["ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_USE_BEDROCK", "CLAUDE_CODE_USE_VERTEX"],
  codex: ["OPENAI_API_KEY", "OPENAI_BASE_URL"],
  gemini: ["GOOGLE_API_KEY", "GOOGLE_GENAI_USE_VERTEXAI", "GOOGLE_GENAI_USE_GCA", "GOOGLE_CLOUD_PROJECT", "GOOGLE_APPLICATION_CREDENTIALS"],
};

/**
 * A roster entry (`{ name, command, args, env }`, the shape of `agents[]` in sidekicks.yaml) for the real agent
 * `agent` pointed at the model server at `modelUrl` (`http://127.0.0.1:PORT`, no trailing slash), run as
 * `<node> <entry>`. Its state lives under `dir`: `<agent>-home` (HOME, and for Claude CLAUDE_CONFIG_DIR), `<agent>-tmp`
 * (TMPDIR: Claude Code keeps a folder per cwd there, Gemini CLI its error reports) and for Codex `codex-config`
 * (CODEX_HOME, whose config.toml is written here); the folders are created.
 *
 * - Claude Code: ANTHROPIC_BASE_URL, an API key, IS_SANDBOX (it refuses to run as root otherwise, as CI does), no
 *   nonessential traffic, no auto-update, no retries of failed model calls (a fault ends the turn at once instead of
 *   after ten backoffs).
 * - Codex: a model provider `scripted` on the server's Responses API (`<modelUrl>/v1`), model gpt-5.5 (a bundled slug
 *   with exec_command and apply_patch), no retries, the plan tool on, the key in FAKE_MODEL_KEY.
 * - Gemini CLI: GOOGLE_GEMINI_BASE_URL and an API key.
 *
 * @param {"claude" | "codex" | "gemini"} agent
 * @param {{ dir: string, modelUrl: string, node: string, entry: string, name?: string }} options
 * @throws Error for an agent that is not one of REAL_AGENTS
 * @type {typeof import("./realAgentRoster.mjs").realAgentEntry}
 */
export function realAgentEntry(agent, { dir, modelUrl, node, entry, name = agent }) {
  if (!REAL_AGENTS.includes(agent)) throw new Error(`unknown real agent ${JSON.stringify(agent)}: ${REAL_AGENTS.join(", ")}`);
  const home = path.join(dir, `${agent}-home`);
  const tmp = path.join(dir, `${agent}-tmp`);
  fs.mkdirSync(home, { recursive: true });
  fs.mkdirSync(tmp, { recursive: true });
  const blank = Object.fromEntries(BLANKED[agent].map((key) => [key, ""]));
  const base = { name, command: node, args: [entry] };
  if (agent === "gemini") {
    return { ...base, args: [entry, "--experimental-acp"], env: { HOME: home, TMPDIR: tmp, ...blank, GEMINI_API_KEY: "scripted", GOOGLE_GEMINI_BASE_URL: modelUrl } };
  }
  if (agent === "claude") {
    return {
      ...base,
      env: {
        HOME: home,
        TMPDIR: tmp,
        CLAUDE_CONFIG_DIR: path.join(home, ".claude"),
        ...blank,
        ANTHROPIC_BASE_URL: modelUrl,
        ANTHROPIC_API_KEY: "sk-scripted",
        IS_SANDBOX: "1",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        DISABLE_AUTOUPDATER: "1",
        CLAUDE_CODE_MAX_RETRIES: "0",
      },
    };
  }
  const codexHome = path.join(dir, "codex-config");
  fs.mkdirSync(codexHome, { recursive: true });
  fs.writeFileSync(path.join(codexHome, "config.toml"), codexConfig(modelUrl));
  return { ...base, env: { HOME: home, TMPDIR: tmp, CODEX_HOME: codexHome, ...blank, FAKE_MODEL_KEY: "sk-scripted" } };
}

/** Codex's `config.toml`: a model provider on the scripted server's Responses API, no retries, the plan tool on. @type {typeof import("./realAgentRoster.mjs").codexConfig} */
export function codexConfig(modelUrl) {
  return [
    "# Written by Sidekicks (scripts/realAgentRoster.mjs): Codex against the scripted model server, offline.",
    'model = "gpt-5.5"',
    'model_provider = "scripted"',
    'approval_policy = "on-request"',
    'sandbox_mode = "workspace-write"',
    "",
    "[model_providers.scripted]",
    'name = "scripted"',
    `base_url = "${modelUrl}/v1"`,
    'wire_api = "responses"',
    'env_key = "FAKE_MODEL_KEY"',
    "requires_openai_auth = false",
    "stream_max_retries = 0",
    "request_max_retries = 0",
    "",
    "[tools.update_plan]",
    "enabled = true",
    "",
  ].join("\n");
}

/** A YAML double-quoted scalar: JSON strings are valid YAML, so paths with spaces, quotes or `#` stay intact. */
const quote = (/** @type {string} */ value) => JSON.stringify(value);

/**
 * The `agents:` list of a sidekicks.yaml for `entries` (`{ name, command, args, env }`), after `header` (comment lines,
 * each starting with `#`, or none). Every value is quoted, so any path or value reads back as the same string.
 * @type {typeof import("./realAgentRoster.mjs").rosterYaml}
 */
export function rosterYaml(entries, header = []) {
  const lines = [...header, "agents:"];
  for (const entry of entries) {
    lines.push(`  - name: ${entry.name}`, `    command: ${quote(entry.command)}`, `    args: [${entry.args.map(quote).join(", ")}]`);
    const env = Object.entries(entry.env ?? {});
    if (env.length) lines.push("    env:", ...env.map(([key, value]) => `      ${key}: ${quote(value)}`));
  }
  return `${lines.join("\n")}\n`;
}

/** What `notes.txt` holds for `script:tools` (it reads it and replaces alpha with beta), and what that leaves. */
export const NOTES = "alpha\n";
const NOTES_AFTER_TOOLS = "beta\n";

/**
 * The comment block at the top of the real-agents workspace's sidekicks.yaml: what this roster is, the script
 * keywords to try (test/fixtures/model-scripts.mjs has them all) and where each agent keeps its state.
 * @type {typeof import("./realAgentRoster.mjs").realAgentsHeader}
 */
export function realAgentsHeader({ modelUrl, stateDir }) {
  return [
    "# Real agents, offline: Claude Code (claude-agent-acp), Codex (codex-acp) and Gemini CLI, from .tools/, pointed",
    `# at the scripted model server on ${modelUrl} (\`npm start -- --real-agents\` runs it; it stops with npm start).`,
    "# No account, no network: the model's replies are scripts, chosen by a keyword in your message. Try in #general:",
    "#   @claude say hello script:text        streamed thinking, then a short text",
    "#   @codex work on the notes script:tools   reads notes.txt, replaces alpha with beta, writes created.txt, runs",
    "#                                        a command (put alpha back in notes.txt to run it again)",
    "#   @claude script:permission            a command (Claude) or a patch (Codex) that asks permission first: set",
    "#                                        the mode in the header's session button before (Claude: Manual,",
    "#                                        Codex: Read-only); the default modes run it without asking",
    "#   @codex script:plan                   a plan of three steps (Claude and Codex)",
    "#   @claude script:planmode              Claude in Plan mode: approve its plan",
    "#   @claude script:long secs=30          a long command: press Stop",
    "#   @codex script:slow                   a slow answer: reload the window meanwhile, then Retry",
    "#   @claude script:fail                  a command that fails",
    "#   @claude script:delegate member=codex  Claude hands \"count the tests\" to @codex with Sidekicks' delegate",
    "#                                        tool; codex's answer shows nested in Claude's card, with its own Stop",
    "#   @claude @codex script:text           both at once, in one channel",
    "# The full list is at the top of test/fixtures/model-scripts.mjs. Each agent keeps a throwaway HOME (Codex also its",
    `# CODEX_HOME, with its config.toml) in ${stateDir}: none of your real accounts or settings is read`,
    "# or written. npm start rewrites this file when the server's port changes, unless you edited it.",
  ];
}

/**
 * Writes the real-agents workspace into `folder` (created if needed): a sidekicks.yaml declaring `agents` (default:
 * all of REAL_AGENTS) pointed at `modelUrl`, their state under `stateDir` (realAgentEntry; Codex's config.toml is
 * written there every time), and notes.txt for `script:tools`. `node` runs `entries[agent]` (scripts/tools.mjs
 * `node24Path`, `realAgentEntries`).
 *
 * sidekicks.yaml is written when missing or when it still holds what an earlier call wrote (with any model URL); a
 * file its user edited is kept. notes.txt is written when missing or when it holds what `script:tools` leaves.
 *
 * @returns `{ written, kept, keptUrl }`: the file names written, those kept as their user left them, and the model
 *   URL a kept sidekicks.yaml names when it is not `modelUrl` (its agents then call a server that is not there).
 * @type {typeof import("./realAgentRoster.mjs").writeRealAgentsWorkspace}
 */
export function writeRealAgentsWorkspace({ folder, stateDir, modelUrl, node, entries, agents = REAL_AGENTS }) {
  fs.mkdirSync(folder, { recursive: true });
  const roster = agents.map((agent) => realAgentEntry(agent, { dir: stateDir, modelUrl, node, entry: entries[agent] }));
  const yaml = rosterYaml(roster, realAgentsHeader({ modelUrl, stateDir }));
  const written = [];
  const kept = [];
  let keptUrl;
  const yamlFile = path.join(folder, "sidekicks.yaml");
  const now = fs.existsSync(yamlFile) ? fs.readFileSync(yamlFile, "utf8") : undefined;
  const earlierUrl = now === undefined ? undefined : modelUrlOf(now);
  if (now === undefined || (earlierUrl !== undefined && now.replaceAll(earlierUrl, modelUrl) === yaml)) {
    if (now !== yaml) {
      fs.writeFileSync(yamlFile, yaml);
      written.push("sidekicks.yaml");
    }
  } else {
    kept.push("sidekicks.yaml");
    if (earlierUrl !== modelUrl) keptUrl = earlierUrl;
  }
  const notesFile = path.join(folder, "notes.txt");
  const notes = fs.existsSync(notesFile) ? fs.readFileSync(notesFile, "utf8") : undefined;
  if (notes === undefined || notes === NOTES_AFTER_TOOLS) {
    fs.writeFileSync(notesFile, NOTES);
    written.push("notes.txt");
  }
  return { written, kept, keptUrl };
}

/** The scripted model server's URL a real-agents sidekicks.yaml names (its ANTHROPIC_BASE_URL), or undefined. @type {typeof import("./realAgentRoster.mjs").modelUrlOf} */
export function modelUrlOf(yaml) {
  return /ANTHROPIC_BASE_URL: "(http:\/\/127\.0\.0\.1:\d+)"/.exec(yaml)?.[1];
}
