/**
 * Syntax highlighting for the code blocks of rendered Markdown, loaded lazily (issue 6).
 *
 * This module is in the initial bundle and stays small: it knows the fence names we highlight (`LANGUAGE_ALIASES`)
 * and schedules the work. highlight.js itself (its core and one module per language) is fetched with a dynamic
 * `import()` the first time a finished code block in a known language appears (`highlighter.ts`, split by esbuild
 * into `dist/chunks/`), so a channel without code never loads it.
 *
 * Rules:
 * - Only finished blocks are highlighted: `Markdown` calls {@link highlightCodeBlocks} for chunks the streaming
 *   renderer has closed and for the final render, never for the open tail, so a block is highlighted once, not per
 *   streamed chunk.
 * - Unknown or absent languages stay plain text; nothing is auto-detected. Blocks over {@link HIGHLIGHT_MAX_BYTES}
 *   stay plain too (they still copy and insert).
 * - The work runs off the critical path: one block per idle callback (`requestIdleCallback`, at most
 *   {@link IDLE_TIMEOUT_MS} late).
 * - The result is checked before it replaces the plain text: only `<span class="hljs-…">` elements, and exactly the
 *   same text (highlight.js escapes the code; the check makes sure no agent text ever becomes markup, and that
 *   Copy still yields the code as written).
 *
 * Each `div.code-block` (made by `codeBlocks.ts`) says where it is in `data-highlight`: `queued`, `done`, `plain`
 * (no known language), `skipped` (too large) or `failed` (the chunk did not load or the result was refused).
 */
import type { Highlighter } from "./highlighter";

/** Languages the lazy highlighter has a grammar for (highlight.js language names). */
export type LanguageId =
  | "bash" | "c" | "cpp" | "csharp" | "css" | "diff" | "dockerfile" | "go" | "graphql" | "ini" | "java" | "javascript"
  | "json" | "kotlin" | "lua" | "makefile" | "markdown" | "php" | "powershell" | "protobuf" | "python" | "ruby" | "rust"
  | "scss" | "shell" | "sql" | "swift" | "typescript" | "xml" | "yaml";

/** Fence names (lower case) → the grammar that highlights them. A name not listed stays plain text. */
export const LANGUAGE_ALIASES: Readonly<Record<string, LanguageId>> = {
  sh: "bash", bash: "bash", zsh: "bash", ksh: "bash",
  c: "c", h: "c",
  cpp: "cpp", "c++": "cpp", cc: "cpp", cxx: "cpp", hpp: "cpp", hh: "cpp", hxx: "cpp",
  cs: "csharp", csharp: "csharp", "c#": "csharp",
  css: "css",
  diff: "diff", patch: "diff",
  dockerfile: "dockerfile", docker: "dockerfile",
  go: "go", golang: "go",
  graphql: "graphql", gql: "graphql",
  ini: "ini", toml: "ini", cfg: "ini", editorconfig: "ini",
  java: "java",
  js: "javascript", javascript: "javascript", jsx: "javascript", mjs: "javascript", cjs: "javascript",
  json: "json", jsonc: "json", json5: "json",
  kt: "kotlin", kts: "kotlin", kotlin: "kotlin",
  lua: "lua",
  make: "makefile", makefile: "makefile", mk: "makefile",
  md: "markdown", markdown: "markdown",
  php: "php",
  ps1: "powershell", powershell: "powershell", pwsh: "powershell",
  proto: "protobuf", protobuf: "protobuf",
  py: "python", python: "python", python3: "python",
  rb: "ruby", ruby: "ruby",
  rs: "rust", rust: "rust",
  scss: "scss",
  shell: "shell", console: "shell", shellsession: "shell",
  sql: "sql",
  swift: "swift",
  ts: "typescript", typescript: "typescript", tsx: "typescript", mts: "typescript", cts: "typescript",
  html: "xml", htm: "xml", xhtml: "xml", xml: "xml", svg: "xml",
  yaml: "yaml", yml: "yaml",
};

/** Code longer than this (UTF-16 code units, about bytes for code) is left plain. */
export const HIGHLIGHT_MAX_BYTES = 100_000;

/** The longest an idle callback may wait before it runs anyway, in ms. */
export const IDLE_TIMEOUT_MS = 500;

/** Where a code block is: see the module comment. */
export type HighlightState = "queued" | "done" | "plain" | "skipped" | "failed";

/** The grammar for a fence's language name, or undefined (plain text). */
export function languageFor(fence: string | undefined): LanguageId | undefined {
  return fence ? LANGUAGE_ALIASES[fence.toLowerCase()] : undefined;
}

/** The language named by a `<code>`'s `language-xxx` class (what marked writes for a fence's info string). */
export function fenceLanguage(code: Element | null | undefined): string | undefined {
  return /(?:^|\s)language-([\w#+.-]+)/.exec(code?.className ?? "")?.[1];
}

/** Counters the tests read: highlight runs (one per block highlighted, cache hits not counted). */
export const highlightStats = { runs: 0 };

const queue: HTMLElement[] = [];
let draining = false;
let loading: Promise<Highlighter> | undefined;

/**
 * Highlights the finished code blocks under `root` (decorated `div.code-block`s not yet handled), later and in
 * idle time. Cheap when there is none, and when a block was already handled. A block whose code was highlighted
 * before (same language and text, e.g. the final render after streaming, or a message scrolled back into view) is
 * coloured at once from a cache.
 */
export function highlightCodeBlocks(root: Element): void {
  for (const block of Array.from(root.querySelectorAll<HTMLElement>("div.code-block:not([data-highlight])"))) {
    const code = block.querySelector<HTMLElement>(":scope > pre > code");
    const language = languageFor(fenceLanguage(code));
    if (!code || !language) {
      block.dataset.highlight = "plain";
      continue;
    }
    const text = code.textContent ?? "";
    if (text.length > HIGHLIGHT_MAX_BYTES) {
      block.dataset.highlight = "skipped";
      continue;
    }
    const cached = cache.get(cacheKey(language, text));
    if (cached !== undefined) {
      setState(block, applyHighlight(code, cached, text) ? "done" : "failed");
      continue;
    }
    block.dataset.highlight = "queued";
    queue.push(block);
  }
  if (queue.length && !draining) void drain();
}

async function drain(): Promise<void> {
  draining = true;
  try {
    for (let block = queue.shift(); block; block = queue.shift()) {
      if (block.isConnected) await highlightOne(block);
      else delete block.dataset.highlight; // mounted again later: handled then
    }
  } finally {
    draining = false;
  }
}

async function highlightOne(block: HTMLElement): Promise<void> {
  const code = block.querySelector<HTMLElement>(":scope > pre > code");
  const language = languageFor(fenceLanguage(code));
  if (!code || !language) return setState(block, "plain");
  try {
    loading ??= import("./highlighter").then((m) => m.createHighlighter());
    const highlighter = await loading;
    await highlighter.load(language);
    await idle();
    if (!block.isConnected) return void delete block.dataset.highlight;
    const text = code.textContent ?? "";
    const html = highlighter.highlight(text, language);
    highlightStats.runs++;
    const ok = applyHighlight(code, html, text);
    if (ok) remember(cacheKey(language, text), html);
    setState(block, ok ? "done" : "failed");
  } catch (err) {
    // A chunk that failed to load (e.g. a webview reloaded mid-fetch) is retried by the next block.
    loading = undefined;
    console.debug?.("sidekicks: code highlighting failed", err);
    setState(block, "failed");
  }
}

function setState(block: HTMLElement, state: HighlightState): void {
  block.dataset.highlight = state;
}

/** Resolves in an idle period (or after {@link IDLE_TIMEOUT_MS}), after paint. */
function idle(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestIdleCallback === "function") requestIdleCallback(() => resolve(), { timeout: IDLE_TIMEOUT_MS });
    else setTimeout(resolve, 16);
  });
}

/** One token class: `hljs-keyword`, `language-css` (an embedded language), or a scope suffix such as `function_`. */
const TOKEN_CLASS = /^(?:hljs-[\w-]+|language-[\w-]+|[a-z]+_+)$/;

/**
 * Replaces `code`'s text by highlight.js's HTML when that HTML is only token spans and its text is exactly `text`.
 * Parsed in an inert `<template>` first (nothing runs, nothing loads). Returns false and leaves `code` as it was
 * otherwise.
 */
export function applyHighlight(code: HTMLElement, html: string, text: string): boolean {
  if ((code.textContent ?? "") !== text) return false;
  const template = code.ownerDocument.createElement("template");
  template.innerHTML = html;
  const content = template.content;
  for (const el of Array.from(content.querySelectorAll("*"))) {
    if (el.tagName !== "SPAN" || el.attributes.length !== 1 || !el.hasAttribute("class")) return false;
    if (!Array.from(el.classList).every((c) => TOKEN_CLASS.test(c))) return false;
  }
  if (content.textContent !== text) return false;
  code.replaceChildren(content);
  return true;
}

/** Highlighted HTML by language and text, so a block rendered again is coloured without work. */
const cache = new Map<string, string>();
let cacheChars = 0;
/** Total size of the cache's HTML, in UTF-16 code units (about bytes). */
const CACHE_MAX_CHARS = 4_000_000;

function cacheKey(language: LanguageId, text: string): string {
  return `${language}\u0000${text}`;
}

function remember(key: string, html: string): void {
  if (html.length > CACHE_MAX_CHARS / 4) return;
  cache.set(key, html);
  cacheChars += html.length + key.length;
  for (const [oldKey, oldHtml] of cache) {
    if (cacheChars <= CACHE_MAX_CHARS) break;
    cache.delete(oldKey);
    cacheChars -= oldHtml.length + oldKey.length;
  }
}
