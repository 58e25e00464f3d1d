/**
 * Languages (issue 8): every string the user reads goes through `package.nls.json` (contributions) or `l10n.t`
 * (host, domain, webview), English being the source and French a full translation. These tests fail when a
 * contribution keeps an English literal, when `l10n/bundle.l10n.json` no longer matches the code (`npm run l10n`),
 * when a message or key has no French, or when a translation loses a placeholder or a command link.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";

const root = path.resolve(import.meta.dirname, "../..");
const readJson = (file: string) => JSON.parse(readFileSync(path.join(root, file), "utf8")) as Record<string, unknown>;
const strings = (file: string) => readJson(file) as Record<string, string>;

/** The parts of package.json whose text a user reads (VS Code's extension manifest). */
interface Manifest {
  displayName: string;
  description: string;
  l10n: string;
  scripts: Record<string, string>;
  capabilities: { untrustedWorkspaces: { description: string } };
  contributes: {
    viewsContainers: { activitybar: { id: string; title: string }[] };
    views: Record<string, { id: string; name: string }[]>;
    viewsWelcome: { view: string; contents: string }[];
    commands: { command: string; title: string; category: string }[];
    configuration: { title: string; properties: Record<string, Record<string, unknown>> };
    walkthroughs: { id: string; title: string; description: string; steps: { id: string; title: string; description: string }[] }[];
  };
}
const manifest = () => readJson("package.json") as unknown as Manifest;

/** `{0}`, `{name}`, `${workspaceFolder}` and `(command:…)` links: what a translation must keep, as a sorted set. */
function tokens(text: string): string[] {
  const found = [...text.matchAll(/\$?\{[^}]+\}|\(command:[^)]+\)/g)].map((m) => m[0]);
  return [...new Set(found)].sort();
}

/** English strings that read the same in French (names, loanwords); any other identical translation is a miss. */
const SAME_IN_FRENCH = new Set(["Sidekicks", "Agents", "Plan", "Suggestions", "Configuration", "Diff", "{0} (terminal)", "Mode", "Session", "session", "agent"]);

function checkTranslation(english: Record<string, string>, french: Record<string, string>, file: string): void {
  const missing = Object.keys(english).filter((key) => typeof french[key] !== "string" || french[key].trim() === "");
  assert.deepEqual(missing, [], `${file} lacks a French text for these keys`);
  const stale = Object.keys(french).filter((key) => !(key in english));
  assert.deepEqual(stale, [], `${file} translates keys the English no longer has`);
  for (const [key, text] of Object.entries(english)) {
    assert.deepEqual(tokens(french[key]!), tokens(text), `${file}: placeholders or links differ for ${JSON.stringify(key)}`);
    if (!SAME_IN_FRENCH.has(text)) assert.notEqual(french[key], text, `${file}: ${JSON.stringify(key)} is still English`);
  }
}

test("every contribution a user reads in package.json is a %key% with an English text in package.nls.json", () => {
  const pkg = manifest();
  const nls = strings("package.nls.json");
  const fields: [string, unknown][] = [
    ["displayName", pkg.displayName],
    ["description", pkg.description],
    ["capabilities.untrustedWorkspaces.description", pkg.capabilities.untrustedWorkspaces.description],
  ];
  const c = pkg.contributes;
  for (const v of c.viewsContainers.activitybar) fields.push([`viewsContainers ${v.id}`, v.title]);
  for (const v of Object.values(c.views).flat()) fields.push([`view ${v.id}`, v.name]);
  for (const w of c.viewsWelcome) fields.push([`viewsWelcome ${w.view}`, w.contents]);
  for (const cmd of c.commands) fields.push([`${cmd.command} title`, cmd.title], [`${cmd.command} category`, cmd.category]);
  fields.push(["configuration title", c.configuration.title]);
  for (const [name, prop] of Object.entries(c.configuration.properties)) {
    for (const field of ["description", "markdownDescription", "enumDescriptions", "markdownEnumDescriptions", "deprecationMessage"]) {
      const value = prop[field];
      if (Array.isArray(value)) value.forEach((v, i) => fields.push([`${name} ${field}[${i}]`, v]));
      else if (value !== undefined) fields.push([`${name} ${field}`, value]);
    }
  }
  for (const w of c.walkthroughs) {
    fields.push([`walkthrough ${w.id} title`, w.title], [`walkthrough ${w.id} description`, w.description]);
    for (const s of w.steps) fields.push([`step ${s.id} title`, s.title], [`step ${s.id} description`, s.description]);
  }
  assert.ok(fields.length > 40, "the contributions were found");
  for (const [where, value] of fields) {
    assert.match(String(value), /^%[\w.]+%$/, `${where} is a literal, not a %key%: ${JSON.stringify(value)}`);
    const key = String(value).slice(1, -1);
    assert.equal(typeof nls[key], "string", `${where}: package.nls.json has no ${key}`);
  }
  assert.equal(pkg.l10n, "./l10n", "package.json points VS Code at the l10n bundles");
});

test("package.nls.fr.json translates every key of package.nls.json, keeping placeholders and command links", () => {
  checkTranslation(strings("package.nls.json"), strings("package.nls.fr.json"), "package.nls.fr.json");
});

test("l10n/bundle.l10n.json is what `npm run l10n` exports from the code now (not stale)", () => {
  const out = mkdtempSync(path.join(tmpdir(), "sidekicks-l10n-"));
  try {
    const cli = path.join(root, "node_modules/@vscode/l10n-dev/dist/cli.js");
    const script = manifest().scripts.l10n ?? "";
    assert.match(script, /^vscode-l10n-dev export -o l10n (.+)$/, "npm run l10n exports the bundle");
    const sources = script.replace(/^vscode-l10n-dev export -o l10n /, "").split(" ");
    execFileSync(process.execPath, [cli, "export", "-o", out, ...sources], { cwd: root, stdio: "pipe" });
    const fresh = JSON.parse(readFileSync(path.join(out, "bundle.l10n.json"), "utf8")) as Record<string, string>;
    const committed = strings("l10n/bundle.l10n.json");
    const added = Object.keys(fresh).filter((k) => !(k in committed));
    const removed = Object.keys(committed).filter((k) => !(k in fresh));
    assert.deepEqual({ added, removed }, { added: [], removed: [] }, "l10n/bundle.l10n.json is stale: run `npm run l10n` and translate the new strings in l10n/bundle.l10n.fr.json");
    assert.ok(Object.keys(fresh).length > 200, "the export found the host's, the domain's and the webview's strings");
    for (const message of ["Send", "Sidekicks failed to start: {0}", "No member named @{0} — did you mean @{1}?"]) assert.ok(message in fresh, `exported: ${message}`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test("l10n/bundle.l10n.fr.json translates every message, keeping its placeholders", () => {
  checkTranslation(strings("l10n/bundle.l10n.json"), strings("l10n/bundle.l10n.fr.json"), "l10n/bundle.l10n.fr.json");
});
