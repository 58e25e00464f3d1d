// @ts-check
// `npm run gen:config`: writes schema/sidekicks.schema.json and docs/reference/configuration.md from the one source
// of truth, src/config/spec.ts. With --check, writes nothing and exits 1 when either file is stale.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { tsImport } from "tsx/esm/api";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const { renderSchemaFile } = await tsImport("../src/config/buildSchema.ts", import.meta.url);
const { renderReference } = await tsImport("../src/config/renderReference.ts", import.meta.url);

const outputs = [
  ["schema/sidekicks.schema.json", renderSchemaFile()],
  ["docs/reference/configuration.md", renderReference()],
];
const check = process.argv.includes("--check");
let stale = 0;
for (const [file, text] of outputs) {
  const target = path.join(root, file);
  const current = fs.existsSync(target) ? fs.readFileSync(target, "utf8") : undefined;
  if (current === text) {
    console.log(`${file}: up to date`);
  } else if (check) {
    console.error(`${file}: stale; run npm run gen:config`);
    stale++;
  } else {
    fs.writeFileSync(target, text);
    console.log(`${file}: written`);
  }
}
process.exit(stale > 0 ? 1 : 0);
