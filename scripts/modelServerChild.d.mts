import type { ChildProcess } from "node:child_process";
/** See modelServerChild.mjs: the scripted model server as a child process that never outlives its parent. */
export function startModelServerChild(options?: { port?: number; logFile?: string; node?: string; timeoutMs?: number }): Promise<{
  url: string;
  port: number;
  child: ChildProcess;
  stop: () => Promise<void>;
}>;
