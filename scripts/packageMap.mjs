/**
 * The package map: which folder of the extension may import which (issue 16, "an executable package map"). It is the
 * rule, not a description of it: `eslint.config.mjs` turns it into `boundaries/dependencies` policies (eslint-plugin-
 * boundaries, `default: "disallow"`), so an import it does not allow fails `npm run lint`; and the "may import"
 * column of the package table in `docs/architecture.md` is its rendering ({@link mayImportText}), which
 * `test/unit/packageMap.test.ts` checks row by row.
 *
 * Each entry: `name` (the element type, also how the table names it), `row` (the table's first column, exactly),
 * `pattern` (globs, relative to the repository, of its files), `may` (the elements it may import; `types` when only
 * its types, checked as `import type`), `npm` (the packages it may import), `node` (whether it may import Node's
 * built-in modules: not the webview and `src/shared/`, which run in the browser too).
 */

/** @typedef {{ name: string, row: string, pattern: string[], may: ({ name: string, types?: boolean })[], npm: string[], node: boolean }} PackageEntry */

/** @param {string} name @returns {{ name: string, types: boolean }} */
const types = (name) => ({ name, types: true });
/** @param {string} name @returns {{ name: string }} */
const all = (name) => ({ name });

/** @type {PackageEntry[]} */
export const PACKAGES = [
  {
    name: "app",
    row: "`src/app/`",
    pattern: ["src/app"],
    // The composition root (compose.ts, composeChannels.ts) builds the turn executor and the turn files itself.
    may: [all("channels"), all("agents"), all("turns"), all("workspace"), all("config"), all("store"), all("events"), all("shared"), all("mcp")],
    npm: ["ulid", "@vscode/l10n"],
    node: true,
  },
  {
    name: "channels",
    row: "`src/channels/`",
    pattern: ["src/channels"],
    may: [all("turns"), all("agents"), all("workspace"), all("store"), all("events"), all("shared")],
    npm: ["ulid", "@vscode/l10n"],
    node: true,
  },
  {
    name: "turns",
    row: "`src/turns/`",
    pattern: ["src/turns"],
    may: [types("agents"), types("acp"), types("workspace"), types("store"), types("events"), all("shared")],
    npm: ["@vscode/l10n"],
    node: true,
  },
  {
    name: "agents",
    row: "`src/agents/`",
    pattern: ["src/agents"],
    may: [all("acp"), all("workspace"), types("config"), all("events"), all("shared")],
    npm: ["@vscode/l10n"],
    node: true,
  },
  {
    name: "mcp",
    row: "`src/mcp/`",
    pattern: ["src/mcp"],
    may: [types("config"), all("shared")],
    npm: ["@modelcontextprotocol/sdk", "zod", "yaml", "@vscode/l10n"],
    node: true,
  },
  { name: "acp", row: "`src/acp/`", pattern: ["src/acp"], may: [all("shared")], npm: ["@agentclientprotocol/sdk", "@vscode/l10n"], node: true },
  { name: "workspace", row: "`src/workspace/`", pattern: ["src/workspace"], may: [types("config"), all("shared")], npm: ["node-pty"], node: true },
  { name: "config", row: "`src/config/`", pattern: ["src/config"], may: [all("shared")], npm: ["yaml", "ajv", "@vscode/l10n"], node: true },
  { name: "store", row: "`src/store/`", pattern: ["src/store"], may: [all("shared")], npm: ["classic-level", "@vscode/l10n"], node: true },
  { name: "events", row: "`src/events/`", pattern: ["src/events"], may: [types("shared")], npm: [], node: false },
  { name: "shared", row: "`src/shared/`", pattern: ["src/shared"], may: [], npm: ["@vscode/l10n"], node: false },
  { name: "demo-agent", row: "`src/demo-agent/`", pattern: ["src/demo-agent"], may: [all("shared")], npm: ["@agentclientprotocol/sdk"], node: true },
  {
    name: "webview",
    row: "`webview/`",
    pattern: ["webview"],
    may: [all("shared")],
    npm: ["preact", "@vscode/l10n", "@vscode-elements/elements", "marked", "dompurify", "highlight.js", "entities", "@vscode/codicons"],
    node: false,
  },
  // Last: its `src` pattern takes every file of src/ that no folder above claims (src/extension.ts).
  {
    name: "editor",
    row: "`src/extension.ts`, `src/vscode/`",
    pattern: ["src/vscode", "src"],
    may: ["app", "channels", "turns", "agents", "mcp", "acp", "workspace", "config", "store", "events", "shared"].map(all),
    npm: ["vscode", "@vscode/l10n"],
    node: true,
  },
];

/**
 * The "may import" cell of an entry's row in `docs/architecture.md`: the folders (` (types)` when only types), then the
 * packages, comma-separated; `—` when it may import nothing.
 * @param {PackageEntry} entry
 * @returns {string}
 */
export function mayImportText(entry) {
  const folders = entry.may.map((m) => `\`${m.name}\`${m.types ? " (types)" : ""}`);
  const packages = entry.npm.map((p) => `\`${p}\``);
  const all = [...folders, ...packages];
  return all.length === 0 ? "—" : all.join(", ");
}

/**
 * The Mermaid diagram of the map for `docs/architecture.md` ("## Diagram"): one node per package, an arrow per
 * allowed import (dotted: types only), and the two boundaries that are not imports (the webview's `postMessage`, ACP
 * over stdio).
 * @returns {string} the fenced block, without a trailing newline
 */
export function diagram() {
  const node = (/** @type {PackageEntry} */ e) => `  ${e.name.replace("-", "_")}["${e.row.replace(/`/g, "")}"]`;
  const id = (/** @type {string} */ name) => name.replace("-", "_");
  const lines = ["```mermaid", "flowchart TD", ...PACKAGES.map(node)];
  for (const entry of PACKAGES) {
    for (const m of entry.may) lines.push(`  ${id(entry.name)} ${m.types ? "-.types.->" : "-->"} ${id(m.name)}`);
  }
  lines.push('  webview -. "postMessage (src/shared/protocol)" .- editor');
  lines.push('  acp == "stdio, ND-JSON (ACP)" ==> agentproc(["agent process<br/>(demo, claude-agent-acp, codex-acp, gemini --acp)"])');
  lines.push("```");
  return lines.join("\n");
}
