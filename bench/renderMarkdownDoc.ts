/**
 * A deterministic, realistic agent answer in Markdown for the render benchmarks: headings, paragraphs with inline
 * code, links and emphasis, bullet and numbered lists, and fenced code blocks (TypeScript, bash, JSON), repeating
 * with varied content. Used by bench/render.ts (in the browser) and the end-to-end fake agent (test/fixtures).
 */
import { prng } from "../test/prng";

const WORDS = (
  "the agent reads the file and updates the handler so that each request is validated before it reaches the store " +
  "which keeps the session state consistent when several prompts arrive while a tool call is still running"
).split(" ");

function sentence(next: () => number): string {
  const n = 8 + Math.floor(next() * 14);
  const words: string[] = [];
  for (let i = 0; i < n; i++) {
    const w = WORDS[Math.floor(next() * WORDS.length)] ?? "the";
    const r = next();
    words.push(r < 0.05 ? `\`${w}()\`` : r < 0.08 ? `**${w}**` : r < 0.1 ? `[${w}](https://example.com/${w})` : w);
  }
  const s = words.join(" ");
  return s.charAt(0).toUpperCase() + s.slice(1) + ".";
}

function section(index: number, next: () => number): string {
  const out: string[] = [`## Step ${index + 1}: ${sentence(next).slice(0, 40).trim()}`, ""];
  out.push(Array.from({ length: 2 + Math.floor(next() * 3) }, () => sentence(next)).join(" "), "");
  const items = 3 + Math.floor(next() * 4);
  const numbered = next() < 0.4;
  for (let i = 0; i < items; i++) out.push(`${numbered ? `${i + 1}.` : "-"} ${sentence(next)}`);
  out.push("");
  out.push(Array.from({ length: 1 + Math.floor(next() * 3) }, () => sentence(next)).join(" "), "");
  const kind = Math.floor(next() * 3);
  if (kind === 0) {
    out.push("```ts", `export function handle${index}(request: Request, store: Store): Result {`);
    for (let i = 0; i < 4 + Math.floor(next() * 8); i++) out.push(`  const value${i} = store.get(request.key${i} ?? "${WORDS[i % WORDS.length]}");`);
    out.push(`  return { ok: true, count: ${index} };`, "}", "```", "");
  } else if (kind === 1) {
    out.push("```bash", `npm run build && node --test test/unit/step${index}.test.ts`, `grep -rn "handler" src/ | head -n ${index % 50}`, "```", "");
  } else {
    out.push("```json", JSON.stringify({ step: index, files: ["src/a.ts", "src/b.ts"], ok: next() < 0.5 }, null, 2), "```", "");
  }
  out.push(sentence(next), "");
  return out.join("\n");
}

/** At least `bytes` characters of Markdown (ASCII, so characters = bytes), the same text for the same `bytes`. */
export function markdownDocument(bytes: number): string {
  const next = prng(42);
  const parts: string[] = ["# Plan\n\n"];
  let length = parts[0]!.length;
  for (let i = 0; length < bytes; i++) {
    const s = section(i, next) + "\n";
    parts.push(s);
    length += s.length;
  }
  return parts.join("");
}
