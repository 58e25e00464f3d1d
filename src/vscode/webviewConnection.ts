import path from "node:path";
import * as vscode from "vscode";
import { WebviewBridge, type WebviewRequestHandlers } from "../app/WebviewBridge";
import type { SidekicksApp } from "../app/SidekicksApp";
import type { ChannelView, HostEventName, HostEvents } from "../shared/protocol";
import { webviewHtml } from "./webviewHtml";

/** A webview wired to the app by {@link connectWebview}. */
export interface WebviewConnection {
  readonly bridge: WebviewBridge;
  /** Unsubscribes from the app's events and disposes the bridge (call when the webview is disposed). */
  dispose(): void;
}

/** What {@link connectWebview} needs besides the webview. */
export interface ConnectOptions {
  extensionUri: vscode.Uri;
  /** The app once started; rejects with the reason it could not start (the webview shows it). */
  app: Promise<SidekicksApp>;
  log: vscode.LogOutputChannel;
  /** The channel to open first (editor tabs: `data-channel`, webviewDocument.ts). */
  channel?: string;
  /** Called each time the webview says `ready`. */
  onReady?: (bridge: WebviewBridge) => void;
  /** Called with each channel this webview opens (`channel/open`): the side view remembers it, a tab takes its name. */
  onOpened?: (channel: ChannelView) => void;
  /**
   * Maps the name a `channel/open` asks for before it is opened: an editor tab whose webview was hidden while its
   * channel was renamed comes back asking for the old name (its saved state), and must get the renamed channel.
   */
  openName?: (name: string) => string;
  /** Forwards one app event to the webview (default: as is). */
  event?: <E extends HostEventName>(bridge: WebviewBridge, name: E, payload: HostEvents[E]) => void;
}

/**
 * Connects a webview (the side view or an editor tab) to the app: sets its options and page (strict CSP, the bundle
 * from `dist/`) at once, so it shows its loading state while the app starts (activation does not wait for it, issue
 * 8); its requests are answered once the app is ready, and it receives the app's events from then on.
 */
export function connectWebview(webview: vscode.Webview, options: ConnectOptions): WebviewConnection {
  // The roster's image icons (paths relative to sidekicks.yaml) load from the workspace folders; the page is set before
  // the roster is read, so its roots cannot depend on it.
  const workspaceRoots = (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri);
  webview.options = {
    enableScripts: true,
    localResourceRoots: [vscode.Uri.joinPath(options.extensionUri, "dist"), vscode.Uri.joinPath(options.extensionUri, "media"), ...workspaceRoots],
  };
  const iconUri = (file: string): string | undefined =>
    workspaceRoots.some((root) => isInside(root.fsPath, file)) ? webview.asWebviewUri(vscode.Uri.file(file)).toString() : undefined;
  let disposed = false;
  let disconnect = (): void => undefined;
  const handlers = options.app.then((app) => {
    if (!disposed) {
      const forward = options.event ?? ((b, name, payload) => b.event(name, payload));
      disconnect = app.connectWebview((name, payload) => forward(bridge, name, payload), iconUri);
    }
    const own = app.viewHandlers(iconUri);
    const { onOpened } = options;
    if (!onOpened) return own;
    const open = own["channel/open"];
    return {
      ...own,
      "channel/open": async (params: Parameters<typeof open>[0]) => {
        const opened = await open(params.name !== undefined && options.openName ? { ...params, name: options.openName(params.name) } : params);
        onOpened(opened.channel);
        return opened;
      },
    };
  });
  handlers.catch(() => undefined); // each request reports it
  const bridge = new WebviewBridge(
    (message) => void webview.postMessage(message),
    whenReady(handlers),
    () => options.onReady?.(bridge),
    (line) => options.log.warn(line),
  );
  const onMessage = webview.onDidReceiveMessage((message) => bridge.receive(message));
  webview.html = webviewHtml(webview, options.extensionUri, options.channel);
  return {
    bridge,
    dispose() {
      disposed = true;
      disconnect();
      onMessage.dispose();
      bridge.dispose();
    },
  };
}

/** Whether `file` is `folder` or inside it (absolute paths). */
function isInside(folder: string, file: string): boolean {
  const rel = path.relative(folder, file);
  return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel);
}

/**
 * Handlers that wait for the real ones: every method the app answers (own properties only), each awaiting `later`
 * and failing with its rejection (why the app did not start) when it rejects.
 */
function whenReady(later: Promise<WebviewRequestHandlers>): WebviewRequestHandlers {
  const own = (method: string | symbol) => typeof method === "string" && method !== "then";
  return new Proxy({} as WebviewRequestHandlers, {
    has: (_target, method) => own(method),
    get: (_target, method) =>
      own(method)
        ? async (params: unknown) => {
            const handlers = await later;
            if (!Object.hasOwn(handlers, method)) throw new Error(`Unknown request ${String(method)}.`);
            return (handlers[method as keyof WebviewRequestHandlers] as (p: unknown) => Promise<unknown>)(params);
          }
        : undefined,
  });
}
