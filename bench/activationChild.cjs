/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS script run by node directly, by design */
// One activation, measured in a fresh process (bench/activation.ts): loads the built dist/extension.js with a stand-in
// `vscode` module (no editor on the bench machine) and runs activate() on a workspace with the demo sidekicks.yaml.
// Prints {loadMs, activateMs, readyMs} as JSON: readyMs runs from the call of activate() until the app it starts
// without waiting is ready (roster read, store opened), through the test API (extensionMode Test). Every vscode API not named below answers with a do-nothing stub.
const Module = require("node:module");
const path = require("node:path");
const { performance } = require("node:perf_hooks");
const [, , extensionPath, workspace, storage] = process.argv;

function stub(overrides = {}) {
  return new Proxy(function () {}, {
    get(_target, prop) {
      if (prop in overrides) return overrides[prop];
      if (prop === "then" || prop === Symbol.iterator) return undefined;
      if (prop === Symbol.toPrimitive) return () => "";
      return stub();
    },
    set: () => true,
    apply: () => stub(),
    construct: () => stub(),
  });
}
const file = (p) => ({ fsPath: p, path: p, scheme: "file", toString: () => `file://${p}` });
class EventEmitter {
  event = () => ({ dispose() {} });
  fire() {}
  dispose() {}
}
// A plain object at the top (the bundle copies the module's own properties), stubs below.
const names = "window workspace commands languages env extensions l10n Uri EventEmitter Disposable Range Position Selection ThemeIcon ThemeColor TreeItem TreeItemCollapsibleState WorkspaceEdit RelativePattern StatusBarAlignment ExtensionMode DiagnosticSeverity Diagnostic MarkdownString ViewColumn TextEditorRevealType ProgressLocation ConfigurationTarget".split(" ");
const vscode = Object.fromEntries(names.map((n) => [n, stub()]));
Object.assign(vscode, {
  Uri: stub({ file, joinPath: (u, ...parts) => file(path.join(u.fsPath, ...parts)), parse: (s) => file(s.replace(/^file:\/\//, "")) }),
  EventEmitter,
  ExtensionMode: { Production: 1, Development: 2, Test: 3 },
  workspace: stub({
    workspaceFolders: [{ uri: file(workspace), name: "w", index: 0 }],
    getConfiguration: () => ({ get: () => undefined }),
    isTrusted: true,
    textDocuments: [],
  }),
  window: stub({ terminals: [], visibleTextEditors: [], activeTextEditor: undefined }),
});
const load = Module._load;
Module._load = function (request, ...rest) {
  return request === "vscode" ? vscode : load.call(this, request, ...rest);
};
const memento = () => {
  const values = new Map();
  return { get: (k, d) => (values.has(k) ? values.get(k) : d), update: async (k, v) => void values.set(k, v), keys: () => [...values.keys()], setKeysForSync() {} };
};
const context = { subscriptions: [], extensionUri: file(extensionPath), storageUri: file(storage), globalStorageUri: file(storage), extensionMode: 3, workspaceState: memento(), globalState: memento() };
(async () => {
  const t0 = performance.now();
  const extension = require(path.join(extensionPath, "dist", "extension.js"));
  const t1 = performance.now();
  const exports = await extension.activate(context);
  const t2 = performance.now();
  await exports.testing?.ready();
  const t3 = performance.now();
  await extension.deactivate();
  console.log(JSON.stringify({ loadMs: t1 - t0, activateMs: t2 - t1, readyMs: t3 - t1 }));
  process.exit(0);
})().catch((err) => {
  console.error(err);
  process.exit(1);
});
