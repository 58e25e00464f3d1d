import { ClassicLevel } from "classic-level";
import fs from "node:fs";
const dir = process.argv[2] + "/db";
const db = new ClassicLevel(dir);
await db.open();
const ok = []; let firstErr; let i = 0;
for (; i < 100000; i++) {
  try { await db.batch([{ type: "put", key: `m/${String(i).padStart(6, "0")}`, value: "y".repeat(i % 7 === 0 ? 3000 : 300) }], { sync: process.env.SYNC === "1" }); if (firstErr) ok.push(i); }
  catch (e) { if (!firstErr) { firstErr = e; console.log("first error at", i, e.code, e.message); } else console.log("later error", i, e.code, e.message); }
  if (firstErr && i > firstErrIdx() + 8) break;
}
function firstErrIdx() { return exp2idx ??= i; }
var exp2idx;
console.log("succeeded after first error:", ok);
try { await db.close(); } catch (e) { console.log("close err", e.message); }
fs.cpSync(dir, "/tmp/fx/diskfull-copy", { recursive: true });
