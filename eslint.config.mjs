import tseslint from "typescript-eslint";
import { packageMapConfig } from "./scripts/eslint.packages.mjs";

export default tseslint.config(
  // The `.mjs` of the webview tests, the scripts, the real-editor harnesses and the test fixtures are linted like the
  // TypeScript (and typechecked: test/webview/tsconfig.json, scripts/tsconfig.json, test/fixtures/tsconfig.json); the
  // other JavaScript is not ours to lint yet.
  {
    ignores: ["dist/**", "out/**", "node_modules/**", ".tools/**", ".demo/**", "**/*.js", "**/*.mjs", "!test/webview/*.mjs", "!scripts/*.mjs", "!test/integration/*.mjs", "!test/fixtures/*.mjs"],
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
