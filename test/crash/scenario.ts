/**
 * What the crash suite's child does and what the harness expects of it: the fake agents' scripts, the user
 * messages sent (some to a busy agent, so their turns queue), the phases a kill point can target, a seeded PRNG and
 * the text hash the journal carries. Shared by `child.ts` (the channel core that is killed) and `run.ts` (the harness).
 */
import { createHash } from "node:crypto";

/** The phases a kill point targets (see {@link PHASE_MEANING}). */
export type Phase = "admission" | "dispatch" | "streaming" | "checkpoint" | "settlement" | "tool intent" | "recovery" | "random time" | "delegation";

/**
 * Every phase, in report order. A commit is classified by {@link classifyCommit}; `streaming` kills at the nth
 * `message/delta` (a chunk or tool-call update just applied, nothing being written); `tool intent` at the nth intent
 * batch of an agent's `fs/write_text_file` (src/turns/intents.ts commits them under `intents`); `recovery` is a
 * second crash: after a random-time kill, a second child opens the store and is killed at the nth commit of its own
 * recovery (the sweeper's batches), before the check; `random time` is a SIGKILL from the parent at a uniformly
 * drawn moment.
 */
export const PHASES: readonly Phase[] = ["admission", "dispatch", "streaming", "checkpoint", "settlement", "tool intent", "recovery", "random time"];

/** What the phases mean, for the report and docs/reliability.md. */
export const PHASE_MEANING: Record<Phase, string> = {
  admission: "the batch that writes a user message with its turns (before it is written, or just after)",
  dispatch: "the batch that claims a queued turn (attempt n + 1, owner) when its lane frees",
  streaming: "just after the nth streamed delta (text chunk, tool call, tool call update) is applied, between writes",
  checkpoint: "a fenced checkpoint or heartbeat batch of a running turn (before or after it is written)",
  settlement: "the batch that settles a turn (message, turn record, member's lastSeen) — before or after",
  "tool intent": "a tool intent batch of a file write (intended, running or settled), before or after it is written",
  recovery: "a second crash: a random-time kill, then a second child killed at the nth batch of its own recovery",
  "random time": "a SIGKILL from the harness at a random moment of the run",
  delegation: "a batch of a `delegate` tool call (the intent alone, the child's admission, the child's settlement), before or after (the delegation stage only)",
};

/** A batch given to `Store.commit`, as the child sees it (loosely typed: intents may be added by the lead). */
export interface CommitLike {
  messages?: { author: { kind: string } }[];
  turns?: { state: string }[];
  members?: unknown[];
  fence?: unknown;
  [other: string]: unknown;
}

/** The phase of one commit batch; `session` (the agent's ACP session id) and `other` are counted, never targeted. */
export function classifyCommit(changes: CommitLike): Phase | "session" | "other" {
  const intents = Object.entries(changes).filter(([key, value]) => /intent/i.test(key) && Array.isArray(value) && value.length > 0);
  if (intents.some(([, value]) => (value as { kind?: string }[]).some((i) => i.kind === "delegate"))) return "delegation";
  if (intents.length > 0) return "tool intent";
  const turns = changes.turns ?? [];
  if (turns.some((t) => t.state === "settled")) return "settlement";
  if (turns.length > 0 && (changes.messages ?? []).some((m) => m.author.kind !== "agent")) return "admission";
  if (turns.length > 0 && changes.fence) return "checkpoint";
  if (turns.length > 0) return "dispatch";
  if ((changes.members ?? []).length > 0) return "session";
  return "other";
}

/** One user message of a scenario: sent `atMs` after the child is ready, to the agents it mentions. */
export interface Send {
  atMs: number;
  text: string;
  to: string[];
}

/** A scenario: the agents (name → fake agent prompt steps) and the messages sent. */
export interface Scenario {
  name: string;
  agents: Record<string, object[]>;
  sends: Send[];
  /** Agents that announce MCP over HTTP (they get Sidekicks' MCP server in `session/new`). */
  mcpHttp?: string[];
  /** Answers that agents' `delegate` calls add (admitted by the tool, not by a user message). */
  delegations?: number;
}

const SLEEP = 20;
const tool = (id: string, title: string, kind: string) => [
  { toolCall: { toolCallId: id, title, kind, status: "in_progress" } },
  { sleep: SLEEP },
  { toolCallUpdate: { toolCallId: id, status: "completed", content: [{ type: "content", content: { type: "text", text: `${title}: ok` } }] } },
];

/**
 * alpha: text, three tool calls, a permission request (answered `ok` by the child), one file write (ACP
 * `fs/write_text_file`, run by Sidekicks as a tool intent; `${workspaceFolder}` is the run's folder) — about 0.2 s.
 */
const ALPHA = [
  { chunk: "Looking at the repository. " },
  ...tool("read-1", "Read src/index.ts", "read"),
  { chunk: "Found the entry point; " },
  { sleep: SLEEP },
  { chunk: "now searching for its callers. " },
  ...tool("search-1", "Search for callers", "search"),
  { sleep: SLEEP },
  { permission: { toolCallId: "edit-1", title: "Edit src/index.ts" } },
  { chunk: " Editing. " },
  ...tool("edit-1", "Edit src/index.ts", "edit"),
  { writeFile: { path: "${workspaceFolder}/src/index.ts", content: "console.log('started');\nmain();\n" } },
  { sleep: SLEEP },
  { chunk: "Done: the entry point now logs its start." },
];

/** beta: more text, four tool calls, two writes of one file (the second replaces the first), no permission. */
const BETA = [
  { chunk: "Sure. " },
  { chunk: "Let me check the tests first. " },
  ...tool("run-1", "npm test", "execute"),
  { chunk: "They pass. " },
  { sleep: SLEEP },
  ...tool("read-2", "Read test/app.test.ts", "read"),
  { writeFile: { path: "${workspaceFolder}/NOTES.md", content: "# Notes\n\nThe tests pass.\n" } },
  { chunk: "The slow test is the third one; " },
  { sleep: SLEEP },
  { chunk: "it waits on a real timer. " },
  ...tool("read-3", "Read src/timer.ts", "read"),
  ...tool("think-1", "Plan the fix", "think"),
  { sleep: SLEEP },
  { writeFile: { path: "${workspaceFolder}/NOTES.md", content: "# Notes\n\nThe third test waits on a real timer: use a fake clock.\n" } },
  { chunk: "A fake clock would make it instant." },
];

/** The scenarios. Messages sent at the same moment to one agent queue behind each other. */
export const SCENARIOS: Scenario[] = [
  {
    name: "queued",
    agents: { alpha: ALPHA, beta: BETA },
    sends: [
      { atMs: 0, text: "@alpha add a log line at startup", to: ["alpha"] },
      { atMs: 0, text: "@alpha then add a second one", to: ["alpha"] },
      { atMs: 20, text: "@beta why is the test suite slow?", to: ["beta"] },
      { atMs: 150, text: "@alpha @beta both of you: review each other's change", to: ["alpha", "beta"] },
      { atMs: 300, text: "@beta and make it faster", to: ["beta"] },
    ],
  },
  {
    name: "spaced",
    agents: { alpha: ALPHA, beta: BETA },
    sends: [
      { atMs: 0, text: "@beta look at the tests", to: ["beta"] },
      { atMs: 250, text: "@alpha @beta what do you both think?", to: ["alpha", "beta"] },
      { atMs: 500, text: "@alpha one more thing", to: ["alpha"] },
      { atMs: 700, text: "@alpha and another", to: ["alpha"] },
    ],
  },
];

/**
 * The delegation stage's scenario (issue 22, test/crash/delegationStage.ts; never drawn by the main plan): the user
 * asks @b something, then @a, whose turn calls `delegate(b, …)` on Sidekicks' MCP server while b is still busy (b's
 * own turn waits for a file a writes just before its call), so the child is admitted queued, then dispatched, streams
 * and settles, and its answer is a's tool result.
 */
export const DELEGATION: Scenario = {
  name: "delegation",
  agents: {
    a: [{ chunk: "Asking @b. " }, { appendFile: { path: "${workspaceFolder}/asking-b", text: "asking" } }, { mcpCall: { tool: "delegate", args: { member: "b", request: "count the tests" } } }, { chunk: " Done." }],
    // b's own turn waits until a is about to delegate, then works 1 s more (a's MCP call takes about that long to reach Sidekicks on a loaded machine): the child is
    // admitted queued behind it.
    b: [{ untilFile: { path: "${workspaceFolder}/asking-b", includes: "asking" } }, { sleep: 1000 }, { chunk: "Counting. " }, ...tool("count-1", "Count the tests", "search"), { sleep: SLEEP }, { chunk: "There are " }, { sleep: SLEEP }, { chunk: "42 tests." }],
  },
  sends: [
    { atMs: 0, text: "@b look at the tests", to: ["b"] },
    { atMs: 0, text: "@a ask b to count the tests", to: ["a"] },
  ],
  mcpHttp: ["a"],
  delegations: 1,
};

/** Every scenario the child can run, by CRASH_SCENARIO: the main plan's, then the delegation stage's. */
export const ALL_SCENARIOS: Scenario[] = [...SCENARIOS, DELEGATION];

/** The answer an agent gives when its turn runs to the end (the child answers every permission `ok`). */
export function fullAnswer(agent: string, scenario: Scenario): string {
  let text = "";
  for (const step of scenario.agents[agent] ?? []) {
    const s = step as { chunk?: string; permission?: unknown; writeFile?: unknown; mcpCall?: { args: { member: string } } };
    if (s.chunk !== undefined) text += s.chunk;
    // A `delegate` call's chunk: the MCP result, whose text is the member's full answer.
    if (s.mcpCall) text += `mcp: ${JSON.stringify({ content: [{ type: "text", text: fullAnswer(s.mcpCall.args.member, scenario) }] })}`;
    if (s.permission) text += " [chose ok]";
    if (s.writeFile) text += "write: {}"; // the fake agent's chunk with the (empty) fs/write_text_file result
  }
  return text;
}

/** A short stable hash of a text (the journal carries it instead of the text). */
export function hashText(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 16);
}

export { prng } from "../prng";

/** What the child is told to do: run to the end, or SIGKILL itself at the nth commit of a phase / nth delta. */
export type KillPlan =
  | { kind: "none" }
  | { kind: "commit"; phase: Phase; n: number; when: "before" | "after" }
  | { kind: "delta"; n: number };

/** One line of the child's journal (JSON on stdout, written synchronously). */
export type JournalLine =
  | { t: "user"; id: string; hash: string; to: string[] }
  | { t: "agent"; id: string; hash: string; outcome: string | undefined }
  | { t: "kill"; phase: Phase; n: number; when: "before" | "after" | "at" }
  | { t: "violation"; what: string }
  | { t: "done"; counts: Record<string, number>; deltas: number; ms: number };

/** The virtual clock runs this many times faster than real time, so 1 s checkpoints come every 100 ms. */
export const CLOCK_SPEEDUP = 10;
