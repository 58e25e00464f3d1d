/** Mocha entry of the Workspace Trust suite: code-server with trust on and the test folder never trusted. */
import { runMocha } from "./runMocha";

export function run(): Promise<void> {
  return runMocha(async () => {
    await import("./trust.test.js");
  });
}
