import { randomBytes } from "node:crypto";
import * as vscode from "vscode";
import { webviewDocument } from "../shared/webviewDocument";

/**
 * The webview's HTML: a strict CSP (`default-src 'none'`) with a per-load nonce from `crypto.randomBytes`, the
 * bundled stylesheet and script from `dist/`, nothing inline (vscode-extension-samples' webview-view-sample), and
 * the editor's language and l10n bundle for the webview's `@vscode/l10n`. The page itself is `webviewDocument`
 * (pure, shared with the webview tests). `channel` pins the page to a channel (an editor tab,
 * src/vscode/ChannelPanels.ts): the one it opens first.
 */
export function webviewHtml(webview: vscode.Webview, extensionUri: vscode.Uri, channel?: string): string {
  const nonce = randomBytes(16).toString("base64");
  const asset = (name: string) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, "dist", name)).toString();
  return webviewDocument({
    cspSource: webview.cspSource,
    nonce,
    styleUri: asset("webview.css"),
    scriptUri: asset("webview.js"),
    language: vscode.env.language,
    l10n: vscode.l10n.bundle,
    channel,
  });
}
