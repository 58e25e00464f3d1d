/**
 * The channel view's HTML and its Content-Security-Policy, as pure functions: no `vscode` import, so the webview
 * tests (`test/webview/harness.mjs`) serve the very page the extension writes. `webviewHtml.ts` supplies the nonce
 * and the webview URIs.
 */

/** What the page needs from the host: the webview's `cspSource`, a per-load nonce and the bundle's URIs. */
export interface WebviewPage {
  cspSource: string;
  nonce: string;
  styleUri: string;
  scriptUri: string;
  /**
   * The channel to open first (by name), for a webview pinned to one channel (an editor tab): written as the root's
   * `data-channel`, read by webview/main.tsx. Absent: the channel the webview showed last, else `#general`.
   */
  channel?: string;
}

/** Escapes text for a double-quoted HTML attribute. */
function attribute(text: string): string {
  return text.replace(/[&"<>]/g, (c) => ({ "&": "&amp;", '"': "&quot;", "<": "&lt;", ">": "&gt;" })[c]!);
}

/**
 * The policy: nothing by default; styles and fonts from the extension (`cspSource`) or carrying the nonce; scripts
 * only with the nonce; images from the extension, `data:` and `https:`.
 */
export function webviewCsp(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `style-src ${cspSource} 'nonce-${nonce}'`,
    `script-src 'nonce-${nonce}'`,
    `img-src ${cspSource} data: https:`,
    `font-src ${cspSource}`,
  ].join("; ");
}

/**
 * The whole document: the CSP, the nonce'd stylesheet and module script, and `<div id="root">` (with `data-channel`
 * when pinned to a channel). Nothing inline.
 */
export function webviewDocument({ cspSource, nonce, styleUri, scriptUri, channel }: WebviewPage): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${webviewCsp(cspSource, nonce)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" nonce="${nonce}" href="${styleUri}">
<title>Sidekicks</title>
</head>
<body>
<div id="root"${channel === undefined ? "" : ` data-channel="${attribute(channel)}"`}></div>
<script type="module" nonce="${nonce}" src="${scriptUri}"></script>
</body>
</html>`;
}
