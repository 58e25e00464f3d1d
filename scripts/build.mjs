// @ts-check
// Bundles the extension host (node, CommonJS; `vscode` and native modules external), the demo agent, the
// integration test suite, the webview (browser, ESM) and the webview's lazily loaded code highlighter (dist/chunks/).
// Usage: node scripts/build.mjs [--watch] [--production]
import * as esbuild from "esbuild";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { rmSync } from "node:fs";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const watch = process.argv.includes("--watch");
const production = process.argv.includes("--production");

/** Native and host-provided modules stay outside the host bundle. */
const nodeExternal = ["vscode", "classic-level", "node-pty", "mocha"];

/** @type {import("esbuild").BuildOptions} */
const common = {
  absWorkingDir: root,
  bundle: true,
  sourcemap: production ? false : "linked",
  minify: production,
  logLevel: "warning",
};

/** In the webview bundle, `import("./highlighter")` stays an `import()` of the highlighter's own build (below). */
const lazyHighlighter = {
  name: "lazy-highlighter",
  /** @param {import("esbuild").PluginBuild} build */
  setup(build) {
    build.onResolve({ filter: /^\.\/highlighter$/ }, () => ({ path: "./chunks/highlighter.js", external: true }));
  },
};

/** @type {import("esbuild").BuildOptions[]} */
const builds = [
  {
    ...common,
    entryPoints: { extension: "src/extension.ts", "demo-agent": "src/demo-agent/main.ts" },
    outdir: "dist",
    platform: "node",
    format: "cjs",
    target: "node20",
    external: nodeExternal,
    // zod probes `navigator` at import time; in an extension host on Node 21+ that access logs a deprecation
    // warning (PendingMigrationError). The host bundles never run in a browser, so the probe is compiled out.
    define: { navigator: "undefined" },
  },
  {
    ...common,
    entryPoints: { webview: "webview/main.tsx" },
    outdir: "dist",
    platform: "browser",
    format: "esm",
    target: "es2022",
    jsx: "automatic",
    jsxImportSource: "preact",
    // The codicon font (`@vscode/codicons`, a peer of @vscode-elements/elements) for roster `icon: hubot`: its CSS goes
    // into dist/webview.css and the font file to dist/assets/, loaded from the extension (CSP `font-src`).
    loader: { ".css": "css", ".ttf": "file" },
    assetNames: "assets/[name]-[hash]",
    plugins: [lazyHighlighter],
  },
  {
    // The code highlighter (highlight.js core + `webview/highlighter.ts`) and one chunk per grammar, fetched by the
    // webview with `import()` the first time a finished code block needs them (`webview/highlight.ts`). A build of
    // its own, so the initial bundle shares no chunk with it and a page without code loads none of dist/chunks/.
    ...common,
    entryPoints: { "chunks/highlighter": "webview/highlighter.ts" },
    outdir: "dist",
    platform: "browser",
    format: "esm",
    target: "es2022",
    splitting: true,
    chunkNames: "chunks/[name]-[hash]",
  },
  {
    ...common,
    entryPoints: { "integration/index": "test/integration/suite/index.ts", "integration/trust": "test/integration/suite/trustIndex.ts", "integration/reload": "test/integration/suite/reloadIndex.ts", "integration/panel": "test/integration/suite/panelIndex.ts", "integration/worktrees": "test/integration/suite/worktreesIndex.ts" },
    outdir: "out",
    platform: "node",
    format: "cjs",
    target: "node20",
    external: nodeExternal,
  },
];

// Chunk and asset names carry a content hash: drop the previous build's so the package ships only the current ones.
rmSync(path.join(root, "dist/chunks"), { recursive: true, force: true });
rmSync(path.join(root, "dist/assets"), { recursive: true, force: true });

if (watch) {
  for (const options of builds) await (await esbuild.context(options)).watch();
  console.log("esbuild: watching");
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
}
