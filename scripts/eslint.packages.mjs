/**
 * The package map (`scripts/packageMap.mjs`) as ESLint configuration: eslint-plugin-boundaries classifies every file
 * of `src/` and `webview/` into its package, and `boundaries/dependencies` allows, per package, only the imports the
 * map lists (`default: "disallow"`): its own files, the packages it may import (`types` ones only with
 * `import type`), its npm packages and, for host code, Node's built-ins. A broken arrow fails `npm run lint`.
 */
import boundaries from "eslint-plugin-boundaries";
import { PACKAGES } from "./packageMap.mjs";

/**
 * An npm package and its subpaths (`highlight.js/lib/core`), as module `source`s.
 * @param {string[]} names
 */
const sources = (names) => names.flatMap((name) => [name, `${name}/**`]);

const policies = [
  ...PACKAGES.flatMap((entry) => {
    const from = { element: { type: entry.name } };
    // Within one package, anything.
    const values = [entry.name, ...entry.may.filter((m) => !m.types).map((m) => m.name)];
    const typeOnly = entry.may.filter((m) => m.types).map((m) => m.name);
    return [
      { from, allow: { to: { element: { types: { anyOf: values } } } } },
      ...(typeOnly.length > 0 ? [{ from, allow: { to: { element: { types: { anyOf: typeOnly } } }, dependency: { kind: "type" } } }] : []),
      ...(entry.npm.length > 0 ? [{ from, allow: { to: { module: { origin: "external", source: sources(entry.npm) } } } }] : []),
      ...(entry.node ? [{ from, allow: { to: { module: { origin: "core" } } } }] : []),
    ];
  }),
];

/** The package map as one ESLint configuration object (eslint.config.mjs adds it last). */
export const packageMapConfig = {
  files: ["src/**/*.ts", "webview/**/*.ts", "webview/**/*.tsx"],
  plugins: { boundaries },
  settings: {
    "boundaries/elements": PACKAGES.map((entry) => ({ type: entry.name, pattern: entry.pattern })),
    "import/resolver": { node: { extensions: [".ts", ".tsx", ".mjs", ".js", ".json"] } },
  },
  rules: {
    "boundaries/dependencies": ["error", { default: "disallow", checkAllOrigins: true, checkUnknownLocals: true, policies }],
    "boundaries/no-unknown-files": "error",
  },
};
