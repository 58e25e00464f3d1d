// `npm run gen:packages`: writes the "may import" cell of each row of the package table in docs/architecture.md, and
// its diagram, from the package map (scripts/packageMap.mjs), the rule ESLint enforces; test/unit/packageMap.test.ts fails when stale.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { diagram, mayImportText, PACKAGES } from "./packageMap.mjs";

const file = path.join(path.dirname(path.dirname(fileURLToPath(import.meta.url))), "docs/architecture.md");
const lines = readFileSync(file, "utf8").split("\n");
const missing = new Set(PACKAGES.map((e) => e.row));
const out = lines.map((line) => {
  const entry = PACKAGES.find((e) => line.startsWith(`| ${e.row} | `));
  if (!entry) return line;
  missing.delete(entry.row);
  const cells = line.split(" | ");
  cells[cells.length - 1] = `${mayImportText(entry)} |`;
  return cells.join(" | ");
});
// The diagram: the first Mermaid block after "## Diagram".
const text = out.join("\n");
const section = text.indexOf("\n## Diagram");
const start = text.indexOf("```mermaid", section);
const end = text.indexOf("\n```", start + 1) + 4;
if (section < 0 || start < 0) {
  console.error('docs/architecture.md has no "## Diagram" section with a ```mermaid block');
  process.exitCode = 1;
}
writeFileSync(file, section < 0 || start < 0 ? text : text.slice(0, start) + diagram() + text.slice(end));
if (missing.size > 0) {
  console.error(`docs/architecture.md has no row for: ${[...missing].join(", ")} (add one: | row | owns | may import |)`);
  process.exitCode = 1;
}
