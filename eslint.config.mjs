import tseslint from "typescript-eslint";
import { packageMapConfig } from "./scripts/eslint.packages.mjs";

export default tseslint.config(
  // Every script of ours is linted like the TypeScript: the `.mjs` of the webview tests, the scripts, the real-editor
  // harnesses, the test fixtures and the fuzz agent (also typechecked: test/webview, scripts, test/fixtures and
  // test/fuzz tsconfigs), and the two CommonJS entries (the crash suite's agent, the activation bench's child).
  {
    ignores: ["dist/**", "out/**", "node_modules/**", ".tools/**", ".demo/**", "**/*.js", "**/*.mjs", "!test/webview/*.mjs", "!scripts/*.mjs", "!test/integration/*.mjs", "!test/fixtures/*.mjs", "!test/fuzz/*.mjs", "!test/crash/*.js", "!bench/*.cjs"],
  },
  ...tseslint.configs.recommended,
  {
    files: ["**/*.ts", "**/*.tsx", "test/webview/*.mjs", "scripts/*.mjs", "test/integration/*.mjs", "test/fixtures/*.mjs"],
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // Only src/extension.ts and src/vscode/ may import the editor API (STYLE.md, "Only a thin layer imports vscode").
    files: ["src/**/*.ts", "webview/**/*.ts", "webview/**/*.tsx"],
    ignores: ["src/extension.ts", "src/vscode/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        { paths: [{ name: "vscode", message: "Only src/extension.ts and src/vscode/ import 'vscode'; reach the editor through a port." }] },
      ],
    },
  },
  {
    // One write lane per store (docs/reliability.md): outside src/store/, only the tool-intent log writes to the store
    // itself; every other durable write is a `StoreWriter.write` (a pure decision committed as one batch).
    files: ["src/**/*.ts"],
    ignores: ["src/store/**", "src/turns/intents.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "CallExpression > MemberExpression.callee[property.name=/^(putChannel|putMember|deleteMember|deleteChannel|putValue|commit)$/]",
          message: "Write through the store's one lane: StoreWriter.write(read, decide) with a pure decision (docs/reliability.md, \"One write lane per store\").",
        },
      ],
    },
  },
  // The package map (scripts/packageMap.mjs): an import of src/ or webview/ it does not allow fails lint.
  packageMapConfig,
);
