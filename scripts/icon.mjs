// @ts-check
// Renders the marketplace icon media/icon.png (128×128) from the activity bar glyph media/sidekicks.svg with headless
// Chromium (playwright-core, the same browser as the webview tests): the glyph in white on a rounded blue square.
// Usage: node scripts/icon.mjs. Chromium comes from the system (`/usr/bin/chromium`, or `CHROMIUM_PATH`).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const glyph = fs.readFileSync(path.join(root, "media", "sidekicks.svg"), "utf8");
const out = path.join(root, "media", "icon.png");

const html = `<!doctype html><html><body style="margin:0;background:transparent">
<div id="icon" style="width:128px;height:128px;border-radius:26px;background:linear-gradient(135deg,#2f7fd8,#1c4f9c);
  display:flex;align-items:center;justify-content:center;color:#fff">
  <div style="width:92px;height:92px">${glyph.replace("<svg ", '<svg style="width:100%;height:100%" ')}</div>
</div></body></html>`;

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
try {
  const page = await browser.newPage({ viewport: { width: 128, height: 128 }, deviceScaleFactor: 1 });
  await page.setContent(html);
  await page.locator("#icon").screenshot({ path: out, omitBackground: true });
} finally {
  await browser.close();
}
console.log(`icon: ${path.relative(root, out)} ${fs.statSync(out).size} bytes`);
