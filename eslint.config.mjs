import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/**", "out/**", "node_modules/**", ".tools/**", ".demo/**", "**/*.mjs", "**/*.js"] },
  ...tseslint.configs.recommended,
  {
    files: ["**/*.ts", "**/*.tsx"],
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
);
