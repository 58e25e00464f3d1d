import { readFile } from "node:fs/promises";
import type { PermissionPart } from "../shared/protocol";
import type { Store } from "../store/Store";
import { isActive } from "../turns/reducer";
import { describeIntent, type IntentLog } from "../turns/intents";
import { recoveryInput } from "../turns/recovery";
import type { TurnExecutor } from "../turns/TurnExecutor";
import { findMessage } from "./admission";

/** What {@link TurnService} works with. */
export interface TurnServicePorts {
  store: Store;
  executor: TurnExecutor;
  intents: IntentLog;
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves once {@link TurnService.recover} has run (the channels' `ready`). */
  ready(): Promise<void>;
}

/**
 * What the user does to a turn once it is admitted (brief, "Recovery", "Cancellation is not interruption"): Stop,
 * Retry / Run again, Send now, a permission answer; and the sweeper that recovers the turns a previous activation
 * left open. Each goes to the turn executor as one reducer input.
 */
export class TurnService {
  constructor(private readonly ports: TurnServicePorts) {}

  /**
   * The sweeper (brief, "Recovery"): reads the open turns through the `turn-open/` index; those a previous
   * activation was running are settled `interrupted` with their last checkpoint, queued ones are dispatched.
   */
  async recover(): Promise<void> {
    const input = await recoveryInput(this.ports.store, this.ports.intents, (file) => readFile(file, "utf8").catch(() => undefined), this.ports.now());
    if (input) await this.ports.executor.submit(input);
  }

  /** Answers a pending permission request (`remember`: and makes a Sidekicks rule). @returns false when not pending or no rule fits */
  async answerPermission(requestId: string, optionId: string, remember = false): Promise<boolean> {
    return (await this.ports.executor.submit({ type: "answer", requestId, optionId, ...(remember ? { remember } : {}) })) ?? false;
  }

  /**
   * A permission request waiting for the user's answer: the channel its answer streams in, and the request as its card
   * shows it; undefined when no open turn waits for it.
   */
  pendingPermission(requestId: string): { channelId: string; part: PermissionPart } | undefined {
    for (const t of Object.values(this.ports.executor.state.turns)) {
      const part = t.message.parts.find((p): p is PermissionPart => p.type === "permission" && p.requestId === requestId);
      if (part) return part.outcome === undefined ? { channelId: t.record.channelId, part } : undefined;
    }
    return undefined;
  }

  /**
   * Stops an agent message (the user's Stop): a queued turn leaves the queue and is saved as cancelled; a running
   * one gets ACP `session/cancel`, its permission requests are answered `cancelled`, and it settles `cancelled`
   * when the agent answers — or after the cancel grace if the agent ignores the cancel.
   * @returns false when no queued or running turn has that message
   */
  async cancel(messageId: string): Promise<boolean> {
    return (await this.ports.executor.submit({ type: "cancel", messageId, at: this.ports.now() })) ?? false;
  }

  /**
   * Retry (brief, "Recovery") of an interrupted or failed turn, Run again of a cancelled one: a new attempt in the
   * same message, whose prompt tells the agent what the earlier attempt is known to have done (`runAgain.ts`).
   * @returns false when the message has no turn to run again (completed, refused, or running again already)
   */
  async retry(channelId: string, messageId: string): Promise<boolean> {
    const { store, executor } = this.ports;
    await this.ports.ready();
    const message = await store.message(channelId, messageId);
    const record = message?.turnId ? await store.turn(message.turnId) : undefined;
    if (!message || !record) return false;
    const known = (await store.intentsOf(record.id)).filter((i) => i.attempt === record.attempt).map(describeIntent);
    return (await executor.submit({ type: "retry", at: this.ports.now(), record, message, known })) ?? false;
  }

  /** Retry by message id alone (the webview's `turn/retry`). */
  async retryMessage(messageId: string): Promise<boolean> {
    const message = await findMessage(this.ports.store, messageId);
    return message ? this.retry(message.channelId, messageId) : false;
  }

  /** "Send now": a queued answer runs now; the agent's running answer in that channel is stopped first. */
  async sendNow(messageId: string): Promise<boolean> {
    return (await this.ports.executor.submit({ type: "sendNow", messageId, at: this.ports.now() })) ?? false;
  }

  /** Whether an agent has an open (running or queued) turn in a channel. */
  isBusy(channelId: string): boolean {
    return Object.values(this.ports.executor.state.turns).some((t) => t.record.channelId === channelId && isActive(t));
  }

  /**
   * Stops accepting work: running attempts are settled `interrupted` with everything they received; queued turns
   * stay in the store and run at the next activation (the window is closing or the store is being reopened).
   */
  async close(): Promise<void> {
    await this.ports.ready().catch(() => undefined);
    await this.ports.executor.close();
  }
}
