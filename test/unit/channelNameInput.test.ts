/**
 * `Sidekicks: Rename channel…` and `New channel` validate the name in the input box, with the webview's rule: an
 * existing name keeps the box open with "#docs already exists." instead of closing it and showing a notification.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { channelNameInputProblem } from "../../src/shared/channelName";

const channels = [
  { id: "c1", name: "general", kind: "channel" },
  { id: "c2", name: "docs", kind: "channel" },
  { id: "d1", name: "@demo", kind: "direct" },
];

test("renaming to an existing channel's name is refused in the box, whatever the case or a leading #", () => {
  assert.equal(channelNameInputProblem("docs", channels, "c1"), "#docs already exists.");
  assert.equal(channelNameInputProblem(" #Docs ", channels, "c1"), "#docs already exists.");
});

test("a channel's own name and a free name are accepted", () => {
  assert.equal(channelNameInputProblem("docs", channels, "c2"), undefined);
  assert.equal(channelNameInputProblem("design-review", channels, "c2"), undefined);
  assert.equal(channelNameInputProblem("design-review", channels), undefined);
});

test("a name the host refuses says why, as the webview's fields do; an empty name is refused", () => {
  assert.match(channelNameInputProblem("bad name", channels) ?? "", /space is not allowed/);
  assert.match(channelNameInputProblem("Design", channels) ?? "", /lowercase: try #design/);
  assert.match(channelNameInputProblem("a".repeat(81), channels) ?? "", /at most 80 characters/);
  assert.match(channelNameInputProblem("  ", channels) ?? "", /Type a name/);
  assert.match(channelNameInputProblem("new", [...channels, { id: "c3", name: "new", kind: "channel" }]) ?? "", /#new already exists/);
});
