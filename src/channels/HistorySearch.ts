import * as l10n from "@vscode/l10n";
import { closestMatch } from "../shared/mentions";
import { IndexBuild } from "../store/indexBuild";
import type { StoreWriter } from "../store/StoreWriter";
import type { SearchHit, SearchQuery } from "../store/search";

/**
 * A search as the user types it: words, and optional filters `in:#channel`, `from:author` (an agent's name, `user`
 * or `system`), `after:YYYY-MM-DD` and `before:YYYY-MM-DD` (dates in UTC; `before` excludes its day).
 */
export interface ParsedSearch {
  text: string;
  channel?: string;
  author?: string;
  since?: number;
  until?: number;
  /** `after:` / `before:` filters whose date did not parse (kept as words, so the user is told why nothing matched). */
  unreadDates?: string[];
}

const FILTER = /^(in|from|after|before):(\S+)$/i;

/** Splits what the user typed into words and filters (a filter whose date does not parse stays a word). */
export function parseSearch(input: string): ParsedSearch {
  const out: ParsedSearch = { text: "" };
  const words: string[] = [];
  for (const token of input.trim().split(/\s+/).filter((t) => t !== "")) {
    const m = FILTER.exec(token);
    const kind = m?.[1]!.toLowerCase();
    const value = m?.[2] ?? "";
    if (kind === "in") out.channel = value.replace(/^#/, "");
    else if (kind === "from") out.author = value.replace(/^@/, "");
    else if ((kind === "after" || kind === "before") && !Number.isNaN(Date.parse(`${value}T00:00:00Z`))) {
      const at = Date.parse(`${value}T00:00:00Z`);
      if (kind === "after") out.since = at;
      else out.until = at;
    } else {
      if (kind === "after" || kind === "before") (out.unreadDates ??= []).push(token);
      words.push(token);
    }
  }
  out.text = words.join(" ");
  return out;
}

/** "No channel named #x — did you mean #y?", else the channels there are (a direct one is written `@name`). */
function noChannel(name: string, names: readonly string[]): string {
  const hash = (n: string) => (n.startsWith("@") ? n : `#${n}`);
  const near = closestMatch(name, names);
  if (near) return l10n.t("No channel named {0} — did you mean {1}?", hash(name), hash(near));
  return l10n.t("No channel named {0}. Channels: {1}.", hash(name), names.map(hash).join(", ") || l10n.t("none yet"));
}

/** A hit with its channel's name, as a result list shows it. */
export interface HistoryHit extends SearchHit {
  channelName: string;
}

/** Messages written per step while the index of an older store is built. */
const BUILD_STEP = 500;

/**
 * History search over every channel (issue 21): words, channel, author and dates, through the store's word index
 * (ADR 0007). For a store upgraded from schema 3, {@link buildIndex} fills the index in the background, a step at a
 * time through the write lane; searches read every message until it is done.
 */
export class HistorySearch {
  private readonly index: IndexBuild;

  /** @param writer the store's one write lane (reads go to `writer.store`) */
  constructor(private readonly writer: StoreWriter) {
    this.index = new IndexBuild(
      async () => (await writer.store.searchIndexState()).complete,
      () =>
        writer.write(
          (store) => store.searchIndexStep(BUILD_STEP),
          (step) => ({ changes: step.messages.length > 0 || step.state.complete ? { searchIndex: step } : {}, result: step.state.complete }),
        ),
    );
  }

  /**
   * Messages matching `input` (see {@link parseSearch}), newest first, at most `limit`. `more` is true when more
   * messages match than were returned. A channel filter that names no channel finds nothing, and `noChannel` says so
   * in a sentence for the user, with the closest channel's name or the list of channels.
   */
  async search(input: string | ParsedSearch, limit = 50): Promise<{ hits: HistoryHit[]; more: boolean; noChannel?: string }> {
    const parsed = typeof input === "string" ? parseSearch(input) : input;
    const store = this.writer.store;
    const channels = await store.channels();
    let channelId: string | undefined;
    if (parsed.channel !== undefined) {
      channelId = channels.find((c) => c.name.toLowerCase() === parsed.channel!.toLowerCase())?.id;
      if (channelId === undefined) return { hits: [], more: false, noChannel: noChannel(parsed.channel, channels.map((c) => c.name)) };
    }
    const query: SearchQuery = { text: parsed.text, channelId, author: parsed.author, since: parsed.since, until: parsed.until, limit };
    const { hits, more } = await store.search(query);
    const names = new Map(channels.map((c) => [c.id, c.name]));
    return { hits: hits.map((h) => ({ ...h, channelName: names.get(h.channelId) ?? h.channelId })), more };
  }

  /**
   * Builds the word index of an older store, {@link BUILD_STEP} messages per write-lane step, yielding to other work
   * between steps; resolves once it is complete (at once for a store whose index is), or once {@link stop} is called.
   */
  buildIndex(): Promise<void> {
    return this.index.build();
  }

  /** Stops building after the current step (the store is closing); a later open goes on from there. */
  stop(): Promise<void> {
    return this.index.stop();
  }
}
