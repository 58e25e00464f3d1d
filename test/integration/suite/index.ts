/**
 * Mocha entry of the integration suite, run inside the real extension host (code-server or VS Code via
 * `@vscode/test-electron`). esbuild bundles this file and the tests into out/integration/index.js, so the test modules
 * are imported here, after mocha's `pre-require` has put `describe`/`it` on the global object, instead of globbed.
 *
 * Prints each test (spec reporter) and then `SIDEKICKS_RESULT {"passed":N,"failed":M}` for the harness; rejects
 * when a test failed so the host exits non-zero.
 */
import Mocha from "mocha";

export async function run(): Promise<void> {
  const mocha = new Mocha({ ui: "bdd", timeout: 60_000, color: false, reporter: "spec" });
  mocha.suite.emit("pre-require", globalThis, "bundle", mocha);
  // A picture of the editor whenever a test fails (test-results/failed-<title>.png, taken by the harness).
  mocha.suite.afterEach(async function () {
    const test = this.currentTest;
    if (test?.state !== "failed") return;
    const name = test.title.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 80);
    console.log(`SIDEKICKS_SCREENSHOT failed-${name}`);
    await new Promise((resolve) => setTimeout(resolve, 2000));
  });
  await import("./skeleton.test.js");
  await import("./agents.test.js");
  await import("./config.test.js");

  const { passed, failed } = await new Promise<{ passed: number; failed: number }>((resolve) => {
    const runner = mocha.run(() => resolve({ passed: runner.stats?.passes ?? 0, failed: runner.stats?.failures ?? 0 }));
  });
  console.log(`SIDEKICKS_RESULT ${JSON.stringify({ passed, failed })}`);
  if (failed > 0) throw new Error(`${failed} integration test(s) failed`);
}
