/**
 * The demo agent's `/idioms` command: explains a French idiom from a small built-in list, offline and
 * deterministic (after the brief's example `@garfield /idioms Il pleut`). Imports nothing.
 */

/** A French idiom with its literal translation, meaning and an English equivalent. */
interface Idiom {
  french: string;
  literal: string;
  meaning: string;
  english: string;
}

const IDIOMS: Idiom[] = [
  { french: "Il pleut des cordes", literal: "It is raining ropes", meaning: "It is raining very hard.", english: "It's raining cats and dogs" },
  { french: "Poser un lapin", literal: "To put down a rabbit", meaning: "To stand someone up: not come to a meeting.", english: "To stand someone up" },
  { french: "Avoir le cafard", literal: "To have the cockroach", meaning: "To feel down, gloomy.", english: "To have the blues" },
  { french: "Coûter les yeux de la tête", literal: "To cost the eyes of the head", meaning: "To be very expensive.", english: "To cost an arm and a leg" },
  { french: "Avoir un chat dans la gorge", literal: "To have a cat in the throat", meaning: "To be hoarse.", english: "To have a frog in one's throat" },
  { french: "Tomber dans les pommes", literal: "To fall into the apples", meaning: "To faint.", english: "To pass out" },
  { french: "Casser les pieds", literal: "To break the feet", meaning: "To annoy someone.", english: "To get on someone's nerves" },
  { french: "Quand les poules auront des dents", literal: "When hens have teeth", meaning: "Never.", english: "When pigs fly" },
];

/** Lower case without accents, split into words. */
function words(text: string): string[] {
  return text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .match(/[a-z]+/g) ?? [];
}

/**
 * The Markdown answer to `/idioms <phrase>`: the idiom sharing the most words with the phrase (ties: the first in
 * the list), or the list of known idioms when the phrase is empty or matches none.
 */
export function explainIdiom(phrase: string): string {
  const asked = new Set(words(phrase).filter((w) => w.length > 1));
  let best: { idiom: Idiom; score: number } | undefined;
  for (const idiom of IDIOMS) {
    const score = words(idiom.french).filter((w) => asked.has(w)).length;
    if (score > 0 && (!best || score > best.score)) best = { idiom, score };
  }
  if (!best) {
    const intro = phrase.trim() ? `I don't know an idiom with “${phrase.trim()}”. ` : "";
    return `${intro}I know these French idioms:\n\n${IDIOMS.map((i) => `- *${i.french}*`).join("\n")}\n\nTry \`/idioms Il pleut\`.`;
  }
  const { french, literal, meaning, english } = best.idiom;
  return `**${french}** — literally “${literal}”.\n\nMeaning: ${meaning} In English: *${english}*.`;
}

/** The commands the demo agent announces (ACP `available_commands_update`). */
export const DEMO_COMMANDS = [
  { name: "idioms", description: "Explain a French idiom", input: { hint: "a French phrase, e.g. Il pleut" } },
  { name: "help", description: "What the demo agent can do" },
];
