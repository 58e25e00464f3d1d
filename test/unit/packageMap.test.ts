/**
 * The package map is executable (issue 16): an import it does not allow fails `npm run lint`, and the "may import"
 * column of the package table in docs/architecture.md is the map's own rendering, row by row.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { ESLint } from "eslint";
// @ts-expect-error: a plain ES module of the build scripts, typed by its JSDoc only
import { diagram, mayImportText, PACKAGES } from "../../scripts/packageMap.mjs";

interface Entry {
  name: string;
  row: string;
}

const root = path.resolve(import.meta.dirname, "../..");
const entries = PACKAGES as Entry[];

/** The messages ESLint gives for `code` as if it were the file `filePath` (relative to the repository). */
async function lint(filePath: string, code: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: root });
  const [result] = await eslint.lintText(code, { filePath: path.join(root, filePath) });
  return result!.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

test("an import the package map does not allow fails lint: the store importing the channel directory", async () => {
  const messages = await lint("src/store/probe.ts", 'import { ChannelDirectory } from "../channels/ChannelDirectory";\nexport const x = ChannelDirectory;\n');
  assert.ok(messages.some((m) => m.startsWith("boundaries/dependencies") && /"store" to elements of type "channels"/.test(m)), messages.join("\n"));
});

test("the webview may not import host code or Node's modules; it may import src/shared/", async () => {
  const host = await lint("webview/probe.ts", 'import { Store } from "../src/store/Store";\nexport const x = Store;\n');
  assert.ok(host.some((m) => /"webview" to elements of type "store"/.test(m)), host.join("\n"));
  const node = await lint("webview/probe.ts", 'import fs from "node:fs";\nexport const x = fs;\n');
  assert.ok(node.some((m) => /origin "core"/.test(m)), node.join("\n"));
  const shared = await lint("webview/probe.ts", 'import { PROTOCOL_VERSION } from "../src/shared/protocol";\nexport const x = PROTOCOL_VERSION;\n');
  assert.deepEqual(shared.filter((m) => m.startsWith("boundaries/")), []);
});

test("a package allowed only another's types may not import its values", async () => {
  const value = await lint("src/turns/probe.ts", 'import { AcpClient } from "../acp/AcpClient";\nexport const x = AcpClient;\n');
  assert.ok(value.some((m) => /"turns" to elements of type "acp"/.test(m)), value.join("\n"));
  const types = await lint("src/turns/probe.ts", 'import type { AcpClient } from "../acp/AcpClient";\nexport type X = AcpClient;\n');
  assert.deepEqual(types.filter((m) => m.startsWith("boundaries/")), []);
});

test("an npm package a folder does not list fails lint (marked in the store)", async () => {
  const messages = await lint("src/store/probe.ts", 'import { marked } from "marked";\nexport const x = marked;\n');
  assert.ok(messages.some((m) => /module source "marked"/.test(m)), messages.join("\n"));
});

test("the package table in docs/architecture.md says what the map allows, row by row, and has no other row", () => {
  const doc = readFileSync(path.join(root, "docs/architecture.md"), "utf8");
  const section = doc.slice(doc.indexOf("## Packages"), doc.indexOf("\n## ", doc.indexOf("## Packages") + 1));
  const rows = new Map(
    section
      .split("\n")
      .filter((line) => line.startsWith("| `"))
      .map((line) => line.split(" | "))
      .map((cells) => [cells[0]!.slice(2), cells.at(-1)!.replace(/ \|$/, "")] as const),
  );
  for (const entry of entries) {
    assert.ok(rows.has(entry.row), `the table has a row ${entry.row}`);
    assert.equal(rows.get(entry.row), mayImportText(entry), `the "may import" cell of ${entry.row}`);
  }
  assert.deepEqual([...rows.keys()].filter((row) => !entries.some((e) => e.row === row)).filter((row) => !row.startsWith("`schema/")), [], "rows the map does not know");
});

test("the diagram in docs/architecture.md is the map's own (npm run gen:packages writes it)", () => {
  const doc = readFileSync(path.join(root, "docs/architecture.md"), "utf8");
  const section = doc.indexOf("\n## Diagram");
  const start = doc.indexOf("```mermaid", section);
  assert.equal(doc.slice(start, doc.indexOf("\n```", start + 1) + 4), diagram());
});
