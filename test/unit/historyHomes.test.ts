import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { answerOffer, historyDirFor, historyHome, historyOffer, movedHistories } from "../../src/store/historyHomes";
import { Store } from "../../src/store/Store";
import { tempDir } from "./helpers";

/** A project folder with a roster, under `root`. */
function project(root: string, name: string): string {
  const folder = path.join(root, name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, "sidekicks.yaml"), "version: 1\nagents: []\n");
  return path.join(folder, "sidekicks.yaml");
}

/** Opens the history `configPath` uses (as activation does), writes `marker` into it, closes it. */
async function useHistory(histories: string, configPath: string, marker: string): Promise<string> {
  const dir = historyHome(histories, configPath);
  const store = await Store.open(dir);
  await store.commit({ values: [{ key: "marker", value: marker }] });
  await store.close();
  return dir;
}

async function markerIn(dir: string): Promise<unknown> {
  const store = await Store.open(dir);
  try {
    return await store.getValue("marker");
  } finally {
    await store.close();
  }
}

test("a moved folder's history is found, offered until answered, and used only after the user's yes; nothing is deleted", async () => {
  const { dir: root, cleanup } = tempDir();
  const histories = path.join(root, "histories");
  try {
    const oldRoster = project(root, "shop");
    const oldDir = await useHistory(histories, oldRoster, "the conversations of shop");
    const otherRoster = project(root, "blog");
    await useHistory(histories, otherRoster, "blog's");
    assert.deepEqual(historyOffer(histories, oldRoster), [], "the folder is where it was: nothing to offer");

    // The user renames the folder shop → shop-v2 and opens it.
    renameSync(path.dirname(oldRoster), path.join(root, "shop-v2"));
    const newRoster = path.join(root, "shop-v2", "sidekicks.yaml");
    assert.deepEqual(movedHistories(histories).map((m) => [m.dir, m.configPath]), [[oldDir, oldRoster]], "only the history whose roster is gone");
    const offer = historyOffer(histories, newRoster);
    assert.deepEqual(offer.map((m) => m.configPath), [oldRoster], "offered: Sidekicks found history for a folder that moved");

    // Not answered (the notification was dismissed): the window goes on with a new, empty history…
    const fresh = await useHistory(histories, newRoster, "started here");
    assert.equal(fresh, historyDirFor(histories, newRoster), "no answer: the old history is not used");
    assert.notEqual(fresh, oldDir);
    // …and the next start offers it again, though this folder has a history now.
    assert.deepEqual(historyOffer(histories, newRoster).map((m) => m.dir), [oldDir], "offered again until answered");

    // Yes: the folder's history is the old one from now on.
    answerOffer(histories, newRoster, oldDir);
    assert.equal(historyHome(histories, newRoster), oldDir);
    assert.equal(await markerIn(historyHome(histories, newRoster)), "the conversations of shop", "the moved folder sees its old conversations");
    assert.deepEqual(historyOffer(histories, newRoster), [], "answered: not offered again");
    assert.deepEqual(movedHistories(histories), [], "the adopted history belongs to the new folder now");
    assert.ok(existsSync(fresh) && existsSync(oldDir), "nothing deleted: the history started meanwhile is still on disk");
    assert.equal(await markerIn(fresh), "started here");
  } finally {
    cleanup();
  }
});

test("no is remembered; a folder with its own history is not offered anything; histories not recorded or set aside are never candidates", async () => {
  const { dir: root, cleanup } = tempDir();
  const histories = path.join(root, "histories");
  try {
    const gone = project(root, "gone");
    const goneDir = await useHistory(histories, gone, "gone's");
    // A repair's set-aside copy and a history from before records existed.
    mkdirSync(`${goneDir}.damaged-2026-01-01`, { recursive: true });
    writeFileSync(path.join(`${goneDir}.damaged-2026-01-01`, "CURRENT"), "MANIFEST-000001\n");
    const unrecorded = path.join(histories, "0123456789ab");
    const store = await Store.open(unrecorded);
    await store.close();
    renameSync(path.dirname(gone), path.join(root, "elsewhere"));

    const kept = project(root, "kept");
    await useHistory(histories, kept, "kept's own");
    assert.deepEqual(historyOffer(histories, kept), [], "this folder has its own history: nothing is offered");

    const fresh = project(root, "fresh");
    assert.deepEqual(historyOffer(histories, fresh).map((m) => m.dir), [goneDir], "only the recorded history whose roster is gone");
    answerOffer(histories, fresh, undefined);
    assert.deepEqual(historyOffer(histories, fresh), [], "no: not asked again");
    assert.equal(historyHome(histories, fresh), historyDirFor(histories, fresh), "no: the folder keeps its own history");
    assert.deepEqual(historyOffer(histories, path.join(root, "nowhere", "sidekicks.yaml")), [], "no roster file: nothing to follow");
    assert.ok(readdirSync(histories).includes(path.basename(goneDir)), "nothing deleted");
  } finally {
    cleanup();
  }
});
