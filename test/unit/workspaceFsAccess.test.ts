import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { SidekicksError } from "../../src/shared/errors";
import { Confinement } from "../../src/workspace/confinement";
import { ContainerPaths } from "../../src/workspace/container";
import { sliceLines, WorkspaceFiles, type DocumentPort } from "../../src/workspace/fsAccess";
import { tempDir } from "./helpers";

/** A fake editor: open documents by path, with the edits applied to them. */
class FakeDocuments implements DocumentPort {
  readonly open = new Map<string, string>();
  readonly edits: { path: string; content: string }[] = [];
  refuse = false;
  openText(p: string): string | undefined {
    return this.open.get(p);
  }
  async applyEdit(p: string, content: string): Promise<boolean> {
    if (this.refuse || !this.open.has(p)) return false;
    this.edits.push({ path: p, content });
    this.open.set(p, content);
    return true;
  }
}

const code = (c: string) => (e: unknown) => e instanceof SidekicksError && e.code === c;

describe("sliceLines (ACP line is 1-based, limit is a line count)", () => {
  const text = "one\ntwo\r\nthree\nfour";
  const cases: [line: number | null | undefined, limit: number | null | undefined, expected: string][] = [
    [undefined, undefined, text],
    [null, null, text],
    [1, 1, "one\n"],
    [2, 1, "two\r\n"],
    [2, 2, "two\r\nthree\n"],
    [3, undefined, "three\nfour"],
    [4, 10, "four"],
    [5, undefined, ""],
    [0, 1, "one\n"],
    [-3, 2, "one\ntwo\r\n"],
    [2, 0, ""],
  ];
  for (const [line, limit, expected] of cases) {
    it(`line ${line}, limit ${limit}`, () => assert.equal(sliceLines(text, line, limit), expected));
  }
  it("handles an empty file and a trailing newline", () => {
    assert.equal(sliceLines("", 1, 1), "");
    assert.equal(sliceLines("a\n", 2, 1), "");
    assert.equal(sliceLines("a\nb\n", 2, 1), "b\n");
  });
});

describe("WorkspaceFiles", () => {
  const t = tempDir("sidekicks-fs-");
  const base = realpathSync(t.dir);
  const ws = path.join(base, "ws");
  const outside = path.join(base, "outside");
  let docs: FakeDocuments;
  let files: WorkspaceFiles;

  before(async () => {
    mkdirSync(path.join(ws, "src"), { recursive: true });
    mkdirSync(outside);
    writeFileSync(path.join(ws, "src", "main.ts"), "line 1\nline 2\nline 3\n");
    writeFileSync(path.join(outside, "secret.txt"), "secret");
    symlinkSync(outside, path.join(ws, "out-link"));
    symlinkSync(path.join(ws, "src"), path.join(ws, "src-link"));
    docs = new FakeDocuments();
    files = new WorkspaceFiles({ confinement: await Confinement.create([ws]), documents: docs });
  });
  after(() => t.cleanup());

  it("reads the file on disk when it is not open", async () => {
    assert.equal(await files.readTextFile(path.join(ws, "src", "main.ts")), "line 1\nline 2\nline 3\n");
    assert.equal(await files.readTextFile(path.join(ws, "src", "main.ts"), { line: 2, limit: 1 }), "line 2\n");
  });

  it("reads the unsaved editor buffer when the file is open", async () => {
    const p = path.join(ws, "src", "main.ts");
    docs.open.set(p, "unsaved 1\nunsaved 2\n");
    try {
      assert.equal(await files.readTextFile(p), "unsaved 1\nunsaved 2\n");
      assert.equal(await files.readTextFile(p, { line: 2 }), "unsaved 2\n");
      assert.equal(await files.readTextFile(ws + "/src/../src/main.ts"), "unsaved 1\nunsaved 2\n", "found by the normalized path");
      assert.equal(await files.readTextFile(path.join(ws, "src-link", "main.ts")), "unsaved 1\nunsaved 2\n", "found by the real path");
    } finally {
      docs.open.delete(p);
    }
  });

  it("refuses paths outside the workspace, escaping symlinks and relative paths, for reads and writes", async () => {
    for (const p of [path.join(outside, "secret.txt"), ws + "/../outside/secret.txt", path.join(ws, "out-link", "secret.txt"), "src/main.ts"]) {
      await assert.rejects(files.readTextFile(p), code("workspace/outside"), p);
      await assert.rejects(files.writeTextFile(p, "pwned"), code("workspace/outside"), p);
    }
    await assert.rejects(files.writeTextFile(path.join(ws, "out-link", "new.txt"), "pwned"), code("workspace/outside"));
    assert.equal(readFileSync(path.join(outside, "secret.txt"), "utf8"), "secret");
    assert.equal(existsSync(path.join(outside, "new.txt")), false);
  });

  it("says clearly when a file does not exist or is a folder", async () => {
    await assert.rejects(files.readTextFile(path.join(ws, "missing.ts")), (e: unknown) => code("workspace/notFound")(e) && /File not found/.test((e as Error).message));
    await assert.rejects(files.readTextFile(path.join(ws, "src")), (e: unknown) => code("workspace/notFound")(e) && /is a folder/.test((e as Error).message));
    await assert.rejects(files.writeTextFile(path.join(ws, "src"), "x"), code("workspace/writeFailed"));
  });

  it("writes to disk when the file is not open, creating parent folders", async () => {
    const p = path.join(ws, "new dir", "déjà vu", "file.txt");
    const r = await files.writeTextFile(p, "héllo\n");
    assert.deepEqual(r, { via: "disk", path: p, realPath: p, created: true });
    assert.equal(readFileSync(p, "utf8"), "héllo\n");
    const again = await files.writeTextFile(p, "again\n");
    assert.equal(again.created, false);
    assert.equal(readFileSync(p, "utf8"), "again\n");
    assert.equal(docs.edits.length, 0);
  });

  it("writes through a symlink inside the workspace to its target", async () => {
    const r = await files.writeTextFile(path.join(ws, "src-link", "linked.ts"), "via link\n");
    assert.equal(r.realPath, path.join(ws, "src", "linked.ts"));
    assert.equal(readFileSync(path.join(ws, "src", "linked.ts"), "utf8"), "via link\n");
  });

  it("applies the write through the editor when the file is open, leaving the disk alone", async () => {
    const p = path.join(ws, "src", "main.ts");
    docs.open.set(p, "unsaved\n");
    try {
      const r = await files.writeTextFile(p, "from the agent\n");
      assert.deepEqual(r, { via: "editor", path: p, realPath: p, created: false });
      assert.deepEqual(docs.edits.at(-1), { path: p, content: "from the agent\n" });
      assert.equal(docs.open.get(p), "from the agent\n");
      assert.equal(readFileSync(p, "utf8"), "line 1\nline 2\nline 3\n");
      assert.equal(await files.readTextFile(p), "from the agent\n");
    } finally {
      docs.open.delete(p);
    }
  });

  it("reports an edit the editor refused", async () => {
    const p = path.join(ws, "src", "main.ts");
    docs.open.set(p, "open\n");
    docs.refuse = true;
    try {
      await assert.rejects(files.writeTextFile(p, "x"), code("workspace/writeFailed"));
    } finally {
      docs.refuse = false;
      docs.open.delete(p);
    }
  });

  it("works without an editor (disk only)", async () => {
    const diskOnly = new WorkspaceFiles({ confinement: await Confinement.create([ws]) });
    assert.equal(await diskOnly.readTextFile(path.join(ws, "src", "main.ts"), { line: 3, limit: 5 }), "line 3\n");
  });

  it("maps container paths to host paths first (container runtime)", async () => {
    const paths = new ContainerPaths([{ host: ws, container: "/workspace" }]);
    const inContainer = new WorkspaceFiles({ confinement: await Confinement.create([ws]), documents: docs, toHost: (p) => paths.toHost(p) });
    assert.equal(await inContainer.readTextFile("/workspace/src/main.ts", { line: 1, limit: 1 }), "line 1\n");
    const r = await inContainer.writeTextFile("/workspace/from container.txt", "c\n");
    assert.equal(r.path, path.join(ws, "from container.txt"));
    assert.equal(readFileSync(path.join(ws, "from container.txt"), "utf8"), "c\n");
    await assert.rejects(inContainer.readTextFile("/etc/passwd"), code("workspace/outside"));
    await assert.rejects(inContainer.readTextFile("/workspace/../etc/passwd"), code("workspace/outside"));
    await assert.rejects(inContainer.readTextFile("/workspace/out-link/secret.txt"), code("workspace/outside"));
  });
});
