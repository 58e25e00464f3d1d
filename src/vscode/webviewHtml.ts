import { randomBytes } from "node:crypto";
import * as vscode from "vscode";

/**
 * The webview's HTML: a strict CSP (`default-src 'none'`) with a per-load nonce from `crypto.randomBytes`, the
 * bundled stylesheet and script from `dist/`, nothing inline (vscode-extension-samples' webview-view-sample).
 */
export function webviewHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  const nonce = randomBytes(16).toString("base64");
  const asset = (name: string) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, "dist", name)).toString();
  const csp = [
    "default-src 'none'",
    `style-src ${webview.cspSource} 'nonce-${nonce}'`,
    `script-src 'nonce-${nonce}'`,
    `img-src ${webview.cspSource} data: https:`,
    `font-src ${webview.cspSource}`,
  ].join("; ");
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" nonce="${nonce}" href="${asset("webview.css")}">
<title>Sidekicks</title>
</head>
<body>
<div id="root"></div>
<script type="module" nonce="${nonce}" src="${asset("webview.js")}"></script>
</body>
</html>`;
}
