import { test } from "node:test";
import assert from "node:assert/strict";
import { ShownChannel } from "../../src/vscode/shownChannel";

const general = { id: "ch-general", name: "general" };
const bugs = { id: "ch-bugs", name: "bugs" };

test("Open channel in editor after a rename in the side view: the side view's channel goes by its new name", () => {
  const shown = new ShownChannel();
  assert.equal(shown.name, undefined, "nothing opened yet: the command asks which channel");
  shown.opened(bugs);
  assert.equal(shown.name, "bugs");
  shown.changed([general, { id: "ch-bugs", name: "bugs3" }]);
  assert.equal(shown.name, "bugs3", "renamed bugs → bugs3: the command opens #bugs3, not a #bugs that no longer exists");
});

test("another channel's rename, or a list without the shown channel (deleted), keeps the shown channel's name", () => {
  const shown = new ShownChannel();
  shown.opened(bugs);
  shown.changed([{ id: "ch-general", name: "welcome" }, bugs]);
  assert.equal(shown.name, "bugs");
  shown.changed([general]);
  assert.equal(shown.name, "bugs", "deleted: the webview opens #general itself, and then says so");
  shown.opened(general);
  assert.equal(shown.name, "general");
});
