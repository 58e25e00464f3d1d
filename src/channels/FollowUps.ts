import * as l10n from "@vscode/l10n";
import type { Store } from "../store/Store";
import type { ChannelRecord, MessageRecord, TurnRecord } from "../store/records";
import type { RoundAnswer } from "../turns/reducer";
import type { TurnExecutor } from "../turns/TurnExecutor";
import { newAdmission, type ChannelClock } from "./admission";
import { MAX_DELEGATIONS, planDelegation } from "./delegation";
import { moderatorPrompt, shouldWakeModerator } from "./panel";

/** What {@link FollowUps} works with. */
export interface FollowUpsPorts {
  store: Store;
  executor: TurnExecutor;
  clock: ChannelClock;
  /** The moderator of a channel (from the roster's `channels[].moderator`), if it has one. */
  moderatorOf?: (channel: ChannelRecord) => string | undefined;
}

/**
 * The turns a settled turn or round starts by itself (brief, "Multi-agent work"): delegation, when an agent's final
 * answer @mentions other members, and the panel's moderator, when a round's last turn settled. The executor calls
 * {@link delegate} and {@link wakeModerator} (its `settled` and `roundSettled` ports).
 */
export class FollowUps {
  /** Delegations each user message may still cause (its id → count), for the most recent ones. */
  private readonly delegationsLeft = new Map<string, number>();

  constructor(private readonly ports: FollowUpsPorts) {}

  /**
   * An agent's final answer that @mentions other members delegates to them: one child turn each, linked to the
   * answer (`delegatedBy`, `parentMessageId`, `parentTurnId`), within {@link MAX_DELEGATIONS} per user message and
   * never straight back to the agent that delegated. What is refused is said in a system message.
   */
  async delegate(turn: TurnRecord, answer: MessageRecord): Promise<void> {
    const { store, clock } = this.ports;
    const from = answer.author.agentName;
    // A child of the `delegate` tool answers its parent's tool call: its mentions are not delegations (issue 22).
    if (turn.outcome !== "completed" || answer.stopReason !== "end_turn" || turn.role === "moderator" || turn.parentIntentId) return;
    const text = answer.parts.map((p) => (p.type === "text" ? p.text : "")).join("");
    if (!from || !text.includes("@")) return;
    const members = (await store.members(answer.channelId)).map((m) => m.agentName);
    const remaining = this.delegationsLeft.get(turn.rootMessageId) ?? MAX_DELEGATIONS;
    const root = await store.message(answer.channelId, turn.rootMessageId);
    // Members this turn handed work to with the `delegate` tool already answered it: a mention of them is not another hand-off.
    const viaTool = (await store.intentsOf(turn.id)).filter((i) => i.kind === "delegate" && i.member).map((i) => i.member!);
    const addressed = [...(root?.author.kind === "user" ? (root.to ?? []) : []), ...viaTool];
    const plan = planDelegation({ from, text, delegatedBy: answer.delegatedBy, addressed }, members, remaining);
    if (plan.to.length === 0 && plan.refused.length === 0) return;
    this.spend(turn.rootMessageId, remaining - plan.to.length);
    const at = clock.now();
    const note: MessageRecord | undefined =
      plan.refused.length > 0 ? { version: 1, id: clock.ulid(at), channelId: answer.channelId, author: { kind: "system" }, parts: [{ type: "text", text: plan.refused.join("\n\n") }], createdAt: at } : undefined;
    const turns = plan.to.map((agent) =>
      newAdmission(clock, answer.channelId, agent, {
        prompt: `@${from} delegated this to you:\n\n${text}`,
        requestMessageId: answer.id,
        rootMessageId: turn.rootMessageId,
        parentTurnId: turn.id,
        delegatedBy: from,
        parentMessageId: answer.id,
      }),
    );
    await this.ports.executor.submit({ type: "admit", at, message: note, turns });
  }

  /**
   * A `delegate` tool call of `from` (issue 22) to `to`, a member other than `from`: the same rules as a mention —
   * never straight back to the agent that delegated to `from` (`delegatedBy`), within {@link MAX_DELEGATIONS} per
   * user message (`turn.rootMessageId`), counted with the mentions. @returns why it is refused, or undefined (counted)
   */
  claimToolDelegation(turn: TurnRecord, from: string, to: string, delegatedBy: string | undefined): string | undefined {
    const remaining = this.delegationsLeft.get(turn.rootMessageId) ?? MAX_DELEGATIONS;
    const plan = planDelegation({ from, text: `@${to}`, delegatedBy }, [to], remaining);
    if (plan.to.length === 0) return plan.refused.join(" ") || `Not delegated to @${to}.`;
    this.spend(turn.rootMessageId, remaining - 1);
    return undefined;
  }

  /** Records `left` delegations for user message `root` (mentions and tool calls count alike); the oldest of 1,000 go. */
  private spend(root: string, left: number): void {
    this.delegationsLeft.set(root, left);
    if (this.delegationsLeft.size > 1_000) this.delegationsLeft.delete(this.delegationsLeft.keys().next().value!);
  }

  /**
   * The panel (brief, "A channel may name a moderator that is woken once every turn of a round has settled"): when
   * the round's last turn settles, the moderator gets a turn of its own. A system message marks the wake-up; the
   * round's messages reach the moderator as re-injected context (what it has not seen, up to that mark).
   */
  async wakeModerator(channelId: string, rootMessageId: string, answers: RoundAnswer[]): Promise<void> {
    const { store, clock } = this.ports;
    const channel = await store.channelById(channelId);
    const moderator = channel ? this.ports.moderatorOf?.(channel) : undefined;
    if (!moderator) return;
    const members = (await store.members(channelId)).map((m) => m.agentName);
    if (!members.includes(moderator) || !shouldWakeModerator(moderator, answers)) return;
    const at = clock.now();
    const others = answers.filter((a) => a.agent !== moderator).map((a) => `@${a.agent}`);
    const mark: MessageRecord = {
      version: 1,
      id: clock.ulid(at),
      channelId,
      author: { kind: "system" },
      parts: [{ type: "text", text: l10n.t("Round complete ({0}): @{1}, the moderator, sums up.", [...new Set(others)].join(", "), moderator) }],
      createdAt: at,
    };
    const turn = newAdmission(clock, channelId, moderator, { prompt: moderatorPrompt(answers, moderator), requestMessageId: mark.id, rootMessageId, role: "moderator" });
    await this.ports.executor.submit({ type: "admit", at, message: mark, turns: [turn] });
  }
}
