/**
 * The lazily loaded half of code highlighting (see `highlight.ts`): highlight.js's core, and one dynamic `import()`
 * per language, so esbuild splits each grammar into its own chunk under `dist/chunks/` and a block of TypeScript
 * fetches the TypeScript grammar only. Nothing in the initial bundle imports this module except through `import()`.
 */
import hljs from "highlight.js/lib/core";
import type { LanguageFn } from "highlight.js";
import type { LanguageId } from "./highlight";

type GrammarModule = Promise<{ default: LanguageFn }>;

/** Per language: how to load its grammar, and the languages it embeds (highlight.js `subLanguage`). */
const GRAMMARS: Record<LanguageId, { load: () => GrammarModule; embeds?: LanguageId[] }> = {
  bash: { load: () => import("highlight.js/lib/languages/bash") },
  c: { load: () => import("highlight.js/lib/languages/c") },
  cpp: { load: () => import("highlight.js/lib/languages/cpp") },
  csharp: { load: () => import("highlight.js/lib/languages/csharp") },
  css: { load: () => import("highlight.js/lib/languages/css") },
  diff: { load: () => import("highlight.js/lib/languages/diff") },
  dockerfile: { load: () => import("highlight.js/lib/languages/dockerfile"), embeds: ["bash"] },
  go: { load: () => import("highlight.js/lib/languages/go") },
  graphql: { load: () => import("highlight.js/lib/languages/graphql") },
  ini: { load: () => import("highlight.js/lib/languages/ini") },
  java: { load: () => import("highlight.js/lib/languages/java") },
  javascript: { load: () => import("highlight.js/lib/languages/javascript") },
  json: { load: () => import("highlight.js/lib/languages/json") },
  kotlin: { load: () => import("highlight.js/lib/languages/kotlin") },
  lua: { load: () => import("highlight.js/lib/languages/lua") },
  makefile: { load: () => import("highlight.js/lib/languages/makefile") },
  markdown: { load: () => import("highlight.js/lib/languages/markdown") },
  php: { load: () => import("highlight.js/lib/languages/php") },
  powershell: { load: () => import("highlight.js/lib/languages/powershell") },
  protobuf: { load: () => import("highlight.js/lib/languages/protobuf") },
  python: { load: () => import("highlight.js/lib/languages/python") },
  ruby: { load: () => import("highlight.js/lib/languages/ruby") },
  rust: { load: () => import("highlight.js/lib/languages/rust") },
  scss: { load: () => import("highlight.js/lib/languages/scss") },
  shell: { load: () => import("highlight.js/lib/languages/shell"), embeds: ["bash"] },
  sql: { load: () => import("highlight.js/lib/languages/sql") },
  swift: { load: () => import("highlight.js/lib/languages/swift") },
  typescript: { load: () => import("highlight.js/lib/languages/typescript") },
  xml: { load: () => import("highlight.js/lib/languages/xml"), embeds: ["css", "javascript"] },
  yaml: { load: () => import("highlight.js/lib/languages/yaml") },
};

/** What `highlight.ts` uses: load a grammar (and those it embeds), then highlight text with it. */
export interface Highlighter {
  /** Fetches and registers `language`'s grammar once; rejects when a chunk cannot be loaded. */
  load(language: LanguageId): Promise<void>;
  /**
   * HTML for `text` in a loaded `language`: the text escaped by highlight.js, tokens wrapped in
   * `<span class="hljs-…">`. Throws if the grammar is not loaded.
   */
  highlight(text: string, language: LanguageId): string;
}

/** A highlighter over highlight.js's core, with no grammar loaded yet. */
export function createHighlighter(): Highlighter {
  const loaded = new Map<LanguageId, Promise<void>>();
  const load = (language: LanguageId): Promise<void> => {
    let done = loaded.get(language);
    if (!done) {
      const grammar = GRAMMARS[language];
      done = Promise.all([grammar.load(), ...(grammar.embeds ?? []).map(load)]).then(([module]) => {
        hljs.registerLanguage(language, module.default);
      });
      done.catch(() => loaded.delete(language));
      loaded.set(language, done);
    }
    return done;
  };
  return {
    load,
    highlight: (text, language) => hljs.highlight(text, { language, ignoreIllegals: true }).value,
  };
}
