/**
 * The channel-name rule, in one place for the host (`ChannelDirectory`, the palette commands) and the webview (names
 * checked as they are typed). Imports nothing, so the webview bundle may import it.
 */

/** A channel name: lowercase letters, digits, `-` and `_`, starting with a letter or digit, at most 80 characters. */
export const CHANNEL_NAME = /^[a-z0-9][a-z0-9_-]{0,79}$/;
