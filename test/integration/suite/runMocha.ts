import Mocha from "mocha";
import { screenshot } from "./harness";

/**
 * Runs the test modules `load` imports under mocha (bdd, 60 s per test), inside the extension host. The modules are
 * imported after mocha's `pre-require` has put `describe`/`it` on the global object: esbuild bundles them into one
 * file, so they are imported, not globbed. Prints `SIDEKICKS_RESULT {"passed":N,"failed":M}` for the harness and a
 * picture test-results/failed-<title>.png for each failing test (asked of the harness, waited for); rejects when a test failed. `earlier` adds the
 * counts of a phase that ran in an extension host before a window reload (test/integration/suite/reloadIndex.ts).
 * `SIDEKICKS_IT_GREP` (a developer's run, never CI's) runs only the tests whose full title matches it.
 */
export async function runMocha(load: () => Promise<unknown>, earlier = { passed: 0, failed: 0 }): Promise<void> {
  const grep = process.env.SIDEKICKS_IT_GREP;
  const mocha = new Mocha({ ui: "bdd", timeout: 60_000, color: false, reporter: "spec", ...(grep ? { grep } : {}) });
  mocha.suite.emit("pre-require", globalThis, "bundle", mocha);
  mocha.suite.afterEach(async function () {
    const test = this.currentTest;
    if (test?.state !== "failed") return;
    const name = test.title.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 80);
    // Taken before the next test changes the view; a failed picture must not hide the test's own failure.
    await screenshot(`failed-${name}`).catch((error: unknown) => console.log(`no picture of the failed test: ${String(error)}`));
  });
  await load();
  const { passed, failed } = await new Promise<{ passed: number; failed: number }>((resolve) => {
    const runner = mocha.run(() =>
      resolve({ passed: earlier.passed + (runner.stats?.passes ?? 0), failed: earlier.failed + (runner.stats?.failures ?? 0) }),
    );
  });
  console.log(`SIDEKICKS_RESULT ${JSON.stringify({ passed, failed })}`);
  if (failed > 0) throw new Error(`${failed} integration test(s) failed`);
}
