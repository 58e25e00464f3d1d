/** Shared by the reducer's table tests: deep-freezing inputs, and running inputs in order through `reduce`. */
import { reduce, type EngineEffect, type EngineInput, type EngineState } from "../../src/turns/reducer";

/** Deep-freezes `value` (and returns it): a test then also proves that nothing mutates what it was given. */
export function freeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) freeze(v);
  }
  return value;
}

/** Runs inputs in order from `state` (each state frozen first); returns the last state, every effect, and the last result. */
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
