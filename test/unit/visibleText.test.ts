/** The one rule for characters shown as `[U+…]` markers (src/shared/visibleText.ts), shared by the view and the export. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { showBidiControls, showControls } from "../../src/shared/visibleText";
import { showBidiControls as viewBidi } from "../../webview/ansi";

test("showBidiControls marks the bidi embeddings, overrides and isolates only; the view uses the same function", () => {
  assert.equal(showBidiControls("a\u202Ab\u202Ec\u2066d\u2069e\u0000"), "a[U+202A]b[U+202E]c[U+2066]d[U+2069]e\u0000");
  assert.equal(viewBidi, showBidiControls);
});

test("showControls marks C0/C1 controls and bidi controls; keeps tab, LF and CRLF; leaves other text as it is", () => {
  assert.equal(showControls("\u0000\u0001\u0008\t\n\u000b\u000c\r\n\r\u000e\u001b\u001f \u007f\u0080\u009f\u00a0é\u202E"), "[U+0000][U+0001][U+0008]\t\n[U+000B][U+000C]\r\n[U+000D][U+000E][U+001B][U+001F] [U+007F][U+0080][U+009F]\u00a0é[U+202E]");
  assert.equal(showControls("plain text\n"), "plain text\n");
});
