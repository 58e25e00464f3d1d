// `@file` completion's host side (issue 21): the typed word read as a path and lines, files ranked as quick open
// would, `.gitignore` asked of real git in a temp repository, and the `files/find` request checked where it enters.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { EditorPort } from "../../src/app/EditorPort";
import { editorHandlers } from "../../src/app/webviewApi/editorHandlers";
import { badLineRange, fileWordBefore, parseFileMention, rankFiles } from "../../src/shared/fileMentions";
import { unmatchedPathsNote } from "../../webview/editorActions";
import type { FileSuggestion } from "../../src/shared/protocol";
import { WEBVIEW_REQUEST_GUARDS } from "../../src/shared/protocol/requestGuards";
import { git, makeRepo } from "./gitRepos";
import { tempDir } from "./helpers";

test("the word after @ reads as a path with the lines it names, a range that cannot be lines as part of the name", () => {
  const table: [string, ReturnType<typeof parseFileMention>][] = [
    ["src/a.ts", { query: "src/a.ts" }],
    ["src/a.ts:10-20", { query: "src/a.ts", range: { start: 10, end: 20 } }],
    ["src/a.ts#L10-20", { query: "src/a.ts", range: { start: 10, end: 20 } }],
    ["src/a.ts#L10-L20", { query: "src/a.ts", range: { start: 10, end: 20 } }],
    ["a.ts:7", { query: "a.ts", range: { start: 7, end: 7 } }],
    ["a.ts#7", { query: "a.ts", range: { start: 7, end: 7 } }],
    ["a.ts:20-10", { query: "a.ts:20-10" }],
    ["a.ts:0", { query: "a.ts:0" }],
    [":12", { query: ":12" }],
    ["C:", { query: "C:" }],
  ];
  for (const [word, expected] of table) assert.deepEqual(parseFileMention(word), expected, word);
  assert.deepEqual(fileWordBefore("look at @src/a.ts:3", 19), { word: "src/a.ts:3", from: 8 });
  assert.equal(fileWordBefore("mail me@host.com", 16), undefined, "an @ inside a word is not a mention");
  assert.equal(fileWordBefore("`@src/a.ts", 10), undefined, "not after a backtick");
});

test("a typed range written backwards or naming line 0 is said so, with the range put right, not as a missing file", () => {
  assert.deepEqual(badLineRange("src/a.ts:3-1"), { path: "src/a.ts", fixed: "src/a.ts:1-3" });
  assert.deepEqual(badLineRange("a.ts#L0"), { path: "a.ts", fixed: "a.ts:1" });
  assert.deepEqual(badLineRange("a.ts:0-4"), { path: "a.ts", fixed: "a.ts:1-4" });
  for (const good of ["a.ts", "a.ts:3", "a.ts:1-3", "a.ts#L2-L9"]) assert.equal(badLineRange(good), undefined, good);
  assert.equal(unmatchedPathsNote(["src/a.ts:3-1"]), "@src/a.ts:3-1: that line range ends before it starts or names line 0 — sent as text. Write @src/a.ts:1-3 to attach those lines.");
  assert.equal(
    unmatchedPathsNote(["nope.ts", "a.ts:9-2"]),
    "@nope.ts: no such file in the workspace — sent as text. @a.ts:9-2: that line range ends before it starts or names line 0 — sent as text. Write @a.ts:2-9 to attach those lines.",
  );
  assert.equal(unmatchedPathsNote(["x.ts", "y.ts"]), "@x.ts, @y.ts: no such files in the workspace — sent as text");
});

test("files rank as quick open ranks them: the file name first, then the path, then a scattered match; no match, no file", () => {
  const files = ["src/app/compose.ts", "src/app/composeChannels.ts", "docs/compose-notes.md", "src/channels/context.ts", "test/unit/appHarness.ts", "README.md"].map((relative) => ({ relative }));
  const names = (query: string, max?: number) => rankFiles(query, files, max).map((f) => f.relative);
  assert.equal(names("compose.ts")[0], "src/app/compose.ts", "the exact name first");
  assert.deepEqual(names("compose").slice(0, 3), ["src/app/compose.ts", "docs/compose-notes.md", "src/app/composeChannels.ts"], "names starting with it, shorter paths first");
  assert.equal(names("app/comp")[0], "src/app/compose.ts", "a path fragment");
  assert.equal(names("chctx")[0], "src/channels/context.ts", "a scattered match");
  assert.deepEqual(names("readme"), ["README.md"], "case does not matter");
  assert.deepEqual(names("zzz"), []);
  assert.equal(names("s", 2).length, 2, "capped");
});

test("files/find offers the workspace's files less what .gitignore ignores, ranked, the listing reused across keystrokes", async () => {
  const { dir, cleanup } = tempDir();
  try {
    const repo = makeRepo(dir);
    mkdirSync(path.join(repo, "src"));
    mkdirSync(path.join(repo, "dist"));
    writeFileSync(path.join(repo, ".gitignore"), "dist/\n*.log\n");
    writeFileSync(path.join(repo, "src", "main.ts"), "");
    writeFileSync(path.join(repo, "dist", "main.js"), "");
    writeFileSync(path.join(repo, "main.log"), "");
    writeFileSync(path.join(repo, "kept.log"), "");
    git(repo, "add", "-f", "kept.log"); // tracked: git keeps it whatever .gitignore says
    const plain = path.join(dir, "plain"); // not a git work tree: all of its files
    mkdirSync(plain);
    writeFileSync(path.join(plain, "main.log"), "");
    const listed = ["README.md", "src/main.ts", "dist/main.js", "main.log", "kept.log", ".gitignore"].map((r): FileSuggestion => ({ path: path.join(repo, r), relative: r }));
    listed.push({ path: path.join(plain, "main.log"), relative: "main.log" });
    let listings = 0;
    const editor: EditorPort = {
      isTrusted: () => true,
      runCommand: async () => undefined,
      log: () => undefined,
      showProblems: () => undefined,
      workspaceFiles: async () => (listings++, listed),
    };
    const find = editorHandlers(editor)["files/find"];
    const found = (await find({ query: "main" })).files.map((f) => f.path);
    assert.deepEqual(found.sort(), [path.join(plain, "main.log"), path.join(repo, "src", "main.ts")].sort(), "dist/ and the untracked .log left out");
    assert.deepEqual((await find({ query: "kept.log:3-4" })).files.map((f) => f.relative), ["kept.log"], "a tracked file stays; the lines do not take part in ranking");
    assert.equal(listings, 1, "one listing for both keystrokes");
    assert.deepEqual((await editorHandlers({ ...editor, workspaceFiles: undefined })["files/find"]({ query: "main" })).files, [], "an editor that cannot list offers none");
  } finally {
    cleanup();
  }
});

test("files/find in a folder that an enclosing repository ignores as a whole (a scratch folder in a clone) offers its files", async () => {
  const { dir, cleanup } = tempDir();
  try {
    const repo = makeRepo(dir);
    writeFileSync(path.join(repo, ".gitignore"), ".demo/\n");
    const folder = path.join(repo, ".demo", "workspace");
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, "README.md"), "");
    const listed = [{ path: path.join(folder, "README.md"), relative: "README.md" }];
    const editor: EditorPort = { isTrusted: () => true, runCommand: async () => undefined, log: () => undefined, showProblems: () => undefined, workspaceFiles: async () => listed };
    assert.deepEqual((await editorHandlers(editor)["files/find"]({ query: "READ" })).files.map((f) => f.relative), ["README.md"], "the folder the user opened is theirs to work on");
  } finally {
    cleanup();
  }
});

test("files/find from the webview is checked where it enters: a string of one line, at most 256 characters, nothing else", () => {
  const guard = WEBVIEW_REQUEST_GUARDS["files/find"];
  assert.deepEqual(guard({ query: "src/a.ts:1-2" }, "params"), { query: "src/a.ts:1-2" });
  assert.deepEqual(guard({ query: "" }, "params"), { query: "" });
  for (const bad of [{}, { query: 3 }, { query: "a\nb" }, { query: "x".repeat(257) }, { query: "a", glob: "**/*" }, null]) {
    assert.throws(() => guard(bad, "params"), Error, JSON.stringify(bad));
  }
});
