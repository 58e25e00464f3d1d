/**
 * Where a heap's growth went, by V8's node kinds (issue 17's "heap growth ≤ 2 MB"): a heap snapshot of this process,
 * its bytes summed by kind (`object`, `string`, `array`, `closure`, `code` — compiled code, bytecode, feedback and
 * deoptimisation data —, …), and the difference between two such sums. Growth that is all `code` is the JIT
 * compiling paths the fuzz streams reach late, not data kept; growth in `object`, `string`, `array` or `closure` is
 * what a leak looks like. Used by test/fuzz/run.ts when FUZZ_HEAP_KINDS is set (a snapshot costs seconds).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import v8 from "node:v8";

/** Bytes of the live heap by V8 node kind (`node_types[0]` of the snapshot's meta), after a forced GC. */
export type HeapKinds = Map<string, number>;

interface SnapshotFile {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
}

/**
 * Takes a heap snapshot of this process (written to a temp file, read, deleted) and sums its nodes' self sizes by kind.
 * @throws Error when the snapshot cannot be written or parsed (a full temp folder)
 */
export function heapKinds(): HeapKinds {
  (globalThis as { gc?: () => void }).gc?.();
  const file = v8.writeHeapSnapshot(path.join(os.tmpdir(), `sidekicks-fuzz-${process.pid}-${Date.now()}.heapsnapshot`));
  try {
    const parsed = JSON.parse(fs.readFileSync(file, "utf8")) as SnapshotFile;
    const { node_fields: fields, node_types: [kinds] } = parsed.snapshot.meta;
    const kindAt = fields.indexOf("type");
    const sizeAt = fields.indexOf("self_size");
    const sums: HeapKinds = new Map();
    for (let i = 0; i < parsed.nodes.length; i += fields.length) {
      const kind = kinds[parsed.nodes[i + kindAt]!] ?? "unknown";
      sums.set(kind, (sums.get(kind) ?? 0) + parsed.nodes[i + sizeAt]!);
    }
    return sums;
  } finally {
    fs.rmSync(file, { force: true });
  }
}

/** `after − before` per kind in MB, largest change first, as `code +1.71, hidden +0.13, string −0.02` (changes under 1 KB left out). */
export function describeGrowth(before: HeapKinds, after: HeapKinds): string {
  const kinds = new Set([...before.keys(), ...after.keys()]);
  const changes = [...kinds].map((k) => [k, ((after.get(k) ?? 0) - (before.get(k) ?? 0)) / 2 ** 20] as const);
  return changes
    .filter(([, mb]) => Math.abs(mb) >= 1 / 1024)
    .sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]))
    .map(([k, mb]) => `${k} ${mb >= 0 ? "+" : "−"}${Math.abs(mb).toFixed(2)}`)
    .join(", ");
}
