/**
 * What the reducer's table tests share: every state handed to the reducer is deep-frozen (so a row also proves the
 * reducer never mutates the state it was given), and small builders of admissions and running turns. The same shape
 * as the helpers at the top of `turnReducer.test.ts`.
 */
import type { MessageRecord } from "../../src/store/records";
import { initialState, reduce, type Admission, type EngineEffect, type EngineInput, type EngineState } from "../../src/turns/reducer";

export const OWNER = "HOST-B";
export const T0 = 1_000_000;

/** Deep-freezes `value` in place and returns it. */
export function freeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) freeze(v);
  }
  return value;
}

/** Runs inputs in order from `state` (frozen each time); returns the last state, every effect, and the last result. */
export function run(state: EngineState, ...inputs: EngineInput[]) {
  const effects: EngineEffect[] = [];
  let result: boolean | undefined;
  for (const input of inputs) {
    const step = reduce(freeze(state), input, 5_000);
    state = step.state;
    effects.push(...step.effects);
    result = step.result;
  }
  return { state, effects, result };
}

let seq = 0;
const id = (prefix: string) => `${prefix}${String(++seq).padStart(4, "0")}`;

/** A turn of `agent` admitted to an idle lane and claimed (attempt 1): its state, turn and request message. */
export function running(agent = "a") {
  const message: MessageRecord = { version: 1, id: id("U"), channelId: "C1", author: { kind: "user" }, parts: [{ type: "text", text: "hi" }], createdAt: T0 };
  const turn: Admission = { turnId: id("T"), messageId: id("M"), channelId: "C1", agent, requestMessageId: message.id, rootMessageId: message.id, prompt: "hi" };
  const admitted = run(initialState(OWNER), { type: "admit", at: T0, message, turns: [turn] });
  return { state: admitted.state, turn, message };
}

/** The effects of one type, typed. */
export const of = <T extends EngineEffect["type"]>(effects: EngineEffect[], type: T) => effects.filter((e): e is Extract<EngineEffect, { type: T }> => e.type === type);
