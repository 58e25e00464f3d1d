import { test } from "node:test";
import assert from "node:assert/strict";
import { resolveConfigLocation } from "../../src/config/location";
import { RECENT_CONFIGS_LIMIT, RecentConfigs, type MementoLike } from "../../src/config/recentConfigs";
import { SidekicksError } from "../../src/shared/errors";

const FOLDER = "/work/project";
const existing = (...files: string[]) => (file: string) => files.includes(file);

test("no setting: sidekicks.yaml at the root when it exists, even if .vscode/sidekicks.yaml exists too", () => {
  assert.deepEqual(resolveConfigLocation({ folder: FOLDER, exists: existing(`${FOLDER}/sidekicks.yaml`, `${FOLDER}/.vscode/sidekicks.yaml`) }), { file: `${FOLDER}/sidekicks.yaml`, source: "found" });
});

test("no setting: .vscode/sidekicks.yaml when only it exists", () => {
  assert.deepEqual(resolveConfigLocation({ folder: FOLDER, setting: "  ", exists: existing(`${FOLDER}/.vscode/sidekicks.yaml`) }), { file: `${FOLDER}/.vscode/sidekicks.yaml`, source: "found" });
});

test("no setting, no file: sidekicks.yaml at the root, where Create config writes", () => {
  assert.deepEqual(resolveConfigLocation({ folder: FOLDER, exists: existing() }), { file: `${FOLDER}/sidekicks.yaml`, source: "default" });
});

test("the setting wins, whether or not the default files exist: relative to the folder, absolute, ~ and ${workspaceFolder}", () => {
  const all = existing(`${FOLDER}/sidekicks.yaml`);
  assert.deepEqual(resolveConfigLocation({ folder: FOLDER, setting: "config/team.yaml", exists: all }), { file: `${FOLDER}/config/team.yaml`, source: "setting" });
  assert.deepEqual(resolveConfigLocation({ folder: FOLDER, setting: "/etc/sidekicks/../team.yaml", exists: all }), { file: "/etc/team.yaml", source: "setting" });
  assert.deepEqual(resolveConfigLocation({ folder: FOLDER, setting: "~/rosters/me.yaml", home: "/home/me", exists: all }), { file: "/home/me/rosters/me.yaml", source: "setting" });
  assert.deepEqual(resolveConfigLocation({ folder: FOLDER, setting: "${workspaceFolder}/.vscode/x.yaml", exists: all }), { file: `${FOLDER}/.vscode/x.yaml`, source: "setting" });
});

test("without a folder only an absolute setting works; otherwise config/missing says what to do", () => {
  assert.deepEqual(resolveConfigLocation({ setting: "/rosters/a.yaml", exists: existing() }), { file: "/rosters/a.yaml", source: "setting" });
  const missing = (message: string) => (err: unknown) => err instanceof SidekicksError && err.code === "config/missing" && err.message === message;
  assert.throws(() => resolveConfigLocation({ exists: existing() }), missing("Open a folder first: Sidekicks keeps its roster (sidekicks.yaml) in the workspace."));
  assert.throws(() => resolveConfigLocation({ setting: "team.yaml", exists: existing() }), missing('sidekicks.configPath is relative ("team.yaml"), but no folder is open: open one, or make the path absolute.'));
});

function memento(initial?: unknown): MementoLike & { value: unknown } {
  const m = {
    value: initial,
    get: <T>() => m.value as T | undefined,
    update: async (_key: string, value: unknown) => {
      m.value = value;
    },
  };
  return m;
}

test("recent roster files: most recent first, once each, at most 10", async () => {
  const recent = new RecentConfigs(memento());
  assert.deepEqual(recent.list(), []);
  for (let i = 0; i < 12; i++) await recent.remember(`/p${i}/sidekicks.yaml`);
  await recent.remember("/p5/sidekicks.yaml");
  const list = recent.list();
  assert.equal(list.length, RECENT_CONFIGS_LIMIT);
  assert.deepEqual(list.slice(0, 3), ["/p5/sidekicks.yaml", "/p11/sidekicks.yaml", "/p10/sidekicks.yaml"]);
  assert.equal(list.filter((f) => f === "/p5/sidekicks.yaml").length, 1);
  assert.ok(!list.includes("/p0/sidekicks.yaml") && !list.includes("/p1/sidekicks.yaml"));
  assert.deepEqual(await recent.forget("/p5/sidekicks.yaml"), list.slice(1));
});

test("recent roster files ignore whatever else the memento holds", () => {
  assert.deepEqual(new RecentConfigs(memento("not a list")).list(), []);
  assert.deepEqual(new RecentConfigs(memento(["/a.yaml", 3, null])).list(), ["/a.yaml"]);
});
