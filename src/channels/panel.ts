/**
 * The panel (brief, "A channel may name a moderator that is woken once every turn of a round has settled"; roster
 * `channels[].moderator`). Pure: whether a settled round wakes the moderator, and what it is asked.
 */
import type { RoundAnswer } from "../turns/reducer";

/**
 * True when `moderator` should be woken after a round with these answers: at least one other member completed an
 * answer, and the moderator has not already been woken for this round (its own moderator turn settles a round
 * too, and must not wake it again). A round the user addressed to the moderator alone wakes nothing.
 */
export function shouldWakeModerator(moderator: string, answers: readonly RoundAnswer[]): boolean {
  if (answers.some((a) => a.role === "moderator")) return false;
  return answers.some((a) => a.agent !== moderator && a.outcome === "completed");
}

/**
 * The moderator's prompt. The answers themselves reach it as re-injected channel context (bounded like any
 * context); the prompt names who answered and how each answer ended, so a cancelled or failed one is not mistaken
 * for agreement.
 */
export function moderatorPrompt(answers: readonly RoundAnswer[], moderator: string): string {
  const lines = answers
    .filter((a) => a.agent !== moderator || a.role !== "moderator")
    .map((a) => `- @${a.agent}${a.agent === moderator ? " (you)" : ""}: ${a.outcome === "completed" ? "answered" : a.outcome}`);
  return [
    "You are this channel's moderator. Every turn of the last round has ended:",
    ...lines,
    "Their answers are in the channel messages above. Sum them up: where they agree, where they differ, and what you recommend.",
  ].join("\n");
}
