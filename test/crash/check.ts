/**
 * The crash suite's checker: after a kill, reopens the store, constructs a Channels (its constructor runs the
 * sweeper; `ready` resolves when recovery is done), closes it, and checks the invariants of issue #5 against the
 * store's raw contents before and after and against the child's journal. Returns one line per violation.
 */
import { createHash } from "node:crypto";
import { appendFileSync, mkdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { ulid } from "ulid";
import type { ClassicLevel } from "classic-level";
import { composeChannels, type Channels } from "../../src/app/compose";
import { GENERAL } from "../../src/channels/ChannelDirectory";
import { Recorder } from "../../src/events/events";
import { Store, type StoreChanges } from "../../src/store/Store";
import type { IntentRecord, MessageRecord, TurnRecord } from "../../src/store/records";
import { fullAnswer, hashText, type JournalLine, type Scenario } from "./scenario";

interface Snapshot {
  turns: Map<string, TurnRecord>;
  messages: Map<string, MessageRecord>;
  /** Turn ids in the `turn-open/` index. */
  open: Set<string>;
  intents: Map<string, IntentRecord>;
  /** Intent ids in the `intent-open/` index. */
  openIntents: Set<string>;
}

/** Every turn, message and open-index entry, read straight from LevelDB. */
async function snapshot(db: ClassicLevel<string, string>): Promise<Snapshot> {
  const s: Snapshot = { turns: new Map(), messages: new Map(), open: new Set(), intents: new Map(), openIntents: new Set() };
  for await (const [key, value] of db.iterator()) {
    if (key.startsWith("intent/")) {
      const i = JSON.parse(value) as IntentRecord;
      s.intents.set(i.id, i);
    } else if (key.startsWith("intent-open/")) s.openIntents.add(key.slice("intent-open/".length));
    else if (key.startsWith("turn/")) {
      const t = JSON.parse(value) as TurnRecord;
      s.turns.set(t.id, t);
    } else if (key.startsWith("msg/")) {
      const m = JSON.parse(value) as MessageRecord;
      s.messages.set(m.id, m);
    } else if (key.startsWith("turn-open/")) s.open.add(key.slice("turn-open/".length));
  }
  return s;
}

const textOf = (m: Pick<MessageRecord, "parts">) => m.parts.map((p) => (p.type === "text" ? p.text : "")).join("");
const laneOf = (t: TurnRecord) => `${t.channelId}/${t.agent}`;
/** Whether `answer` says what recovery found of `intent`: its card, or for a permission answer the request's own card. */
const shows = (answer: MessageRecord | undefined, intent: IntentRecord) =>
  !!answer?.parts.some((p) => (p.type === "toolCall" && p.toolCallId === `intent-${intent.id}`) || (intent.kind === "permission" && p.type === "permission" && p.requestId === intent.requestId));

/** What the checker found, besides violations: how recovery acted (for the report's totals). */
export interface CheckStats {
  interruptedByRecovery: number;
  dispatchedByRecovery: number;
  /** Open tool intents recovery had to classify. */
  intentsClassified: number;
  /** Open write intents by the classification the file on disk calls for. */
  intentResults: Record<string, number>;
  committedMessages: number;
}

/**
 * Recovers the store in `dir` and checks it.
 * @param journal the child's journal lines (facts committed before the kill)
 * @param options.tamper before recovery, someone edits every file an open write intent targets (recovery must
 *   then say `uncertain`)
 */
export async function checkAfterKill(dir: string, journal: JournalLine[], scenario: Scenario, options: { tamper?: boolean } = {}): Promise<{ violations: string[]; stats: CheckStats }> {
  const v: string[] = [];
  const stats: CheckStats = { interruptedByRecovery: 0, dispatchedByRecovery: 0, intentsClassified: 0, intentResults: {}, committedMessages: 0 };
  for (const line of journal) if (line.t === "violation") v.push(`while running: ${line.what}`);

  // The store opens cleanly: no error, no record it had to skip.
  const corrupt: string[] = [];
  let store: Store;
  try {
    store = await Store.open(dir, (key, reason) => corrupt.push(`${key} (${reason})`));
  } catch (err) {
    v.push(`the store does not open: ${(err as Error).message}`);
    return { violations: v, stats };
  }
  const db = (store as unknown as { db: ClassicLevel<string, string> }).db;
  const before = await snapshot(db);

  // No turn is settled twice: a settling write for a turn the store already has settled is a violation.
  const commit = store.commit.bind(store);
  store.commit = async (changes: StoreChanges) => {
    for (const t of changes.turns ?? []) {
      if (t.state !== "settled") continue;
      const stored = await store.turn(t.id);
      if (stored?.state === "settled") v.push(`turn ${t.id} (@${t.agent}) settled twice: stored ${stored.outcome}, recovery wrote ${t.outcome}`);
    }
    return commit(changes);
  };

  if (options.tamper) {
    for (const i of before.intents.values()) {
      if (i.kind === "write" && i.phase !== "settled" && i.path) {
        mkdirSync(dirname(i.path), { recursive: true });
        appendFileSync(i.path, "// edited by hand meanwhile\n");
      }
    }
  }

  // Self-test of this checker (CRASH_FAULT, see run.ts): a sweeper that finds nothing, or one that also re-reads
  // settled turns (a stale open index).
  const openTurns = store.openTurns.bind(store);
  if (process.env.CRASH_FAULT === "blind-sweeper") store.openTurns = async () => [];
  if (process.env.CRASH_FAULT === "stale-index") store.openTurns = async () => [...before.turns.values()];

  const owner = ulid();
  const agentNames = Object.keys(scenario.agents);
  // Agents that never answer: a turn recovery dispatches stays running until close() interrupts it.
  const agents = {
    names: () => agentNames,
    state: () => "stopped" as const,
    session: () => new Promise<never>(() => undefined),
  };
  const logs: string[] = [];
  const channels = composeChannels({ store, agents, emitter: new Recorder(), log: (line) => logs.push(line), cancelGraceMs: 5_000, owner });
  try {
    await channels.ready;
  } catch (err) {
    v.push(`recovery failed: ${(err as Error).stack ?? String(err)}`);
  }
  await channels.close();
  let views: Awaited<ReturnType<Channels["messages"]["open"]>>["messages"] = [];
  if (await store.channelByName(GENERAL)) views = (await channels.messages.open(GENERAL)).messages;
  const openAfterClose = await openTurns();
  const after = await snapshot(db);
  await store.close();

  for (const c of corrupt) v.push(`the store skipped a corrupt record: ${c}`);

  // No turn stays running or awaiting input; what stays open is pending (queued), as the reducer's close() leaves it.
  for (const t of openAfterClose) if (t.state !== "pending") v.push(`turn ${t.id} (@${t.agent}) is still ${t.state} after recovery and close`);
  for (const t of after.turns.values()) {
    if (t.state !== "pending" && t.state !== "settled") v.push(`turn ${t.id} (@${t.agent}) stays ${t.state}`);
    const indexed = after.open.has(t.id);
    if (t.state === "settled" && indexed) v.push(`settled turn ${t.id} is still in the turn-open index`);
    if (t.state !== "settled" && !indexed) v.push(`open turn ${t.id} (${t.state}) is missing from the turn-open index: the sweeper cannot find it`);
  }
  for (const id of after.open) if (!after.turns.has(id)) v.push(`turn-open/${id} has no turn record`);

  // Turns settled before recovery keep their settlement.
  for (const [id, t] of before.turns) {
    if (t.state !== "settled") continue;
    const now = after.turns.get(id);
    if (!now || now.state !== "settled" || now.settledAt !== t.settledAt || now.outcome !== t.outcome) {
      v.push(`turn ${id} (@${t.agent}) was settled ${t.outcome} at ${t.settledAt}; after recovery: ${now ? `${now.state} ${now.outcome} at ${now.settledAt}` : "gone"}`);
    }
  }

  // Recovery settles what the dead owner was running as interrupted, keeping its checkpoint, and dispatches one
  // queued turn per lane that has one (then close() interrupts it: the checker's agents never answer).
  // The one exception (issue 22): a queued `delegate` child is not dispatched but settled `cancelled` ("not
  // started"): the tool call that waited for it died with the host, so its answer would reach no one, and a Retry of
  // the parent, told it never started, may delegate again — running it too would do the work twice.
  const pendingLanes = new Set<string>();
  for (const t of before.turns.values()) {
    if (t.state !== "pending") continue;
    if (!t.parentIntentId) pendingLanes.add(laneOf(t));
    else if (after.turns.get(t.id)?.outcome !== "cancelled" || after.turns.get(t.id)?.attempt !== t.attempt) v.push(`queued delegate child ${t.id} (@${t.agent}) was ${after.turns.get(t.id)?.state} ${after.turns.get(t.id)?.outcome ?? ""} after recovery (expected cancelled, never dispatched)`);
  }
  for (const [id, t] of before.turns) {
    if (t.state !== "running" && t.state !== "awaiting_input") continue;
    stats.interruptedByRecovery++;
    const now = after.turns.get(id);
    if (now?.state !== "settled" || now.outcome !== "interrupted") v.push(`turn ${id} (@${t.agent}) was ${t.state} when killed; after recovery: ${now?.state} ${now?.outcome ?? ""}`);
    const m0 = before.messages.get(t.messageId);
    const m1 = after.messages.get(t.messageId);
    if (m0 && (!m1 || textOf(m1) !== textOf(m0))) v.push(`interrupted answer ${t.messageId} lost its checkpoint: ${JSON.stringify(textOf(m0))} → ${m1 ? JSON.stringify(textOf(m1)) : "gone"}`);
  }
  const claimedBy = new Map<string, TurnRecord[]>();
  for (const t of after.turns.values()) if (t.owner === owner) claimedBy.set(laneOf(t), [...(claimedBy.get(laneOf(t)) ?? []), t]);
  for (const lane of pendingLanes) {
    const claimed = claimedBy.get(lane) ?? [];
    if (claimed.length !== 1) v.push(`lane ${lane} had queued turns; recovery dispatched ${claimed.length} of them (expected 1)`);
    const first = [...before.turns.values()].filter((t) => laneOf(t) === lane && t.state === "pending").sort((a, b) => (a.id < b.id ? -1 : 1))[0]!;
    if (claimed.length === 1 && claimed[0]!.id !== first.id) v.push(`lane ${lane}: recovery dispatched ${claimed[0]!.id} before the older queued ${first.id}`);
    for (const t of claimed) if (t.state !== "settled" || t.outcome !== "interrupted") v.push(`turn ${t.id} dispatched by recovery ends ${t.state} ${t.outcome ?? ""} after close (expected interrupted)`);
    stats.dispatchedByRecovery += claimed.length;
  }
  for (const [lane, claimed] of claimedBy) if (!pendingLanes.has(lane)) v.push(`lane ${lane} had no queued turn, yet recovery claimed ${claimed.map((t) => t.id).join(", ")}`);

  // Nothing committed is lost; admission and settlement are atomic.
  const turnsOf = (requestId: string) => [...after.turns.values()].filter((t) => t.requestMessageId === requestId);
  for (const m of before.messages.values()) if (!after.messages.has(m.id)) v.push(`message ${m.id} disappeared during recovery`);
  const lastAgentLine = new Map<string, Extract<JournalLine, { t: "agent" }>>();
  for (const line of journal) if (line.t === "agent") lastAgentLine.set(line.id, line);
  for (const line of journal) {
    if (line.t !== "user") continue;
    stats.committedMessages++;
    const m = after.messages.get(line.id);
    if (!m) v.push(`committed user message ${line.id} is missing`);
    else if (m.author.kind !== "user" || hashText(textOf(m)) !== line.hash) v.push(`committed user message ${line.id} changed`);
    const agentsOf = turnsOf(line.id).map((t) => t.agent).sort();
    if (agentsOf.join(",") !== [...line.to].sort().join(",")) v.push(`user message ${line.id} for ${line.to.join(", ")} has turns for [${agentsOf.join(", ")}]: a queued turn was lost`);
  }
  for (const line of lastAgentLine.values()) {
    stats.committedMessages++;
    const m = after.messages.get(line.id);
    if (!m) {
      v.push(`committed agent message ${line.id} is missing`);
      continue;
    }
    if (hashText(textOf(m)) !== line.hash) v.push(`committed agent message ${line.id} changed its text (${JSON.stringify(textOf(m))})`);
    if (m.outcome !== line.outcome) v.push(`committed agent message ${line.id} was ${line.outcome}, now ${m.outcome}`);
    const t = m.turnId ? after.turns.get(m.turnId) : undefined;
    if (!t || t.state !== "settled" || t.outcome !== line.outcome) v.push(`committed agent message ${line.id}: its turn is ${t ? `${t.state} ${t.outcome}` : "missing"}`);
  }
  for (const m of after.messages.values()) {
    if (m.author.kind === "user") {
      const agentsOf = turnsOf(m.id).map((t) => t.agent).sort();
      if (agentsOf.join(",") !== [...(m.to ?? [])].sort().join(",")) v.push(`user message ${m.id} is stored for [${m.to?.join(", ")}] with turns for [${agentsOf.join(", ")}]: admission was not atomic`);
    }
  }
  for (const t of after.turns.values()) {
    const m = after.messages.get(t.messageId);
    if (!after.messages.has(t.requestMessageId)) v.push(`turn ${t.id} answers ${t.requestMessageId}, which is not stored`);
    if (!m) {
      v.push(`turn ${t.id} has no answer message ${t.messageId}`);
      continue;
    }
    if (m.turnId !== t.id) v.push(`answer ${m.id} names turn ${m.turnId}, not ${t.id}`);
    if (t.state === "settled" && m.outcome !== t.outcome) v.push(`turn ${t.id} settled ${t.outcome} but its message says ${m.outcome}: settlement was not atomic`);
    if (t.state !== "settled" && m.outcome !== undefined) v.push(`turn ${t.id} is ${t.state} but its message says ${m.outcome}`);
    // Checkpoints hold a prefix of the answer (never a torn or repeated one); a completed answer is all of it.
    const full = fullAnswer(t.agent, scenario);
    const text = textOf(m);
    if (!full.startsWith(text)) v.push(`answer ${m.id} (@${t.agent}, ${t.state} ${t.outcome ?? ""}) holds text that is not a prefix of the answer: ${JSON.stringify(text)}`);
    if (t.outcome === "completed" && text !== full) v.push(`answer ${m.id} completed with partial text ${JSON.stringify(text)}`);
    if (t.state === "settled") {
      // A settled answer leaves nothing open: tool calls the agent left running show "outcome unknown" (or "no
      // result" when the agent ended its turn itself), and no permission request still waits for the user.
      for (const p of m.parts) {
        const closed = p.type === "toolCall" && (p.outcomeUnknown || p.cancelled || (p.noResult && (t.outcome === "completed" || t.outcome === "refused")));
        if (p.type === "toolCall" && (p.status === "pending" || p.status === "in_progress") && !closed) v.push(`settled answer ${m.id} (${t.outcome}) has tool call ${p.toolCallId} still ${p.status}, not marked outcome unknown`);
        if (p.type === "permission" && p.outcome === undefined) v.push(`settled answer ${m.id} (${t.outcome}) still shows permission request ${p.requestId} as pending`);
      }
      if (t.outcome === "interrupted" && m.error?.code !== "turn/interrupted") v.push(`interrupted answer ${m.id} has error ${m.error?.code ?? "none"}, not turn/interrupted`);
    }
  }

  // Tool intents: recovery settles every open one; a write is classified from the file on disk (the target holds
  // the intended text: applied; its text from before, or still no file: not applied; else uncertain) and shows as a
  // card in its turn's answer; intents settled before stay as they were.
  const sha = (path: string | undefined): string | null => {
    if (!path) return null;
    try {
      return createHash("sha256").update(readFileSync(path, "utf8"), "utf8").digest("hex");
    } catch {
      return null;
    }
  };
  for (const id of after.openIntents) v.push(`intent ${id} is still in the intent-open index after recovery`);
  for (const [id, i0] of before.intents) {
    const i1 = after.intents.get(id);
    if (!i1) {
      v.push(`intent ${id} (${i0.kind} ${i0.path ?? ""}) disappeared`);
      continue;
    }
    if (i0.phase === "settled") {
      if (i1.phase !== "settled" || i1.result !== i0.result) v.push(`intent ${id} was settled ${i0.result}; after recovery ${i1.phase} ${i1.result ?? ""}`);
      continue;
    }
    stats.intentsClassified++;
    if (i1.phase !== "settled") {
      v.push(`intent ${id} (${i0.kind}, ${i0.phase} when killed) is ${i1.phase} after recovery`);
      continue;
    }
    if (i0.kind === "write") {
      const now = sha(i0.path);
      const expected = now !== null && now === i0.afterHash ? "applied" : now === (i0.beforeHash ?? null) ? "not_applied" : "uncertain";
      stats.intentResults[expected] = (stats.intentResults[expected] ?? 0) + 1;
      if (i1.result !== expected) v.push(`write intent ${id} (${i0.phase} when killed) on ${i0.path}: recovery says ${i1.result}, the file says ${expected}`);
    }
    const turn = after.turns.get(i0.turnId);
    const answer = turn && after.messages.get(turn.messageId);
    if (!shows(answer, i1)) v.push(`intent ${id} recovered as ${i1.result}, but its turn's answer shows no card for it`);
  }
  for (const i of after.intents.values()) {
    if (i.phase !== "settled") v.push(`intent ${i.id} (${i.kind}) stays ${i.phase}`);
    // Settled by a recovery (this one or one that was itself killed): the card must be in the answer all the same.
    const turn = after.turns.get(i.turnId);
    const answer = turn && after.messages.get(turn.messageId);
    if (i.phase === "settled" && i.result !== "done" && i.result !== "failed" && !before.openIntents.has(i.id) && !shows(answer, i)) {
      v.push(`intent ${i.id} (${i.kind} ${i.path ?? ""}) was settled ${i.result} by an earlier, killed recovery, but its turn's answer shows no card for it`);
    }
  }

  // Interrupted answers offer Retry in the view the window opens with.
  for (const view of views) {
    const m = after.messages.get(view.id);
    if (m?.turnId && m.outcome === "interrupted" && view.retryable !== true) v.push(`interrupted answer ${view.id} is not retryable in the view`);
  }
  return { violations: v, stats };
}
