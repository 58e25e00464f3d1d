import { ClassicLevel } from "classic-level";
import fs from "node:fs";
const dir = process.argv[2] + "/db";
const db = new ClassicLevel(dir);
await db.open();
const filler = process.argv[2] + "/filler";
fs.writeFileSync(filler, Buffer.alloc(1024 * 1024 * 1.5));
const ok = []; let err = -1;
for (let i = 0; i < 100000; i++) {
  try { await db.batch([{ type: "put", key: `m/${String(i).padStart(6, "0")}`, value: "y".repeat(i % 7 === 0 ? 3000 : 300) }], { sync: process.env.SYNC === "1" }); if (err >= 0) ok.push(i); }
  catch (e) { if (err < 0) { err = i; console.log("first error at", i, e.code, e.message); fs.rmSync(filler); } else console.log("later error", i, e.message); }
  if (err >= 0 && i >= err + 3) break;
}
console.log("succeeded after first error:", ok);
await db.close();
fs.rmSync("/tmp/fx/diskfull-copy", { recursive: true, force: true });
fs.cpSync(dir, "/tmp/fx/diskfull-copy", { recursive: true });
