import { stringify } from "yaml";
import { parseRoster } from "./roster";
import { CONFIG_SPEC, FULL_EXAMPLE, MESSAGE_SAMPLES, type KeySpec, type SectionSpec } from "./spec";

const SAMPLE_FILE = "/project/sidekicks.yaml";

const HEADER = `# Configuration reference: \`sidekicks.yaml\`

<!-- Generated from src/config/spec.ts by \`npm run gen:config\`. Edit the spec, not this file: a unit test fails
when this file or schema/sidekicks.schema.json is stale. -->

The roster of ACP agents Sidekicks can start, its channels and limits. Validated against
[\`schema/sidekicks.schema.json\`](../../schema/sidekicks.schema.json) (JSON Schema 2020-12, generated from the same
source as this page), which VS Code's YAML extension also uses for completion and hovers. Problems appear in the
Problems panel at their line and column, name the offending key and suggest the nearest valid one; an invalid file
never stops running agents: the last valid roster stays in force.

## Where the file is

- The setting \`sidekicks.configPath\`: absolute, or relative to the first workspace folder (\`~\` and
  \`\${workspaceFolder}\` are expanded).
- Else \`sidekicks.yaml\` at the root of the first workspace folder, if it exists;
- else \`.vscode/sidekicks.yaml\`, if it exists;
- else \`sidekicks.yaml\` at the root, where \`Sidekicks: Create config\` writes a commented starter.

\`Sidekicks: Open config\` opens it, or offers the roster files used recently (the last 10). The file is watched:
saving it applies the change without a reload. \`Sidekicks: Add agent…\` and \`Sidekicks: Edit agent…\` change it
in place, keeping comments, blank lines, key order, anchors and merge keys; they refuse to save over a file that
changed on disk since they read it, or that has unsaved changes in an editor.

The history of a roster is kept per roster file (by its path). When a folder is moved or renamed, the next time it
is opened Sidekicks finds the history whose roster file is gone and asks whether to use it here; only a yes makes
the folder use it (the window reloads), a no is remembered, and nothing is moved or deleted.
`;

const ANCHORS = `## Anchors and merge keys

YAML anchors (\`&name\`), aliases (\`*name\`) and merge keys (\`<<: *name\`) work: validation sees the merged result,
and a problem in a merged value is reported where that value is written. Keep shared settings under the top-level
\`defaults\` key, which Sidekicks does not read. A merge is shallow: an agent that writes its own \`env\` replaces
the merged \`env\` as a whole.

\`\`\`yaml
defaults: &defaults
  permissions: allow-reads
  env:
    LOG: info
agents:
  - name: claude
    <<: *defaults
    command: npx
    args: ["-y", "@agentclientprotocol/claude-agent-acp"]
\`\`\`

Editing from the UI never changes a shared anchor: setting a key an agent takes from \`<<: *defaults\` writes that
key into the agent's own map.
`;

/**
 * Renders docs/reference/configuration.md from the spec: where the file is, then per section a summary table and,
 * per key, its type, default, description and example; a complete example; anchors and merge keys; and the real
 * messages of `MESSAGE_SAMPLES` (produced by running `parseRoster` on them, so they cannot drift).
 */
export function renderReference(spec: readonly SectionSpec[] = CONFIG_SPEC): string {
  const parts = [HEADER, contents(spec), ...spec.map(renderSection), `## A complete example\n\n\`\`\`yaml\n${FULL_EXAMPLE}\`\`\`\n`, ANCHORS, messages()];
  return `${parts.join("\n").replace(/\n{3,}/g, "\n\n").trimEnd()}\n`;
}

function heading(s: SectionSpec): string {
  if (s.path === "") return "Top level";
  const [, where, variant] = /^(.*?)(?: \((.*)\))?$/.exec(s.path)!;
  return variant ? `\`${where}\` (${variant})` : `\`${where}\``;
}

/** GitHub's heading anchor: lowercase, punctuation other than "-" dropped, spaces to "-". */
function slug(headingText: string): string {
  return headingText
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");
}

function contents(spec: readonly SectionSpec[]): string {
  const titles = [...spec.map(heading), "A complete example", "Anchors and merge keys", "Messages you may see"];
  return `## Contents\n\n${titles.map((t) => `- [${t.replace(/`/g, "")}](#${slug(t)})`).join("\n")}\n`;
}

function defaultOf(k: KeySpec): string {
  if (k.required) return "required";
  if (k.default !== undefined) return `\`${inlineYaml(k.default)}\``;
  return k.defaultText ?? "none";
}

function inlineYaml(value: unknown): string {
  return stringify(value, { flowCollectionPadding: false, collectionStyle: "flow" }).trim();
}

function cell(text: string): string {
  return text.replace(/\n/g, " ");
}

function renderSection(s: SectionSpec): string {
  const prefix = s.path === "" ? "" : `${s.path.replace(/ \(.*\)$/, "")}.`;
  const rows = s.keys.map((k) => `| \`${k.key}\` | ${cell(k.type)} | ${cell(defaultOf(k))} |`);
  const details = s.keys.map(
    (k) => `### \`${prefix}${k.key}\`${s.path === "" ? " (top level)" : ""}\n\n${k.required ? `Required. Type: ${k.type}.` : `Optional. Type: ${k.type}. Default: ${defaultOf(k)}.`}\n\n${k.description}${k.pending ? `\n\n*Not in effect yet:* ${k.pending}` : ""}\n\n\`\`\`yaml\n${k.example}\n\`\`\`\n`,
  );
  return [`## ${heading(s)}\n\n${s.intro}\n\n| key | type | default |\n|---|---|---|\n${rows.join("\n")}\n`, ...details].join("\n");
}

function messages(): string {
  const items = MESSAGE_SAMPLES.map((yaml) => {
    const lines = parseRoster(yaml, SAMPLE_FILE).problems.map((p) => `${p.line}:${p.column}: ${p.message}`);
    return `\`\`\`yaml\n${yaml}\`\`\`\n\n\`\`\`text\n${lines.join("\n")}\n\`\`\`\n`;
  });
  return `## Messages you may see\n\nEach snippet below, then what the Problems panel says about it (line:column: message).\n\n${items.join("\n")}`;
}
