/**
 * Search results read as text (issue 21): a snippet cut from a message's Markdown loses the marks a list of text
 * shows as noise, and keeps every word and whatever is not a mark (snake_case, a comparison, a #channel).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { plainSnippet } from "../../src/shared/markdownPlain";

test("a snippet loses bold, code, quote, heading and link marks, and keeps every word", () => {
  const table: [string, string][] = [
    ["Hello from the **demo agent**. demo handed this to me: > say hello.", "Hello from the demo agent. demo handed this to me: say hello."],
    ["Run `npm test` then ``a `b` c``", "Run npm test then a `b` c"],
    ["# Plan\n\n1. read the [README](docs/README.md) and ![logo](x.png)", "Plan 1. read the README and logo"],
    ["it is *very* fast, _really_.", "it is very fast, really."],
    ["…the middle of a **sentence", "…the middle of a **sentence"],
  ];
  for (const [snippet, plain] of table) assert.equal(plainSnippet(snippet), plain, snippet);
  for (const kept of ["my_var_name and __init__.py", "if x > 5 then", "in #general and #2", "2 * 3 * 4"]) assert.equal(plainSnippet(kept), kept, kept);
});
