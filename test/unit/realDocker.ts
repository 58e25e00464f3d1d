/**
 * Helpers of the tests that need a real Docker engine and the test image `scripts/container-engine.sh` builds
 * (busybox + this machine's node): whether they can run here, and a running container with bind mounts.
 */
import { spawnSync } from "node:child_process";

/** The image the tests run: `SIDEKICKS_TEST_IMAGE`, default the one `scripts/container-engine.sh` builds. */
export const TEST_IMAGE = process.env.SIDEKICKS_TEST_IMAGE ?? "sidekicks-test:local";

/**
 * Whether the real-container tests can run: `why` is undefined when `docker info` answers and the image is here (an
 * image named by `SIDEKICKS_TEST_IMAGE` may also be pulled by `docker run`), else the reason to skip.
 */
export function dockerTestImage(): { image: string; why?: string } {
  const info = spawnSync("docker", ["info", "--format", "{{.ServerVersion}}"], { encoding: "utf8", timeout: 20_000 });
  if (info.error) return { image: TEST_IMAGE, why: `no Docker engine: docker info could not run (${info.error.message})` };
  if (info.status !== 0) return { image: TEST_IMAGE, why: `no Docker engine: docker info failed: ${(info.stderr || info.stdout).trim().split("\n").pop()}` };
  if (process.env.SIDEKICKS_TEST_IMAGE) return { image: TEST_IMAGE };
  const image = spawnSync("docker", ["image", "inspect", TEST_IMAGE], { encoding: "utf8", timeout: 20_000 });
  if (image.status !== 0) return { image: TEST_IMAGE, why: `the test image ${TEST_IMAGE} is not built (bash scripts/container-engine.sh builds it)` };
  return { image: TEST_IMAGE };
}

/**
 * Starts a container of `image` that sleeps (no network) with `mounts` as bind mounts (`host:container[:ro]`), and
 * returns its name and a `remove` that force-removes it.
 * @throws Error with docker's stderr when `docker run` fails
 */
export function runTestContainer(image: string, mounts: readonly string[]): { name: string; remove: () => void } {
  const name = `sidekicks-test-${process.pid}-${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
  const volumes = mounts.flatMap((m) => ["-v", m]);
  const run = spawnSync("docker", ["run", "-d", "--rm", "--network=none", "--name", name, ...volumes, image, "sleep", "600"], { encoding: "utf8", timeout: 180_000 });
  if (run.status !== 0) throw new Error(`docker run ${image}: ${run.stderr || run.error?.message}`);
  return { name, remove: () => void spawnSync("docker", ["rm", "-f", name], { timeout: 60_000 }) };
}
