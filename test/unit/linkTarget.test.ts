// Where a link in agent text may lead (src/vscode/linkTarget.ts, pure): external, a file in the editor, or refused.
import { test } from "node:test";
import assert from "node:assert/strict";
import { linkTarget, resolveLinkPath, type LinkTarget } from "../../src/vscode/linkTarget";

test("http(s) and mailto open externally, normalized", () => {
  assert.deepEqual(linkTarget("https://example.com/a?b=1#c"), { kind: "external", uri: "https://example.com/a?b=1#c" });
  assert.deepEqual(linkTarget(" HTTP://Example.com "), { kind: "external", uri: "http://example.com/" });
  assert.deepEqual(linkTarget("mailto:someone@example.com"), { kind: "external", uri: "mailto:someone@example.com" });
});

test("file links, absolute and relative paths open in the editor, with #L12 as the line", () => {
  assert.deepEqual(linkTarget("file:///home/me/src/a%20b.ts#L12"), { kind: "file", path: "/home/me/src/a b.ts", relative: false, line: 12 });
  assert.deepEqual(linkTarget("file:///C:/repo/a.ts"), { kind: "file", path: "C:/repo/a.ts", relative: false });
  assert.deepEqual(linkTarget("/home/me/a.ts#12"), { kind: "file", path: "/home/me/a.ts", relative: false, line: 12 });
  assert.deepEqual(linkTarget("src/a.ts#L3-L9"), { kind: "file", path: "src/a.ts", relative: true, line: 3 });
  assert.deepEqual(linkTarget("./README.md"), { kind: "file", path: "./README.md", relative: true });
  assert.deepEqual(linkTarget("docs/My%20Notes.md?plain=1"), { kind: "file", path: "docs/My Notes.md", relative: true });
  assert.deepEqual(linkTarget("C:\\repo\\a.ts"), { kind: "file", path: "C:\\repo\\a.ts", relative: false });
});

const REFUSED = [
  "javascript:alert(1)",
  "JavaScript:alert(1)",
  " javascript:alert(1)",
  "java\tscript:alert(1)",
  "data:text/html;base64,PHNjcmlwdD4=",
  "command:workbench.action.terminal.new",
  "command:sidekicks.startAgent?%5B%22x%22%5D",
  "vscode://file/etc/passwd",
  "vbscript:msgbox",
  "ftp://example.com/x",
  "file://evil.example.com/share/x",
  "//evil.example.com/x",
  "\\\\server\\share\\x",
  "#section",
  "",
  "https://",
  "src/%E0%A4%A.ts",
];

test("everything else is refused, with a reason", () => {
  for (const href of REFUSED) {
    const target = linkTarget(href);
    assert.equal(target.kind, "refused", `${JSON.stringify(href)} → ${JSON.stringify(target)}`);
    assert.match((target as Extract<LinkTarget, { kind: "refused" }>).reason, /^an? \S/, "a reason that reads in a sentence");
  }
});

test("a relative path resolves inside the workspace folder and may not leave it", () => {
  const file = (path: string) => linkTarget(path) as Extract<LinkTarget, { kind: "file" }>;
  assert.equal(resolveLinkPath(file("src/a.ts"), "/w"), "/w/src/a.ts");
  assert.equal(resolveLinkPath(file("./src/../b.ts"), "/w"), "/w/b.ts");
  assert.equal(resolveLinkPath(file("../secret"), "/w"), undefined);
  assert.equal(resolveLinkPath(file("src/../../x"), "/w"), undefined);
  assert.equal(resolveLinkPath(file("src/a.ts"), undefined), undefined);
  assert.equal(resolveLinkPath(file("/etc/hosts"), "/w"), "/etc/hosts", "an absolute path is the user's explicit click: it opens as is");
});
