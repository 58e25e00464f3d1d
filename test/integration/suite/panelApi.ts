/** The part of the extension's test API (src/extension.ts) the panel suite uses. */
import type { HostRequests } from "../../../src/shared/protocol";

export interface PanelTestApi {
  webview<M extends keyof HostRequests>(method: M, params: HostRequests[M][0]): Promise<HostRequests[M][1]>;
  panel<M extends keyof HostRequests>(channel: string, method: M, params: HostRequests[M][0]): Promise<HostRequests[M][1]>;
  panels(): { title: string; channel: string; active: boolean }[];
  renameChannel(name: string, newName: string): Promise<void>;
}

/** The last message of a channel's history. */
export const LAST = ".history > .message:nth-last-child(1)";
