import assert from "node:assert/strict";
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { SidekicksError } from "../../src/shared/errors";
import { Confinement, type RefusalKind } from "../../src/workspace/confinement";
import { tempDir } from "./helpers";

/*
 * The confinement table (issue #7): real temp folders, real symlinks.
 *
 *   <base>/ws/                     the workspace root
 *     a.txt, ..foo, sub/b.txt, "with space/c d.txt", données/文件.txt
 *     link-in -> sub               link-file-in -> a.txt          dangling-in -> new-in.txt (missing)
 *     link-out -> <base>/outside   link-file-out -> outside/secret.txt
 *     dangling-out -> <base>/outside/new.txt (missing)             sub/rel-up -> ../../outside (relative link)
 *     loop-a -> loop-b -> loop-a
 *   <base>/ws-link -> ws           a root that is itself a symlink
 *   <base>/outside/secret.txt      <base>/ws-evil/x.txt (shares the prefix "ws")
 */
describe("workspace confinement", () => {
  const t = tempDir("sidekicks-confine-");
  const base = realpathSync(t.dir);
  const ws = path.join(base, "ws");
  const out = path.join(base, "outside");
  let plain: Confinement;
  let viaLink: Confinement;
  let ignoringCase: Confinement;

  before(async () => {
    mkdirSync(path.join(ws, "sub"), { recursive: true });
    mkdirSync(path.join(ws, "with space"));
    mkdirSync(path.join(ws, "données"));
    mkdirSync(out);
    mkdirSync(path.join(base, "ws-evil"));
    writeFileSync(path.join(ws, "a.txt"), "a");
    writeFileSync(path.join(ws, "..foo"), "dots");
    writeFileSync(path.join(ws, "sub", "b.txt"), "b");
    writeFileSync(path.join(ws, "with space", "c d.txt"), "c");
    writeFileSync(path.join(ws, "données", "文件.txt"), "unicode");
    writeFileSync(path.join(out, "secret.txt"), "secret");
    writeFileSync(path.join(base, "ws-evil", "x.txt"), "x");
    symlinkSync(path.join(ws, "sub"), path.join(ws, "link-in"));
    symlinkSync(path.join(ws, "a.txt"), path.join(ws, "link-file-in"));
    symlinkSync(path.join(ws, "new-in.txt"), path.join(ws, "dangling-in"));
    symlinkSync(out, path.join(ws, "link-out"));
    symlinkSync(path.join(out, "secret.txt"), path.join(ws, "link-file-out"));
    symlinkSync(path.join(out, "new.txt"), path.join(ws, "dangling-out"));
    symlinkSync("../../outside", path.join(ws, "sub", "rel-up"));
    symlinkSync(ws, path.join(base, "ws-link"));
    symlinkSync(path.join(ws, "loop-b"), path.join(ws, "loop-a"));
    symlinkSync(path.join(ws, "loop-a"), path.join(ws, "loop-b"));
    plain = await Confinement.create([ws], { caseInsensitive: false });
    viaLink = await Confinement.create([path.join(base, "ws-link") + "/"], { caseInsensitive: false });
    ignoringCase = await Confinement.create([ws], { caseInsensitive: true });
  });
  after(() => t.cleanup());

  type Row = [what: string, requested: () => string, expected: "allow" | RefusalKind, confinement?: () => Confinement];
  const w = (...parts: string[]) => () => path.join(ws, ...parts);
  const table: Row[] = [
    ["relative file", () => "a.txt", "relative"],
    ["relative ./ path", () => "./sub/b.txt", "relative"],
    ["relative .. path", () => "../outside/secret.txt", "relative"],
    ["empty path", () => "", "invalid"],
    ["NUL in the path", () => ws + "/a.txt\0.png", "invalid"],
    ["absolute file inside", w("a.txt"), "allow"],
    ["the root itself, trailing slash", () => ws + "/", "allow"],
    ["folder with trailing slash", () => ws + "/sub/", "allow"],
    ["doubled separators", () => ws + "//sub///b.txt", "allow"],
    ["`.` segments", () => ws + "/./sub/./b.txt", "allow"],
    [".. that stays inside", () => ws + "/sub/../a.txt", "allow"],
    ["a file named ..foo", w("..foo"), "allow"],
    [".. escape from the root", () => ws + "/../outside/secret.txt", "dotdot"],
    [".. escape from a sub-folder", () => ws + "/sub/../../outside/secret.txt", "dotdot"],
    ["many .. to /etc", () => ws + "/../../../../../../../etc/passwd", "dotdot"],
    ["absolute elsewhere: /etc/passwd", () => "/etc/passwd", "outside"],
    ["absolute elsewhere: sibling folder", () => path.join(out, "secret.txt"), "outside"],
    ["sibling sharing the root's prefix", () => path.join(base, "ws-evil", "x.txt"), "outside"],
    ["the root's parent", () => base, "outside"],
    ["new file in new folders inside", w("new", "deep", "file.txt"), "allow"],
    ["symlinked folder inside", w("link-in", "b.txt"), "allow"],
    ["symlinked file inside", w("link-file-in"), "allow"],
    ["dangling symlink to a new file inside", w("dangling-in"), "allow"],
    ["symlinked folder escaping", w("link-out", "secret.txt"), "symlink"],
    ["symlinked file escaping", w("link-file-out"), "symlink"],
    ["new file under an escaping symlink", w("link-out", "new.txt"), "symlink"],
    ["dangling symlink escaping (write would land outside)", w("dangling-out"), "symlink"],
    ["relative symlink escaping", w("sub", "rel-up", "secret.txt"), "symlink"],
    ["a loop of symlinks", w("loop-a", "x.txt"), "symlink"],
    ["a loop of symlinks, the link itself", w("loop-b"), "symlink"],
    ["link/.. follows the kernel (parent of the target)", () => ws + "/link-out/../a.txt", "symlink"],
    ["space in folder and file names", w("with space", "c d.txt"), "allow"],
    ["new file with spaces", w("with space", "new file (1).txt"), "allow"],
    ["unicode names", w("données", "文件.txt"), "allow"],
    ["unicode .. escape", () => ws + "/données/../../outside/secret.txt", "dotdot"],
    ["emoji file name, new", w("données", "🚀 launch.md"), "allow"],
    ["different case (case-sensitive)", () => ws.toUpperCase() + "/A.TXT", "outside"],
    ["different case (case-insensitive option)", () => ws.toUpperCase() + "/A.TXT", "allow", () => ignoringCase],
    ["root is a symlink: path through the link", () => path.join(base, "ws-link", "a.txt"), "allow", () => viaLink],
    ["root is a symlink: path by its real name", w("sub", "b.txt"), "allow", () => viaLink],
    ["root is a symlink: .. escape", () => base + "/ws-link/../outside/secret.txt", "dotdot", () => viaLink],
    ["root is a symlink: escaping symlink inside", () => path.join(base, "ws-link", "link-out", "secret.txt"), "symlink", () => viaLink],
  ];

  it("has at least 20 rows", () => assert.ok(table.length >= 20, `${table.length} rows`));

  for (const [what, requested, expected, which] of table) {
    it(`${expected === "allow" ? "allows" : "refuses"}: ${what}`, async () => {
      const c = which ? which() : plain;
      const p = requested();
      const d = await c.check(p);
      if (expected === "allow") {
        assert.equal(d.allowed, true, `${p}: ${d.allowed ? "" : d.reason}`);
      } else {
        assert.equal(d.allowed, false, `${p} should be refused (${expected})`);
        if (!d.allowed) {
          assert.equal(d.kind, expected, d.reason);
          assert.match(d.reason, /^Refused "/);
          assert.ok(d.reason.includes(c.roots[0]!), `the reason names the workspace: ${d.reason}`);
        }
      }
    });
  }

  it("reports the normalized path, the real path and whether it exists", async () => {
    const d = await plain.check(ws + "/link-in/b.txt");
    assert.ok(d.allowed);
    assert.equal(d.path, path.join(ws, "link-in", "b.txt"));
    assert.equal(d.realPath, path.join(ws, "sub", "b.txt"));
    assert.equal(d.root, ws);
    assert.equal(d.exists, true);
    const n = await plain.check(ws + "/new/x.txt/");
    assert.ok(n.allowed);
    assert.equal(n.path, path.join(ws, "new", "x.txt"));
    assert.equal(n.exists, false);
  });

  it("says where an escaping symlink leads", async () => {
    const d = await plain.check(path.join(ws, "link-file-out"));
    assert.ok(!d.allowed);
    assert.ok(d.reason.includes(path.join(out, "secret.txt")), d.reason);
    assert.match(d.reason, /symbolic link/);
  });

  it("assert() throws workspace/outside with the reason", async () => {
    await assert.rejects(plain.assert("/etc/passwd"), (err: unknown) => {
      assert.ok(err instanceof SidekicksError);
      assert.equal(err.code, "workspace/outside");
      assert.equal(err.message, `Refused "/etc/passwd": it is outside the agent's workspace ${ws}.`);
      return true;
    });
    assert.equal((await plain.assert(path.join(ws, "a.txt"))).realPath, path.join(ws, "a.txt"));
  });

  it("accepts several roots and names them all when refusing", async () => {
    const c = await Confinement.create([ws, out], { caseInsensitive: false });
    const d = await c.check(path.join(out, "secret.txt"));
    assert.ok(d.allowed);
    assert.equal(d.root, out);
    const r = await c.check("/etc/passwd");
    assert.ok(!r.allowed);
    assert.ok(r.reason.includes(`${ws}, ${out}`), r.reason);
  });

  it("rejects building without roots or with a relative root", async () => {
    await assert.rejects(Confinement.create([]), /at least one/);
    await assert.rejects(Confinement.create(["relative/root"]), /not absolute/);
  });
});
