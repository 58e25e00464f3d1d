/**
 * The channel-name rule, in one place for the host (`ChannelDirectory`, the palette commands) and the webview (names
 * checked as they are typed). Imports only `@vscode/l10n`, so the webview bundle may import it.
 */
import * as l10n from "@vscode/l10n";

/** A channel name: lowercase letters, digits, `-` and `_`, starting with a letter or digit, at most 80 characters. */
export const CHANNEL_NAME = /^[a-z0-9][a-z0-9_-]{0,79}$/;

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
 * Used by the webview's create and rename fields and by the palette's `Sidekicks: New channel` / `Rename channel…`
 * input boxes (`validateInput`), so both refuse the same names with the same sentence.
 *
 * Names are unique in the host's store; the host only stores lowercase names, so an existing channel is found
 * whatever the case typed (`Docs` → "#docs already exists").
 */
export function channelNameProblem(input: string, channels: readonly { id: string; name: string; kind: string }[], renaming?: string): string | undefined {
  const name = normaliseChannelName(input);
  if (name === "") return undefined;
  const taken = channels.find((c) => c.kind === "channel" && c.id !== renaming && c.name.toLowerCase() === name.toLowerCase());
  if (taken) return l10n.t("{0} already exists.", `#${taken.name}`);
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
  const why = /\s/.test(bad)
    ? at === 0
      ? l10n.t("A channel name cannot start with a space: use lowercase letters, digits, - and _, starting with a letter or a digit.")
      : l10n.t("A space is not allowed in a channel name: use lowercase letters, digits, - and _.")
    : at === 0
      ? l10n.t('A channel name cannot start with "{0}": use lowercase letters, digits, - and _, starting with a letter or a digit.', bad)
      : l10n.t('"{0}" is not allowed in a channel name: use lowercase letters, digits, - and _.', bad);
  // A name to type instead ("Review Work!" → #review-work), when there is one and it is free: the user chooses it.
  const suggestion = suggestedChannelName(name);
  const free = suggestion !== undefined && !channels.some((c) => c.kind === "channel" && c.id !== renaming && c.name === suggestion);
  return free ? `${why} ${l10n.t("Try #{0}.", suggestion)}` : why;
}

/**
 * A valid channel name made from `name` (lowercase; spaces, dots and slashes as `-`; other characters dropped; no `-`
 * or `_` at the start, none doubled), or undefined when nothing of it is left.
 */
export function suggestedChannelName(name: string): string | undefined {
  const made = name
    .toLowerCase()
    .replace(/[\s./\\]+/g, "-")
    .replace(/[^a-z0-9_-]/g, "")
    .replace(/-{2,}/g, "-")
    .replace(/^[-_]+|[-_]+$/g, "")
    .slice(0, CHANNEL_NAME_MAX);
  return CHANNEL_NAME.test(made) ? made : undefined;
}

/**
 * The palette's input boxes (`Sidekicks: New channel`, `Rename channel…`) as their `validateInput`: the rule and the
 * sentence of {@link channelNameProblem} (so "#docs already exists." keeps the box open for a correction), and an
 * empty name refused too, as an input box has nothing else to stop it being sent.
 */
export function channelNameInputProblem(input: string, channels: readonly { id: string; name: string; kind: string }[], renaming?: string): string | undefined {
  if (normaliseChannelName(input) === "") return l10n.t("Type a name: lowercase letters, digits, - and _.");
  return channelNameProblem(input, channels, renaming);
}
