import type { Store } from "../store/Store";
import type { IntentRecord } from "../store/records";
import { isActive, type LiveTurn } from "../turns/reducer";
import type { TurnExecutor } from "../turns/TurnExecutor";
import { newAdmission, type ChannelClock } from "./admission";
import type { FollowUps } from "./FollowUps";

/** What {@link ToolDelegation} works with. */
export interface ToolDelegationPorts {
  store: Store;
  executor: TurnExecutor;
  clock: ChannelClock;
  /** The hop limit and loop guard, shared with delegation by mention. */
  followUps: FollowUps;
}

/** What a `delegate` tool call answers: the child's final answer, or an error saying what happened. */
export interface DelegationResult {
  text: string;
  isError: boolean;
}

/**
 * Delegation as a tool (issue 22; seed 002, "Child admission"): `delegate(member, request)` called by an agent while it
 * answers admits a child turn for `member` in the same channel, linked to the caller's running turn through a
 * `delegate` intent written before the child is admitted (the reducer's `delegate` input), waits for the child to
 * settle and answers with its final text. A Retry of the parent that asks the same of the same member gets the answer
 * a settled child left (redelivered, not run again); a child interrupted by a restart is reported, never re-run.
 */
export class ToolDelegation {
  /** The tool calls waiting for their child, by intent id. */
  private readonly waiting = new Map<string, (intent: IntentRecord) => void>();

  constructor(private readonly ports: ToolDelegationPorts) {}

  /**
   * `agent`'s running answer in `channelId` hands `request` to `member` and waits for its answer.
   * @param toolCallId the MCP request id of the tool call, kept on the intent
   */
  async delegate(channelId: string, agent: string, member: string, request: string, toolCallId?: string): Promise<DelegationResult> {
    const { store, executor, clock, followUps } = this.ports;
    const error = (text: string): DelegationResult => ({ text, isError: true });
    const parent = Object.values(executor.state.turns).find((t) => t.record.channelId === channelId && t.record.agent === agent && isActive(t));
    if (!parent) return error("You have no answer running in this channel: delegate works while you answer.");
    const members = (await store.members(channelId)).map((m) => m.agentName);
    const target = members.find((m) => m.toLowerCase() === member.replace(/^@/, "").toLowerCase());
    if (!target) return error(`"${member}" is not a member of this channel. Its members: ${members.map((m) => `@${m}`).join(", ")}.`);
    if (target === agent) return error("You cannot delegate to yourself: answer the request, or delegate it to another member.");

    const earlier = await this.earlier(parent, target, request);
    if (earlier) return earlier;
    const refused = followUps.claimToolDelegation(parent.record, agent, target, parent.message.delegatedBy);
    if (refused) return error(refused);
    const waiter = ancestors(executor.state.turns, parent).find((t) => t.record.agent === target);
    if (waiter) return error(`Not delegated to @${target}: @${target} is waiting for this delegation to finish already, and would wait for itself.`);

    const at = clock.now();
    const child = newAdmission(clock, channelId, target, {
      prompt: `@${agent} delegated this to you with the delegate tool; your final answer goes back to @${agent} as the tool's result:\n\n${request}`,
      requestMessageId: parent.record.messageId,
      rootMessageId: parent.record.rootMessageId,
      parentTurnId: parent.record.id,
      delegatedBy: agent,
      parentMessageId: parent.record.messageId,
    });
    const intent: IntentRecord = {
      version: 1,
      id: clock.ulid(at),
      turnId: parent.record.id,
      attempt: parent.record.attempt,
      agent,
      kind: "delegate",
      phase: "intended",
      member: target,
      request,
      childTurnId: child.turnId,
      childMessageId: child.messageId,
      ...(toolCallId ? { toolCallId } : {}),
      createdAt: at,
      updatedAt: at,
    };
    const settled = new Promise<IntentRecord>((resolve) => this.waiting.set(intent.id, resolve));
    const admitted = await executor.submit({ type: "delegate", at, turnId: parent.record.id, attempt: parent.record.attempt, intent, child });
    if (!admitted) {
      this.waiting.delete(intent.id);
      return error("Your answer is being stopped or has ended: nothing was delegated.");
    }
    return resultOf(await settled);
  }

  /** A child settled (the executor's `delegationSettled` port): its tool call answers. */
  settled(intent: IntentRecord): void {
    const resolve = this.waiting.get(intent.id);
    this.waiting.delete(intent.id);
    resolve?.(intent);
  }

  /** The host is closing: every call still waiting answers that its child did not finish here (it stays recorded). */
  close(): void {
    for (const [id, resolve] of this.waiting) resolve({ version: 1, id, turnId: "", attempt: 0, agent: "", kind: "delegate", phase: "settled", result: "outcome_uncertain", detail: "Sidekicks is closing: the delegated turn had not finished", createdAt: 0, updatedAt: 0 });
    this.waiting.clear();
  }

  /** The answer an earlier attempt of the same turn got for the same delegation, if it settled (redelivery). */
  private async earlier(parent: LiveTurn, member: string, request: string): Promise<DelegationResult | undefined> {
    const same = (await this.ports.store.intentsOf(parent.record.id)).filter(
      (i) => i.kind === "delegate" && i.phase === "settled" && i.attempt < parent.record.attempt && i.member === member && i.request === request,
    );
    const last = same.at(-1);
    if (last?.result === "done" || last?.result === "outcome_uncertain") return resultOf(last, true);
    return undefined;
  }
}

/** The tool's answer for a settled delegation intent. */
function resultOf(intent: IntentRecord, redelivered = false): DelegationResult {
  const member = intent.member ?? "?";
  if (intent.result === "done") {
    const answer = intent.answer?.trim() ? intent.answer : `(@${member} answered with no text)`;
    return { text: redelivered ? `${answer}\n\n[Sidekicks: @${member}'s answer from your earlier attempt (attempt ${intent.attempt}); @${member} was not run again.]` : answer, isError: false };
  }
  if (redelivered) {
    return { text: `Your earlier attempt (attempt ${intent.attempt}) delegated this to @${member}, and ${intent.detail ?? "its outcome is not known"}. Its answer so far is in the channel; ask the user before handing it over again.`, isError: true };
  }
  return { text: intent.detail ?? `@${member}'s turn did not complete.`, isError: true };
}

/** The turns that wait, through `delegate` tool calls, for `t` (its parent, that one's parent, …). */
function ancestors(turns: Readonly<Record<string, LiveTurn>>, t: LiveTurn): LiveTurn[] {
  const chain: LiveTurn[] = [];
  let current: LiveTurn | undefined = t;
  while (current?.record.parentIntentId && current.record.parentTurnId) {
    current = turns[current.record.parentTurnId];
    if (!current || chain.includes(current)) break;
    chain.push(current);
  }
  return chain;
}
