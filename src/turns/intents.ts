/**
 * Tool intents (brief, "Tool intents"; seed 002): an effect this extension executes for an agent — an
 * `fs/write_text_file`, a `terminal/create`, a permission answer — is recorded `intended` before it starts,
 * `running` when it starts, and `settled` with its result. After a crash, recovery decides from evidence what an
 * unsettled one did: a write whose target holds the intended text is `applied`, one whose target still holds the
 * old text is `not_applied`, anything else `uncertain`; a command that was running has an `outcome_uncertain` and
 * is never re-run by itself.
 */
import * as l10n from "@vscode/l10n";
import { createHash } from "node:crypto";
import type { ToolCallPart } from "../shared/protocol";
import type { Store } from "../store/Store";
import type { IntentRecord, IntentResult } from "../store/records";

/** SHA-256 hex of a text's UTF-8 bytes (`null` for a file that does not exist). */
export function hashText(text: string | undefined): string | null {
  return text === undefined ? null : createHash("sha256").update(text, "utf8").digest("hex");
}

/**
 * What an unsettled write did, from the file as it is now (`current`: its text, undefined when it does not exist).
 * `applied` when it holds the intended text (or, for a restore that deletes the file, no longer exists); `not_applied` when it holds the text from before (or still does not
 * exist); `uncertain` otherwise (someone else changed it, or it was half written).
 */
export function classifyWrite(intent: Pick<IntentRecord, "beforeHash" | "afterHash">, current: string | undefined): IntentResult {
  const now = hashText(current);
  if (intent.afterHash === null ? now === null : now !== null && now === intent.afterHash) return "applied";
  if (now === (intent.beforeHash ?? null)) return "not_applied";
  return "uncertain";
}

/** What recovery concludes for an unsettled intent of any kind. `readFile` answers undefined for a missing file. */
export async function classifyIntent(intent: IntentRecord, readFile: (path: string) => Promise<string | undefined>): Promise<{ result: IntentResult; detail: string }> {
  if (intent.kind === "write") {
    const current = intent.path ? await readFile(intent.path).catch(() => undefined) : undefined;
    const result = classifyWrite(intent, current);
    const detail =
      result === "applied"
        ? "the file holds the text the agent asked for: the write was applied"
        : result === "not_applied"
          ? "the file still holds its earlier text: the write was not applied"
          : "the file holds neither the earlier nor the intended text: check it";
    return { result, detail };
  }
  if (intent.phase === "intended") return { result: "not_started", detail: "it had not started when the window closed" };
  if (intent.kind === "delegate")
    return { result: "outcome_uncertain", detail: `@${intent.member ?? "?"} had not finished when the window closed: its outcome is not known, and it is not run again by itself` };
  if (intent.kind === "terminal") return { result: "outcome_uncertain", detail: "the command was running when the window closed: its outcome is not known, and it is not run again by itself" };
  return { result: "uncertain", detail: "the answer may not have reached the agent" };
}

/** A readable one-liner for an intent, for tool-call cards and the Retry note. */
export function describeIntent(intent: IntentRecord): string {
  const what =
    intent.kind === "write"
      ? `write ${intent.path ?? "?"}`
      : intent.kind === "terminal"
        ? `run ${[intent.command, ...(intent.args ?? [])].join(" ")}`
        : intent.kind === "delegate"
          ? `delegate to @${intent.member ?? "?"}`
          : `permission answer ${intent.optionId ?? ""}`.trim();
  return `${what}: ${(intent.result ?? intent.phase).replace(/_/g, " ")}${intent.detail ? ` (${intent.detail})` : ""}`;
}

/** The card recovery adds to an interrupted answer for one intent it classified. */
export function intentPart(intent: IntentRecord): ToolCallPart {
  const ok = intent.result === "applied" || intent.result === "done";
  const none = intent.result === "not_applied" || intent.result === "not_started" || intent.result === "failed";
  return {
    type: "toolCall",
    toolCallId: `intent-${intent.id}`,
    title:
      intent.restore
        ? intent.restore === "undo"
          ? l10n.t("Sidekicks undid @{1}'s change of {0}", intent.path ?? "?", intent.agent)
          : l10n.t("Sidekicks redid @{1}'s change of {0}", intent.path ?? "?", intent.agent)
        : intent.kind === "write"
        ? l10n.t("Sidekicks wrote {0} for @{1}", intent.path ?? "?", intent.agent)
        : intent.kind === "terminal"
          ? l10n.t("Sidekicks ran {0} for @{1}", intent.command ?? "?", intent.agent)
          : intent.kind === "delegate"
            ? l10n.t("Delegated to @{0}", intent.member ?? "?")
            : l10n.t("Permission answer for @{0}", intent.agent),
    kind: intent.kind === "write" ? "edit" : intent.kind === "terminal" ? "execute" : "other",
    status: ok ? "completed" : none ? "failed" : "in_progress",
    ...(ok || none ? {} : { outcomeUnknown: true }),
    content: l10n.t("Recovered after the window closed: {0}", describeIntent(intent)),
    ...(intent.kind === "delegate" && intent.childMessageId ? { delegation: { member: intent.member ?? "?", childMessageId: intent.childMessageId } } : {}),
  };
}

/**
 * Records intents in the store, one batch per phase. Ids are made by `newId` (ULIDs), times by `now` (ms).
 */
export class IntentLog {
  constructor(
    private readonly store: Store,
    private readonly newId: () => string,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records an intent as `intended` (before the effect starts). */
  async intend(fields: Omit<IntentRecord, "version" | "id" | "phase" | "createdAt" | "updatedAt">): Promise<IntentRecord> {
    const at = this.now();
    const intent: IntentRecord = { version: 1, id: this.newId(), phase: "intended", createdAt: at, updatedAt: at, ...fields };
    await this.store.commit({ intents: [intent] });
    return intent;
  }

  /**
   * Records several intents as `running` in one batch (Sidekicks' own restore writes, issue 19: they start at once
   * after this, so a crash after it leaves each open for recovery to classify).
   */
  async intendAll(fields: readonly Omit<IntentRecord, "version" | "id" | "phase" | "createdAt" | "updatedAt">[]): Promise<IntentRecord[]> {
    const at = this.now();
    const intents: IntentRecord[] = fields.map((f) => ({ version: 1, id: this.newId(), phase: "running", createdAt: at, updatedAt: at, ...f }));
    await this.store.commit({ intents });
    return intents;
  }

  /** `intent` settled with `result` (not written: the caller writes it in its own batch). */
  settled(intent: IntentRecord, result: IntentResult, detail?: string): IntentRecord {
    return { ...intent, phase: "settled", result, updatedAt: this.now(), ...(detail ? { detail } : {}) };
  }

  /** Moves an intent to `running` (the effect is starting now). */
  async start(intent: IntentRecord): Promise<IntentRecord> {
    const next: IntentRecord = { ...intent, phase: "running", updatedAt: this.now() };
    await this.store.commit({ intents: [next] });
    return next;
  }

  /** Settles an intent with its result. */
  async settle(intent: IntentRecord, result: IntentResult, detail?: string): Promise<IntentRecord> {
    const next: IntentRecord = { ...intent, phase: "settled", result, updatedAt: this.now(), ...(detail ? { detail } : {}) };
    await this.store.commit({ intents: [next] });
    return next;
  }

  /**
   * Runs `effect` between `running` and `settled`; a thrown error settles the intent `failed` and is rethrown.
   * @returns what `effect` returned
   */
  async around<T>(intent: IntentRecord, effect: () => Promise<T>): Promise<T> {
    const running = await this.start(intent);
    try {
      const value = await effect();
      await this.settle(running, "done");
      return value;
    } catch (err) {
      await this.settle(running, "failed", err instanceof Error ? err.message : String(err));
      throw err;
    }
  }

  /**
   * Recovery: classifies every unsettled intent from evidence and returns it settled, WITHOUT writing it: the caller
   * writes each settled intent in the same batch as the card that shows it (so a crash during recovery cannot settle
   * an intent whose card was never written). Never re-runs anything.
   * @returns the settled intents, grouped by turn id
   */
  async classifyOpen(readFile: (path: string) => Promise<string | undefined>): Promise<Map<string, IntentRecord[]>> {
    const byTurn = new Map<string, IntentRecord[]>();
    for (const intent of await this.store.openIntents()) {
      const { result, detail } = await classifyIntent(intent, readFile);
      const settled: IntentRecord = { ...intent, phase: "settled", result, detail, updatedAt: this.now() };
      byTurn.set(intent.turnId, [...(byTurn.get(intent.turnId) ?? []), settled]);
    }
    return byTurn;
  }
}
