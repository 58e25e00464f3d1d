/**
 * Mocha entry of the `.vsix` suite (`runCodeServer.mjs --suite vsix`, issue 8): Sidekicks as a user gets it, the
 * linux-x64 package installed with code-server's `--install-extension` into a fresh extensions folder. The
 * development extension of this window is a tiny driver folder (test/integration/vsix-driver, no code), because
 * code-server runs `extensionTestsPath` only in an extension development window; Sidekicks itself is loaded from its
 * installed folder, in production mode, so it exports no test API and the suite drives it through the webview (see
 * vsixBridge.ts), commands, the terminal list and the files it writes.
 * Two phases, like the reload suite: phase 1 (vsixBefore.test.ts) ends with a real window reload; the new extension
 * host runs this entry again, finds the marker and runs phase 2 (vsixAfter.test.ts), which reports the result.
 */
import { readVsixMarker } from "./vsixBridge";
import { runMocha } from "./runMocha";

export function run(): Promise<void> {
  const marker = readVsixMarker();
  if (!marker) {
    console.log(".vsix suite: phase 1 (installed package, before the reload)");
    return runMocha(async () => {
      await import("./vsixBefore.test.js");
    });
  }
  console.log(".vsix suite: phase 2 (after the reload)");
  return runMocha(
    async () => {
      await import("./vsixAfter.test.js");
    },
    { passed: marker.passedBefore, failed: marker.failedBefore },
  );
}
