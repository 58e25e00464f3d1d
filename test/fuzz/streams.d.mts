/**
 * See streams.mjs: the fuzz suite's streams, declared for test/fuzz/run.ts (the `.mjs` is shared with the fuzz agent,
 * which runs under plain Node).
 */
export type Step =
  | { kind: "text"; token: string }
  | { kind: "line"; line: string }
  | { kind: "bytes"; hex: string }
  | { kind: "update"; update: unknown }
  | { kind: "request"; method: string; params: unknown }
  | { kind: "exit"; code: number };
export type End =
  | { kind: "result"; value: unknown }
  | { kind: "error" }
  | { kind: "exit"; code: number }
  | { kind: "kill" }
  | { kind: "silent"; honorCancel: boolean };
export interface Stream {
  seed: number;
  steps: Step[];
  end: End;
}
export const UPDATE_KINDS: string[];
export function prng(seed: number): () => number;
export function streamOf(seed: number, options?: { maxSteps?: number; hugeLineBytes?: number }): Stream;
