/**
 * Where `Sidekicks: Go to next permission request` shows a waiting request: in an editor tab that shows the request's
 * channel when there is one, else in the side view. Pure (no `vscode` import), so the decision is unit-tested.
 */

/** An editor tab as the decision sees it (`ChannelPanels`' open tabs). */
export interface ChannelTab {
  /** The channel the tab shows, by name. */
  channel: string;
  /** Its id, once the tab's webview opened it (absent just after a reload restored the tab). */
  channelId?: string;
  /** `WebviewPanel.active`: the focused editor tab. */
  active: boolean;
  /** `WebviewPanel.visible`: shown in its editor group. */
  visible: boolean;
}

/**
 * The tab to reveal for a request waiting in channel `channelId` (named `channelName`, if known): among the tabs
 * showing that channel (by id; by name for a tab whose id is not known yet), the active one, else a visible one, else
 * the first. Undefined when no tab shows it: the side view shows the request.
 */
export function permissionTab<T extends ChannelTab>(tabs: Iterable<T>, channelId: string, channelName: string | undefined): T | undefined {
  const showing = [...tabs].filter((t) => (t.channelId !== undefined ? t.channelId === channelId : channelName !== undefined && t.channel === channelName));
  return showing.find((t) => t.active) ?? showing.find((t) => t.visible) ?? showing[0];
}
