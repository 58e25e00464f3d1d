import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { SidekicksError } from "../../src/shared/errors";
import {
  containerAgentLaunch,
  ContainerPaths,
  containerPlanner,
  dockerExec,
  dockerInspect,
  mountsFromInspect,
  workspaceRuntime,
} from "../../src/workspace/container";
import { TerminalManager } from "../../src/workspace/terminals";
import { tempDir } from "./helpers";
import { dockerTestImage, runTestContainer } from "./realDocker";

const code = (c: string) => (e: unknown) => e instanceof SidekicksError && e.code === c;

describe("container runtime: which runtime", () => {
  it("local by default and for type local", () => {
    assert.deepEqual(workspaceRuntime("a", undefined), { kind: "local" });
    assert.deepEqual(workspaceRuntime("a", { type: "local" }), { kind: "local" });
  });
  it("container keeps its keys", () => {
    assert.deepEqual(workspaceRuntime("a", { type: "container", container: "devbox", user: "node", workdir: "/workspace" }), {
      kind: "container",
      container: "devbox",
      user: "node",
      workdir: "/workspace",
    });
  });
  it("sbx is refused as not supported", () => {
    assert.throws(
      () => workspaceRuntime("claude", { type: "sbx" }),
      (e: unknown) => code("agent/unsupported")(e) && /Agent "claude" uses runtime "sbx", which is not supported/.test((e as Error).message),
    );
  });
});

describe("container runtime: docker exec command line", () => {
  it("builds exec -i with user, workdir, env names and the command as separate arguments", () => {
    const c = dockerExec(
      { container: "devbox", user: "1000:1000", workdir: "/work space", env: { API_KEY: "s3cret value", EMPTY: "" } },
      "npx",
      ["-y", "@agentclientprotocol/claude-agent-acp", "a path/with spaces", "--flag=$HOME;rm -rf /"],
    );
    assert.equal(c.command, "docker");
    assert.deepEqual(c.args, [
      "exec", "-i",
      "--user=1000:1000",
      "--workdir=/work space",
      "--env=API_KEY",
      "--env=EMPTY",
      "devbox",
      "npx", "-y", "@agentclientprotocol/claude-agent-acp", "a path/with spaces", "--flag=$HOME;rm -rf /",
    ]);
    assert.deepEqual(c.env, { API_KEY: "s3cret value", EMPTY: "" });
    assert.ok(!c.args.some((a) => a.includes("s3cret")), "secret values stay off the command line");
  });

  it("leaves out what is not set; -t for terminals; another docker CLI", () => {
    assert.deepEqual(dockerExec({ container: "abc123" }, "sh").args, ["exec", "-i", "abc123", "sh"]);
    const c = dockerExec({ container: "abc123", tty: true, docker: "/usr/local/bin/podman" }, "ls", ["-la"]);
    assert.equal(c.command, "/usr/local/bin/podman");
    assert.deepEqual(c.args, ["exec", "-i", "-t", "abc123", "ls", "-la"]);
  });

  it("passes variables the docker client reads itself by value", () => {
    const c = dockerExec({ container: "devbox", env: { PATH: "/opt/bin:/usr/bin", HOME: "/home/node", DOCKER_HOST: "x", TOKEN: "t" } }, "env");
    assert.deepEqual(c.args, ["exec", "-i", "--env=PATH=/opt/bin:/usr/bin", "--env=HOME=/home/node", "--env=DOCKER_HOST=x", "--env=TOKEN", "devbox", "env"]);
    assert.deepEqual(c.env, { TOKEN: "t" });
  });

  it("refuses a container name that would read as an option, a relative workdir, a bad env name", () => {
    assert.throws(() => dockerExec({ container: "--privileged" }, "sh"), code("agent/spawn"));
    assert.throws(() => dockerExec({ container: "" }, "sh"), code("agent/spawn"));
    assert.throws(() => dockerExec({ container: "devbox", workdir: "workspace" }, "sh"), code("agent/spawn"));
    assert.throws(() => dockerExec({ container: "devbox", env: { "A=B": "x" } }, "sh"), code("agent/spawn"));
    assert.throws(() => dockerInspect("-f"), code("agent/spawn"));
    assert.deepEqual(dockerInspect("devbox").args, ["inspect", "--type", "container", "devbox"]);
  });

  it("launches the agent through docker exec with only the roster's env going into the container", () => {
    const launch = containerAgentLaunch(
      { container: "devbox", user: "node", workdir: "/workspace" },
      { command: "codex-acp", args: ["--x"], env: { OPENAI_API_KEY: "k" } },
      { PATH: "/usr/bin", EDITOR_ONLY: "e", UNSET: undefined },
      "/home/me/project",
    );
    assert.deepEqual(launch, {
      command: "docker",
      args: ["exec", "-i", "--user=node", "--workdir=/workspace", "--env=OPENAI_API_KEY", "devbox", "codex-acp", "--x"],
      env: { PATH: "/usr/bin", EDITOR_ONLY: "e", OPENAI_API_KEY: "k" },
      cwd: "/home/me/project",
    });
  });

  it("plans terminals as docker exec -i -t, cwd as --workdir", async () => {
    const paths = new ContainerPaths([{ host: "/home/me/project", container: "/workspace" }]);
    const plan = containerPlanner({ container: "devbox", user: "node", workdir: "/workspace" }, { cwd: "/home/me/project", env: { PATH: "/usr/bin" }, paths });
    assert.deepEqual(await plan({ command: "npm", args: ["test"], cwd: "/workspace/pkg a", env: { CI: "1" } }), {
      file: "docker",
      args: ["exec", "-i", "-t", "--user=node", "--workdir=/workspace/pkg a", "--env=CI=1", "devbox", "npm", "test"],
      cwd: "/home/me/project",
      env: { PATH: "/usr/bin" },
    });
    const byDefault = await plan({ command: "ls", args: [], cwd: undefined, env: {} });
    assert.deepEqual(byDefault.args, ["exec", "-i", "-t", "--user=node", "--workdir=/workspace", "devbox", "ls"]);
    assert.throws(() => plan({ command: "ls", args: [], cwd: "/etc", env: {} }), code("workspace/outside"));
    assert.throws(() => plan({ command: "ls", args: [], cwd: "pkg", env: {} }), code("workspace/outside"));
  });
});

describe("container runtime: path mapping", () => {
  const paths = new ContainerPaths(
    [
      { host: "/home/me/project/", container: "/workspace/" },
      { host: "/home/me/cache", container: "/workspace/.cache" },
      { host: "/srv/données partagées", container: "/data" },
    ],
    path.posix,
  );
  const toHost: [string, string | undefined][] = [
    ["/workspace", "/home/me/project"],
    ["/workspace/", "/home/me/project"],
    ["/workspace/src/main.ts", "/home/me/project/src/main.ts"],
    ["/workspace/a dir/b file.txt", "/home/me/project/a dir/b file.txt"],
    ["/workspace/src/../README.md", "/home/me/project/README.md"],
    ["/workspace/.cache/x", "/home/me/cache/x"], // the longest mount wins
    ["/data/文件.txt", "/srv/données partagées/文件.txt"],
    ["/workspace/../etc/passwd", undefined],
    ["/workspace-other/x", undefined],
    ["/etc/passwd", undefined],
    ["/", undefined],
    ["workspace/src", undefined],
    ["", undefined],
  ];
  for (const [c, h] of toHost) {
    it(`container ${JSON.stringify(c)} → ${h ?? "refused"}`, () => {
      assert.equal(paths.tryToHost(c), h);
      if (h === undefined) assert.throws(() => paths.toHost(c), (e: unknown) => code("workspace/outside")(e) && /not inside a folder mounted/.test((e as Error).message));
      else assert.equal(paths.toHost(c), h);
    });
  }
  const toContainer: [string, string | undefined][] = [
    ["/home/me/project", "/workspace"],
    ["/home/me/project/src/main.ts", "/workspace/src/main.ts"],
    ["/home/me/cache/x", "/workspace/.cache/x"],
    ["/srv/données partagées/a b", "/data/a b"],
    ["/home/me/project/../secret", undefined],
    ["/home/me/projects/x", undefined],
    ["relative/x", undefined],
  ];
  for (const [h, c] of toContainer) {
    it(`host ${JSON.stringify(h)} → ${c ?? "refused"}`, () => {
      assert.equal(paths.tryToContainer(h), c);
      if (c === undefined) assert.throws(() => paths.toContainer(h), code("workspace/outside"));
      else assert.equal(paths.toContainer(h), c);
    });
  }
  it("round-trips", () => {
    for (const p of ["/workspace/src/a.ts", "/workspace/.cache/z", "/data/x y"]) assert.equal(paths.toContainer(paths.toHost(p)), p);
  });
  it("maps Windows host folders", () => {
    const win = new ContainerPaths([{ host: "C:\\Users\\me\\project", container: "/workspace" }], path.win32);
    assert.equal(win.toHost("/workspace/src/a.ts"), "C:\\Users\\me\\project\\src\\a.ts");
    assert.equal(win.toContainer("C:\\Users\\me\\project\\src\\a.ts"), "/workspace/src/a.ts");
  });
  it("refuses relative mounts", () => {
    assert.throws(() => new ContainerPaths([{ host: "project", container: "/workspace" }]), /not absolute/);
    assert.throws(() => new ContainerPaths([{ host: "/p", container: "workspace" }]), /not absolute/);
  });
  it("reads bind mounts from docker inspect", () => {
    const inspect = JSON.stringify([
      {
        Id: "abc",
        Mounts: [
          { Type: "bind", Source: "/home/me/project", Destination: "/workspace", RW: true },
          { Type: "volume", Name: "cache", Source: "/var/lib/docker/volumes/cache/_data", Destination: "/cache" },
          { Type: "tmpfs", Destination: "/tmp" },
        ],
      },
    ]);
    assert.deepEqual(mountsFromInspect(inspect), [{ host: "/home/me/project", container: "/workspace" }]);
    assert.deepEqual(mountsFromInspect([{}]), []);
  });
});

describe("container runtime: terminals through a stand-in docker CLI", () => {
  it("runs the planned command line on node-pty, arguments and env intact", async () => {
    const t = tempDir("sidekicks-fakedocker-");
    try {
      const dir = realpathSync(t.dir);
      const fake = path.join(dir, "fake docker");
      // The client's own environment: the agent's TOKEN must not be in it (it goes into the container as an argument).
      writeFileSync(fake, `#!/bin/sh\nfor a in "$@"; do printf '[%s]\\n' "$a"; done\nprintf 'TOKEN=%s\\n' "$TOKEN"\n`);
      chmodSync(fake, 0o755);
      const manager = new TerminalManager({ cwd: dir, planner: containerPlanner({ container: "devbox", workdir: "/workspace" }, { cwd: dir, docker: fake }) });
      const term = await manager.create({ command: "node", args: ["a b.js", "é"], cwd: "/workspace/sub dir", env: [{ name: "TOKEN", value: "t o k" }] });
      assert.deepEqual(await term.waitForExit(), { exitCode: 0, signal: null });
      assert.equal(
        term.output().output,
        ["exec", "-i", "-t", "--workdir=/workspace/sub dir", "--env=TOKEN=t o k", "devbox", "node", "a b.js", "é"].map((a) => `[${a}]\r\n`).join("") + "TOKEN=\r\n",
      );
      await manager.releaseAll();
    } finally {
      t.cleanup();
    }
  });
});

describe("container runtime: an agent's terminal env never reaches the host's docker client (issue 17)", () => {
  it("LD_PRELOAD, DOCKER_HOST and DOCKER_CONFIG from terminal/create go into the container only; dashes stay values", async () => {
    const t = tempDir("sidekicks-fakedocker-");
    try {
      const dir = realpathSync(t.dir);
      const fake = path.join(dir, "docker");
      // A dynamically linked stand-in (/bin/sh): an LD_PRELOAD in its environment makes its loader complain (or run code).
      writeFileSync(fake, `#!/bin/sh\nfor a in "$@"; do printf '[%s]\\n' "$a"; done\nprintf 'client: LD_PRELOAD=%s DOCKER_HOST=%s DOCKER_CONFIG=%s\\n' "$LD_PRELOAD" "$DOCKER_HOST" "$DOCKER_CONFIG"\n`);
      chmodSync(fake, 0o755);
      const planner = containerPlanner({ container: "devbox", workdir: "/workspace" }, { cwd: dir, docker: fake, env: { PATH: process.env.PATH } });
      const manager = new TerminalManager({ cwd: dir, planner });
      const hostile = [
        { name: "LD_PRELOAD", value: path.join(dir, "evil.so") },
        { name: "DOCKER_HOST", value: "tcp://attacker.invalid:2375" },
        { name: "DOCKER_CONFIG", value: dir },
        { name: "OPT", value: "--privileged" },
      ];
      const term = await manager.create({ command: "sh", args: ["-c", "true"], cwd: "/workspace", env: hostile });
      assert.deepEqual(await term.waitForExit(), { exitCode: 0, signal: null });
      const shown = term.output().output;
      assert.doesNotMatch(shown, /ld\.so|cannot be preloaded/, "the client's loader never saw the agent's LD_PRELOAD");
      assert.match(shown, /client: LD_PRELOAD= DOCKER_HOST= DOCKER_CONFIG=\r\n/, "none of the agent's variables is in the client's environment");
      for (const v of hostile) assert.ok(shown.includes(`[--env=${v.name}=${v.value}]`), `${v.name} goes into the container as one --env=NAME=value argument`);
      await manager.releaseAll();
    } finally {
      t.cleanup();
    }
  });

  it("a name, user or command starting with - is refused, never read as an option", async () => {
    const plan = containerPlanner({ container: "devbox", workdir: "/workspace" }, { cwd: "/tmp" });
    await assert.rejects(async () => plan({ command: "--privileged", args: [], cwd: undefined, env: {} }), code("agent/spawn"));
    await assert.rejects(async () => plan({ command: "ls", args: [], cwd: undefined, env: { "--privileged": "1" } }), code("agent/spawn"));
    assert.throws(() => dockerExec({ container: "devbox", user: "--privileged" }, "sh"), code("agent/spawn"));
    // Arguments after the command are the command's own: docker stops reading options at the container name.
    assert.deepEqual(dockerExec({ container: "devbox" }, "ls", ["--privileged"]).args, ["exec", "-i", "devbox", "ls", "--privileged"]);
  });

  it("the roster's LD_* and GO* names are passed by value too, so they do not change how the client runs", () => {
    const c = dockerExec({ container: "devbox", env: { LD_LIBRARY_PATH: "/opt/lib", GODEBUG: "x=1", API_KEY: "k" } }, "env");
    assert.deepEqual(c.args, ["exec", "-i", "--env=LD_LIBRARY_PATH=/opt/lib", "--env=GODEBUG=x=1", "--env=API_KEY", "devbox", "env"]);
    assert.deepEqual(c.env, { API_KEY: "k" });
  });
});

describe("container runtime: a real container", () => {
  it("runs commands and terminals in a running container, and maps its paths (needs a Docker engine)", async (t) => {
    const { image, why } = dockerTestImage();
    if (why) {
      t.skip(why);
      return;
    }
    const dir = tempDir("sidekicks-container-");
    const host = realpathSync(dir.dir);
    mkdirSync(path.join(host, "sub dir"));
    const user = `${process.getuid?.() ?? 0}:${process.getgid?.() ?? 0}`;
    const { name, remove } = runTestContainer(image, [`${host}:/workspace`]);
    try {
      const inspect = spawnSync(dockerInspect(name).command, dockerInspect(name).args, { encoding: "utf8" });
      const paths = new ContainerPaths(mountsFromInspect(inspect.stdout));
      assert.equal(paths.toHost("/workspace/x"), path.join(host, "x"));

      // One-shot through docker exec -i: user, workdir, env, a write that shows up on the host.
      const exec = dockerExec({ container: name, user, workdir: "/workspace", env: { SIDEKICKS_X: "a b é" } }, "sh", [
        "-c",
        'pwd; echo "$SIDEKICKS_X"; id -u; echo from-container > "/workspace/sub dir/out file.txt"',
      ]);
      const r = spawnSync(exec.command, exec.args, { encoding: "utf8", env: { ...process.env, ...exec.env } });
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stdout, `/workspace\na b é\n${user.split(":")[0]}\n`);
      assert.equal(readFileSync(paths.toHost("/workspace/sub dir/out file.txt"), "utf8"), "from-container\n");

      // The agent launch: stdin and stdout are the ACP pipe.
      const launch = containerAgentLaunch({ container: name, user, workdir: "/workspace" }, { command: "cat", args: [], env: {} }, process.env, host);
      const cat = spawn(launch.command, launch.args, { env: launch.env, cwd: launch.cwd });
      let echoed = "";
      cat.stdout.on("data", (d: Buffer) => (echoed += d.toString()));
      cat.stdin.end('{"jsonrpc":"2.0"}\n');
      await new Promise((resolve) => cat.once("exit", resolve));
      assert.equal(echoed, '{"jsonrpc":"2.0"}\n');

      // A terminal inside the container, cwd with a space, multi-byte output.
      const manager = new TerminalManager({ cwd: host, planner: containerPlanner({ container: name, user, workdir: "/workspace" }, { cwd: host, paths }) });
      const term = await manager.create({ command: "sh", args: ["-c", 'printf "é€ "; pwd; exit 3'], cwd: "/workspace/sub dir" });
      assert.deepEqual(await term.waitForExit(), { exitCode: 3, signal: null });
      // Line ends: "\r\n" from the container's tty; the docker client puts the host pty in raw mode, but be lenient.
      assert.equal(term.output().output.replace(/\r+\n/g, "\n"), "é€ /workspace/sub dir\n");
      await manager.releaseAll();
      assert.ok(existsSync(path.join(host, "sub dir", "out file.txt")));
    } finally {
      remove();
      dir.cleanup();
    }
  });
});
