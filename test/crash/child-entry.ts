/**
 * Entry of the crash child's bundle: runs `main` at once, or — when run.ts builds a V8 startup snapshot of the
 * bundle — when the snapshot starts (everything the modules set up at load time is then in the snapshot).
 */
import { startupSnapshot } from "node:v8";
import { main } from "./child";

const run = () =>
  void main().catch((err) => {
    process.stderr.write(`crash child failed: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(2);
  });

if (startupSnapshot?.isBuildingSnapshot()) startupSnapshot.setDeserializeMainFunction(run);
else run();
