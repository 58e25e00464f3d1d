/**
 * Channel names as the host checks them, so the create and rename fields refuse a name as it is typed, before the
 * host is asked. Pure, for both fields.
 *
 * The rule and its sentences are the host's: `src/shared/channelName.ts` (the palette's input boxes use the same).
 */
export { CHANNEL_NAME, CHANNEL_NAME_MAX, channelNameProblem, normaliseChannelName } from "../src/shared/channelName";
