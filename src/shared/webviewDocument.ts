/**
 * The channel view's HTML and its Content-Security-Policy, as pure functions: no `vscode` import, so the webview
 * tests (`test/webview/harness.mjs`) serve the very page the extension writes. `webviewHtml.ts` supplies the nonce
 * and the webview URIs.
 */

/**
 * What the page needs from the host: the webview's `cspSource`, a per-load nonce, the bundle's URIs, and the
 * editor's language: its code (`vscode.env.language`, e.g. `fr`; default `en`) and its l10n bundle
 * (`vscode.l10n.bundle`: English message → translation; absent for English).
 */
export interface WebviewPage {
  cspSource: string;
  nonce: string;
  styleUri: string;
  scriptUri: string;
  language?: string;
  l10n?: Record<string, string>;
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

/** The id of the JSON data block that carries the l10n bundle to the webview (read by `webview/l10nConfig.ts`). */
export const L10N_ELEMENT_ID = "sidekicks-l10n";

/**
 * The policy: nothing by default; styles and fonts from the extension (`cspSource`) or carrying the nonce; scripts
 * only with the nonce; images from the extension and `data:` only (an answer's network image is a link, never fetched:
 * `webview/markdownDom.ts`).
 */
export function webviewCsp(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `style-src ${cspSource} 'nonce-${nonce}'`,
    `script-src 'nonce-${nonce}'`,
    `img-src ${cspSource} data:`,
    `font-src ${cspSource}`,
  ].join("; ");
}

/**
 * The whole document: the CSP, the nonce'd stylesheet and module script, `<div id="root">` (with `data-channel` when
 * pinned to a channel), and the l10n bundle as a JSON data block (`<script type="application/json">`: never
 * executed, so outside `script-src`; `<` escaped so the text cannot close the element). No inline script or style.
 */
export function webviewDocument({ cspSource, nonce, styleUri, scriptUri, language = "en", l10n, channel }: WebviewPage): string {
  const bundle = l10n ? `\n<script type="application/json" id="${L10N_ELEMENT_ID}">${JSON.stringify(l10n).replace(/</g, "\\u003c")}</script>` : "";
  return `<!DOCTYPE html>
<html lang="${language.replace(/[^A-Za-z0-9-]/g, "")}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${webviewCsp(cspSource, nonce)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" nonce="${nonce}" href="${styleUri}">
<title>Sidekicks</title>
</head>
<body>
<div id="root"${channel === undefined ? "" : ` data-channel="${attribute(channel)}"`}></div>${bundle}
<script type="module" nonce="${nonce}" src="${scriptUri}"></script>
</body>
</html>`;
}
