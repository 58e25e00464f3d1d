import * as l10n from "@vscode/l10n";
import type { PermissionAnswer } from "../acp/types";
import type { AgentSession, SessionSink } from "../agents/AgentManager";
import { asSidekicksError } from "../shared/errors";
import type { IntentRecord, MessageRecord, TurnRecord } from "../store/records";
import type { ChangedFile, FileDecision } from "../workspace/turnFiles";
import { runClientEffect } from "./clientEffects";
import { decidePersist, readHeldMembers, type PersistEffect } from "./persistBatch";
import { NO_RULES } from "./permissionPolicy";
import { CANCEL_GRACE_MS, CHECKPOINT_MS, initialState, isActive, reduce, type EngineEffect, type EngineInput, type EngineState } from "./reducer";
import { TextCoalescer } from "./TextCoalescer";
import type { TurnPorts } from "./turnPorts";

export type { SessionSource, TurnPorts } from "./turnPorts";

/** Options of the executor. */
export interface ExecutorOptions {
  /** This activation's owner id (a ULID). */
  owner: string;
  /** How long Stop waits for the agent's `cancelled` before settling anyway, in ms (read at each Stop when a function). */
  cancelGraceMs?: number | (() => number);
  /** Period of the checkpoint/heartbeat tick while a turn runs, in ms (default {@link CHECKPOINT_MS}). */
  tickMs?: number;
}

/**
 * Applies the turn reducer's effects, in order, one input at a time (brief, "effects … applied in order by one
 * executor"). The one queue is the admission lock: two sends can never both find an agent idle. `persist` is awaited
 * before the next effect, so a `message/finished` broadcast always follows its committed batch; `prompt` runs in the
 * background and reports back as inputs carrying its `(turnId, attempt)`.
 */
export class TurnExecutor {
  private current: EngineState;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly sessions = new Map<string, { attempt: number; session: AgentSession }>();
  /** Pending permission requests: how to answer each, and the attempt it belongs to (for its tool intent). */
  private readonly permissionReplies = new Map<string, { resolve: (answer: PermissionAnswer) => void; turn: { id: string; attempt: number; agent: string } }>();
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private ticker: ReturnType<typeof setInterval> | undefined;
  private stopped = false;
  /** The pending permission requests last reported (`permissions/pending`), as a key. */
  private pendingKey = "";
  private idCounter = 0;

  constructor(
    private readonly ports: TurnPorts,
    private readonly options: ExecutorOptions,
  ) {
    this.current = initialState(options.owner);
  }

  /** The reducer's current state (read-only: open turns, rounds). */
  get state(): EngineState {
    return this.current;
  }

  /**
   * Feeds one input to the reducer and applies its effects; inputs run one after the other.
   * @returns the reducer's `result` for the input (accepted, cancelled, retried, sent)
   */
  submit(input: EngineInput): Promise<boolean | undefined> {
    // Fast path (a streamed chunk, most of the time): nothing in flight, so the input is reduced now and its effects
    // applied synchronously up to the first one that writes; only then does the step continue asynchronously.
    if (this.inFlight === 0) {
      this.inFlight++; // an input submitted by an effect meanwhile waits for this one
      let step: ReturnType<TurnExecutor["stepNow"]>;
      try {
        step = this.stepNow(input);
      } catch (err) {
        this.inFlight--;
        return Promise.reject(err);
      }
      this.inFlight--;
      return step instanceof Promise ? this.track(step) : Promise.resolve(step);
    }
    return this.track(this.queue.then(() => this.stepNow(input)));
  }

  /** Why the current step's last write failed, if it did: what it broadcasts afterwards says so. */
  private unsaved: string | undefined;

  /** Inputs queued or running; 0 means the next input may be reduced synchronously. */
  private inFlight = 0;

  private track(run: Promise<boolean | undefined>): Promise<boolean | undefined> {
    this.inFlight++;
    const done = run.finally(() => this.inFlight--);
    this.queue = done.catch(() => undefined);
    return done;
  }

  /**
   * Stops: settles running attempts `interrupted` (pending turns stay queued in the store), then drops timers.
   * Inputs submitted afterwards are ignored.
   */
  async close(): Promise<void> {
    await this.submit({ type: "close", at: this.ports.now() });
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = undefined;
    for (const reply of this.permissionReplies.values()) reply.resolve({ outcome: "cancelled" });
    this.permissionReplies.clear();
  }

  /** Reduces `input` and applies its effects in order; synchronous until an effect has to be awaited. */
  private stepNow(input: EngineInput): boolean | undefined | Promise<boolean | undefined> {
    if (this.stopped) return false;
    const grace = this.options.cancelGraceMs ?? CANCEL_GRACE_MS;
    const { state, effects, result } = reduce(this.current, input, typeof grace === "function" ? grace() : grace);
    this.current = state;
    this.unsaved = undefined;
    for (let i = 0; i < effects.length; i++) {
      const pending = this.apply(effects[i]!);
      if (pending) return this.finishAsync(pending, effects.slice(i + 1), input, result);
    }
    this.afterStep(input);
    return result;
  }

  private async finishAsync(pending: Promise<void>, rest: EngineEffect[], input: EngineInput, result: boolean | undefined): Promise<boolean | undefined> {
    await pending;
    for (const effect of rest) await this.apply(effect);
    this.afterStep(input);
    return result;
  }

  private afterStep(input: EngineInput): void {
    // A streamed chunk never starts or ends a turn: the ticker stays as it is.
    if (input.type !== "update") this.updateTicker();
    // A streamed chunk or a tick never changes which permission requests wait.
    if (input.type !== "update" && input.type !== "tick") this.reportPending();
  }

  /** Applies one effect; returns a promise only for effects that must complete before the next (writes, cancel). */
  private apply(effect: EngineEffect): Promise<void> | undefined {
    switch (effect.type) {
      case "persist":
        return this.persist(effect);
      case "cancelPrompt": {
        const running = this.sessions.get(effect.turnId);
        return running?.session.cancel().catch((err) => this.ports.log("warn", `session/cancel failed: ${String(err)}`));
      }
      case "remember":
        return this.ports.permissions.remember(effect.agent, effect.rule).catch((err) => this.ports.log("warn", `permission rule not remembered: ${String(err)}`));
      default:
        this.applySync(effect);
        return undefined;
    }
  }

  /**
   * Sends a permission answer to the agent, recorded as a tool intent (`intended → running → settled`, brief "Tool
   * intents"): after a crash, one that never left `intended` was not sent; one `running` may or may not have reached
   * the agent (`uncertain`). The answer goes out once its intent is written (one small batch): the intent log is the
   * one write outside the reducer's `persist` effects (`docs/reliability.md`).
   */
  private answerPermission(requestId: string, optionId: string | undefined): void {
    const pending = this.permissionReplies.get(requestId);
    if (!pending) return;
    this.permissionReplies.delete(requestId);
    const { intents } = this.ports;
    const send = () => pending.resolve(optionId === undefined ? { outcome: "cancelled" } : { outcome: "selected", optionId });
    void intents
      .intend({ turnId: pending.turn.id, attempt: pending.turn.attempt, agent: pending.turn.agent, kind: "permission", requestId, optionId: optionId ?? "cancelled" })
      .then((intent) => intents.around(intent, async () => send()))
      .catch((err) => {
        this.ports.log("warn", `permission answer not recorded: ${String(err)}`);
        send();
      });
  }

  /** Commits a `persist` effect's batch in the store's write lane (the members it moves are read there). */
  private async persist(effect: PersistEffect): Promise<void> {
    try {
      await this.ports.writer.write((store) => readHeldMembers(store, effect), (held) => decidePersist(effect, held));
    } catch (err) {
      const e = asSidekicksError(err, "store/corrupt");
      this.ports.log("error", `not saved (${e.code}): ${e.message}`);
      // The answer's card says it was not saved; the store's own reason goes in it.
      this.unsaved = e.code === "store/writeFailed" && e.detail ? e.detail : e.message;
    }
  }

  private applySync(effect: EngineEffect): void {
    const { ports } = this;
    switch (effect.type) {
      case "broadcast":
        // Settlement first: an answer whose settling batch failed is not shown as if it were saved.
        ports.emitter.emit(
          effect.name,
          this.unsaved && effect.name === "message/finished"
            ? { ...effect.message, status: "error", error: { code: "store/corrupt", message: l10n.t("This answer could not be saved ({0}). It is shown here, but will not be after a reload.", this.unsaved), ...(effect.message.error ? { detail: effect.message.error.message } : {}) } }
            : effect.message,
        );
        return;
      case "delta":
        ports.emitter.emit("message/delta", { channelId: effect.channelId, messageId: effect.messageId, appendText: effect.appendText, part: effect.part });
        return;
      case "prompt":
        void this.runPrompt(effect.turn, effect.note);
        return;
      case "answerPermission":
        this.answerPermission(effect.requestId, effect.optionId);
        return;
      case "schedule": {
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          void this.submit(effect.input);
        }, effect.ms);
        timer.unref?.();
        this.timers.add(timer);
        return;
      }
      case "log":
        ports.log(effect.level, effect.line);
        return;
      case "settled": {
        this.sessions.delete(effect.turn.id);
        // The folder is walked again: an edit made just before the prompt ended is listed though its event is late.
        const ending = ports.files?.end(effect.turn.id);
        // Closing: the store closes right after, so nothing more is written (the answer keeps what it has).
        if (this.current.closed) return;
        void ending
          ?.then((changed) => (changed.length > 0 ? this.keepFiles(effect.turn, changed) : undefined))
          .catch((err) => ports.log("warn", `changed files of turn ${effect.turn.id} not kept: ${String(err)}`));
        // Not awaited: delegation submits inputs of its own, which queue behind this one.
        void ports
          .settled(effect.turn, effect.message)
          .catch((err) => ports.log("warn", `after turn ${effect.turn.id}: ${String(err)}`))
          .then(() => this.submit({ type: "roundCheck", rootMessageId: effect.turn.rootMessageId }));
        return;
      }
      case "delegationSettled":
        // Its batch is committed: the `delegate` tool call waiting for this child answers now (issue 22).
        ports.delegationSettled?.(effect.intent);
        return;
      case "roundSettled":
        void ports.roundSettled(effect.channelId, effect.rootMessageId, effect.answers).catch((err) => ports.log("warn", `after round ${effect.rootMessageId}: ${String(err)}`));
        return;
    }
  }

  /**
   * The files a settled turn changed go to the reducer (`filesChanged`), in the queue: the stored answer is read there,
   * only when this host no longer holds the turn, so no write of that answer can come between the read and the write.
   */
  private keepFiles(turn: TurnRecord, files: ChangedFile[]): Promise<boolean | undefined> {
    const worktree = this.ports.agents.inWorktree?.(turn.agent) === true;
    return this.withStored(turn, (stored) => ({ type: "filesChanged", turnId: turn.id, files, ...(worktree ? { worktree } : {}), ...(stored ? { stored } : {}) }));
  }

  /**
   * The user kept, undid or redid files of settled turn `turn` (issue 19): their states, with the restore `intents`
   * settled, go to the reducer (`fileStates`) the way {@link keepFiles} goes.
   */
  fileStates(turn: TurnRecord, states: Record<string, FileDecision>, intents: IntentRecord[]): Promise<unknown> {
    return this.withStored(turn, (stored) => ({ type: "fileStates", turnId: turn.id, states, intents, ...(stored ? { stored } : {}) }));
  }

  /** Steps `input(stored)` in the queue, `stored` being the turn's answer as stored when this host no longer holds it. */
  private withStored(turn: TurnRecord, input: (stored: MessageRecord | undefined) => EngineInput): Promise<boolean | undefined> {
    return this.track(
      this.queue.then(async () => {
        const { turns, recent, closed } = this.current;
        const held = closed || turns[turn.id] !== undefined || Object.values(recent).some((r) => r.record.id === turn.id);
        const stored = held ? undefined : await this.ports.store.message(turn.channelId, turn.messageId);
        return this.stepNow(input(stored));
      }),
    );
  }

  /** Runs one attempt's prompt: opens (or resumes) the session, re-injects context, prompts, reports the end. */
  private async runPrompt(turn: TurnRecord, note: string | undefined): Promise<void> {
    const { ports } = this;
    const { id: turnId, attempt } = turn;
    const coalescer = new TextCoalescer((update) => void this.submit({ type: "update", at: ports.now(), turnId, attempt, update }));
    const flushText = () => coalescer.flush();
    const sink: SessionSink = {
      onUpdate: (update) => {
        if (update.kind === "text") {
          coalescer.add(update);
          return;
        }
        flushText();
        void this.submit({ type: "update", at: ports.now(), turnId, attempt, update });
      },
      onPermissionRequest: (request, signal) =>
        new Promise<PermissionAnswer>((resolve) => {
          flushText();
          const requestId = `${turnId}-${attempt}-${++this.idCounter}`;
          this.permissionReplies.set(requestId, { resolve, turn: { id: turnId, attempt, agent: turn.agent } });
          signal.addEventListener("abort", () => void this.submit({ type: "permissionWithdrawn", requestId }), { once: true });
          void (async () => {
            // The policy and the user's rules may answer without asking; the reducer decides (the card says so).
            const rules = await ports.permissions.of(turn.agent).catch(() => NO_RULES);
            await this.submit({ type: "permissionRequested", at: ports.now(), turnId, attempt, requestId, request, policy: ports.policyOf(turn.agent), rules });
          })();
        }),
    };
    sink.onEffect = (effect) => {
      flushText();
      return runClientEffect(this.ports, turn, effect);
    };
    const end = (result: { stopReason?: string; error?: { code: string; message: string; detail?: string } }) => {
      flushText();
      return this.submit({ type: "promptEnded", at: ports.now(), turnId, attempt, ...result });
    };
    try {
      const member = (await ports.store.members(turn.channelId)).find((m) => m.agentName === turn.agent);
      const session = await ports.agents.session(turn.agent, turn.channelId, sink, member?.acpSessionId ? { resumeSessionId: member.acpSessionId } : undefined);
      this.sessions.set(turnId, { attempt, session });
      if (member && session.sessionId && member.acpSessionId !== session.sessionId) await this.submit({ type: "sessionOpened", channelId: turn.channelId, agent: turn.agent, sessionId: session.sessionId });
      const live = this.current.turns[turnId];
      if (!live || live.record.attempt !== attempt || !isActive(live) || live.cancelRequested) {
        await end({ stopReason: "cancelled" });
        return;
      }
      // What the workspace holds before the agent acts: the base of the turn's "files changed" diffs.
      const folder = ports.agents.workspaceOf?.(turn.agent);
      if (folder && ports.files) await ports.files.begin(turnId, folder);
      const skills = turn.command ? undefined : await ports.skills?.(turn, session.fresh);
      if (skills && skills.inUse.length > 0) await this.submit({ type: "skillsInUse", turnId, attempt, skills: skills.inUse });
      const context = turn.command ? "" : await ports.context(turn, session.fresh);
      const preamble = (skills?.preamble ?? "") + context + (note ?? "");
      // What the user attached to the message that asked (issue 21), as stored (checked when read).
      const asked = await ports.store.message(turn.channelId, turn.requestMessageId);
      const attachments = asked?.author.kind === "user" ? asked.attachments : undefined;
      const input = preamble || attachments ? { text: turn.prompt, ...(preamble ? { context: preamble } : {}), ...(attachments ? { attachments } : {}) } : turn.prompt;
      const stopReason = await session.prompt(input);
      await end({ stopReason });
    } catch (err) {
      const e = asSidekicksError(err, "agent/protocol");
      await end({ error: { code: e.code, message: e.message, ...(e.detail ? { detail: e.detail } : {}) } });
    }
  }

  /** Emits `permissions/pending` when the set of requests waiting for the user changed. */
  private reportPending(): void {
    const waiting = Object.values(this.current.turns)
      .flatMap((t) =>
        t.message.parts
          .filter((p) => p.type === "permission" && p.outcome === undefined)
          .map((p) => ({ channelId: t.record.channelId, messageId: t.record.messageId, agent: t.record.agent, requestId: p.type === "permission" ? p.requestId : "", title: p.type === "permission" ? p.title : "" })),
      )
      .sort((a, b) => (a.requestId < b.requestId ? -1 : 1));
    const key = waiting.map((w) => w.requestId).join(",");
    if (key === this.pendingKey) return;
    this.pendingKey = key;
    this.ports.emitter.emit("permissions/pending", { waiting });
  }

  /** Ticks (checkpoints, heartbeats) only while an attempt runs. */
  private updateTicker(): void {
    const running = Object.values(this.current.turns).some(isActive);
    if (running && !this.ticker && !this.stopped) {
      this.ticker = setInterval(() => void this.submit({ type: "tick", at: this.ports.now() }), this.options.tickMs ?? CHECKPOINT_MS);
      this.ticker.unref?.();
    } else if (!running && this.ticker) {
      clearInterval(this.ticker);
      this.ticker = undefined;
    }
  }
}
