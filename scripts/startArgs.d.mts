/** See startArgs.mjs. */
export const DEFAULT_PORT: number;
/** What `npm start -- --help` prints. */
export const START_USAGE: string;
/** Where an explicit port came from. */
export type PortSource = "--port" | "SIDEKICKS_PORT" | "PORT";
/** `npm start`'s options: help asked, an explicit port (and where from), or one sentence saying what is wrong. */
export interface StartOptions {
  help?: boolean;
  port?: number;
  portFrom?: PortSource;
  /** `--real-agents`: the real agents against the scripted model server instead of the demo agents. */
  realAgents?: boolean;
  error?: string;
}
/** See startArgs.mjs: reads `npm start`'s arguments (after `--`) and environment. */
export function parseStartArgs(argv: readonly string[], env?: Record<string, string | undefined>): StartOptions;
