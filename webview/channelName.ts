/**
 * Channel names as the host checks them, so the create and rename fields refuse a name as it is typed, before the
 * host is asked. Pure, for both fields.
 *
 * The rule itself is the host's: `CHANNEL_NAME` from `src/channels/channelName.ts` (a module that imports nothing).
 */
import * as l10n from "@vscode/l10n";
import { CHANNEL_NAME } from "../src/channels/channelName";
import type { ChannelSummary } from "../src/protocol";
import { channelLabel } from "./channelLabel";

export { CHANNEL_NAME };

/** The longest name {@link CHANNEL_NAME} accepts. */
export const CHANNEL_NAME_MAX = 80;

/** What the host makes of what the user typed: trimmed, one leading `#` dropped (`ChannelDirectory.checkNewName`). */
export function normaliseChannelName(input: string): string {
  const trimmed = input.trim();
  return trimmed.startsWith("#") ? trimmed.slice(1) : trimmed;
}

/**
 * Why `input` cannot be the name of a new channel, or of `renaming` (the id of the channel being renamed: its own
 * name is no conflict), or `undefined` when it can. An empty name is not a problem yet: there is nothing to send.
 *
 * Names are unique in the host's store; the host only stores lowercase names, so an existing channel is found
 * whatever the case typed (`Docs` → "#docs already exists").
 */
export function channelNameProblem(input: string, channels: readonly Pick<ChannelSummary, "id" | "name" | "kind">[], renaming?: string): string | undefined {
  const name = normaliseChannelName(input);
  if (name === "") return undefined;
  const taken = channels.find((c) => c.kind === "channel" && c.id !== renaming && c.name.toLowerCase() === name.toLowerCase());
  if (taken) return l10n.t("{0} already exists.", channelLabel(taken.name));
  if (CHANNEL_NAME.test(name)) return undefined;
  if (name.length > CHANNEL_NAME_MAX) return l10n.t("A channel name has at most {0} characters (this one has {1}).", CHANNEL_NAME_MAX, name.length);
  const lower = name.toLowerCase();
  if (lower !== name && CHANNEL_NAME.test(lower)) return l10n.t("Channel names are lowercase: try #{0}.", lower);
  // The rule holds for every prefix of a valid name: the first prefix it refuses ends at the offending character
  // (looked for in the lowercase name, so "Bad name" is about the space, not the capital).
  const chars = [...lower];
  let at = 0;
  while (at < chars.length && CHANNEL_NAME.test(chars.slice(0, at + 1).join(""))) at++;
  const typed = [...name];
  const bad = (typed.length === chars.length ? typed[at] : chars[at]) ?? "";
  if (/\s/.test(bad)) {
    if (at === 0) return l10n.t("A channel name cannot start with a space: use lowercase letters, digits, - and _, starting with a letter or a digit.");
    return l10n.t("A space is not allowed in a channel name: use lowercase letters, digits, - and _.");
  }
  if (at === 0) return l10n.t('A channel name cannot start with "{0}": use lowercase letters, digits, - and _, starting with a letter or a digit.', bad);
  return l10n.t('"{0}" is not allowed in a channel name: use lowercase letters, digits, - and _.', bad);
}
