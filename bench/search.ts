/**
 * search.100kMs — a one-word history search (`HistorySearch.search`, the 50 newest hits, as the QuickPick asks)
 * over 100,000 messages in 10 channels of one LevelDB store, through the word index (ADR 0007). Baseline in the same
 * run: the same query by reading every message (`Store.scanSearch`, what an index-less search costs and what an
 * older store gets until its index is built). Messages have about 40 words drawn from a 5,000-word vocabulary with
 * a Zipf-like skew (seeded); the query word is in about 1% of them. Medians of alternating rounds. Target ≤ 100 ms.
 * Also: a rare word (about 20 messages) and a two-word query through the index, and the fill time.
 */
import { monotonicFactory } from "ulid";
import { HistorySearch } from "../src/channels/HistorySearch";
import { Store } from "../src/store/Store";
import { StoreWriter } from "../src/store/StoreWriter";
import type { MessageRecord } from "../src/store/records";
import { prng } from "../test/prng";
import { tempDir } from "../test/unit/helpers";
import { median } from "./stats";

const COUNT = Number(process.env.BENCH_SEARCH_MESSAGES ?? 100_000);
const CHANNELS = 10;
const BATCH = 5_000;
const ROUNDS = Number(process.env.BENCH_SEARCH_ROUNDS ?? 15);
const VOCABULARY = 5_000;

const round2 = (x: number): number => Math.round(x * 100) / 100;

/** A made-up word for rank `i` (distinct, 3 to 10 letters). */
function wordOf(i: number): string {
  const letters = "abcdefghijklmnopqrstuvwxyz";
  let s = "";
  let n = i + 27;
  while (n > 0) {
    s += letters[n % 26];
    n = Math.floor(n / 26);
  }
  return `${s}${letters[i % 26]}${letters[(i * 7) % 26]}`;
}

async function fill(store: Store): Promise<{ ms: number; query: string; rare: string }> {
  const random = prng(21);
  const ulid = monotonicFactory();
  const vocab = Array.from({ length: VOCABULARY }, (_, i) => wordOf(i));
  // Rank r is drawn with weight ~ 1/r: a few words are everywhere, most are rare.
  const pick = (): string => vocab[Math.min(VOCABULARY - 1, Math.floor(Math.exp(random() * Math.log(VOCABULARY))) - 1)]!;
  const channelIds: string[] = [];
  const at0 = 1_700_000_000_000;
  for (let c = 0; c < CHANNELS; c++) {
    const id = ulid(at0);
    channelIds.push(id);
    await store.commit({ channels: [{ channel: { version: 1, id, name: `channel-${c}`, kind: "channel", createdAt: at0, updatedAt: at0 } }] });
  }
  const start = performance.now();
  for (let s = 0; s < COUNT; s += BATCH) {
    const messages: MessageRecord[] = [];
    for (let i = s; i < Math.min(COUNT, s + BATCH); i++) {
      const at = at0 + i * 1000;
      const words = Array.from({ length: 40 }, pick);
      if (i % 100 === 7) words.push("deployment"); // the query: about 1% of messages
      if (i % 5_000 === 11) words.push("kubernetes"); // a rare word
      const author: MessageRecord["author"] = i % 2 === 0 ? { kind: "user" } : { kind: "agent", agentName: "claude" };
      messages.push({ version: 1, id: ulid(at), channelId: channelIds[i % CHANNELS]!, author, parts: [{ type: "text", text: words.join(" ") + "." }], createdAt: at });
    }
    await store.commit({ messages });
  }
  return { ms: performance.now() - start, query: "deployment", rare: "kubernetes" };
}

/** Runs the benchmark in a temp store; see the file comment. */
export async function searchFigures(): Promise<Record<string, number | string>> {
  const { dir, cleanup } = tempDir("sidekicks-bench-search-");
  const store = await Store.open(dir);
  try {
    const { ms: fillMs, query, rare } = await fill(store);
    const search = new HistorySearch(new StoreWriter(store));
    const time = async (run: () => Promise<unknown>): Promise<number> => {
      const t = performance.now();
      await run();
      return performance.now() - t;
    };
    const first = await search.search(query);
    const scanned = await store.scanSearch({ text: query });
    if (first.hits.length !== 50 || JSON.stringify(first.hits.map((h) => h.messageId)) !== JSON.stringify(scanned.hits.map((h) => h.messageId))) {
      throw new Error("search bench: the index and the full scan disagree");
    }
    await time(() => store.scanSearch({ text: query })); // warm-up
    const indexed: number[] = [];
    const scan: number[] = [];
    const rareMs: number[] = [];
    const twoWords: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      indexed.push(await time(() => search.search(query)));
      rareMs.push(await time(() => search.search(rare)));
      twoWords.push(await time(() => search.search(`${query} ${wordOf(3)}`)));
      if (i < 5) scan.push(await time(() => store.scanSearch({ text: query })));
    }
    return {
      "search.100kMs": round2(median(indexed)),
      "search.100kScanMs": Math.round(median(scan)),
      "search.100kRareMs": round2(median(rareMs)),
      "search.100kTwoWordsMs": round2(median(twoWords)),
      "search.fill100kMs": Math.round(fillMs),
      "search.target": "≤ 100",
    };
  } finally {
    await store.close();
    cleanup();
  }
}

if (require.main === module) {
  void searchFigures().then((f) => console.log(JSON.stringify(f, null, 2)));
}
