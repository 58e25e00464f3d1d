import { test } from "node:test";
import assert from "node:assert/strict";
import { permissionTab, type ChannelTab } from "../../src/vscode/permissionTab";

const tab = (channel: string, channelId: string | undefined, more: Partial<ChannelTab> = {}): ChannelTab & { label: string } => ({
  label: `${channel}${more.active ? " (active)" : more.visible ? " (visible)" : ""}`,
  channel,
  channelId,
  active: false,
  visible: false,
  ...more,
});

test("the next permission request goes to the editor tab showing its channel, else to the side view", () => {
  const design = tab("design", "ch-design");
  const general = tab("general", "ch-general", { active: true });
  assert.equal(permissionTab([general, design], "ch-design", "design"), design, "the tab showing the request's channel, even in the background");
  assert.equal(permissionTab([general, design], "ch-review", "review"), undefined, "no tab shows it: the side view");
  assert.equal(permissionTab([], "ch-design", "design"), undefined);
});

test("a tab restored after a reload, whose webview has not opened its channel yet, is found by the channel's name", () => {
  const restored = tab("design", undefined);
  assert.equal(permissionTab([restored], "ch-design", "design"), restored);
  assert.equal(permissionTab([restored], "ch-design", undefined), undefined, "without the name, not guessed");
  assert.equal(permissionTab([tab("design", "ch-other")], "ch-design", "design"), undefined, "a known id decides over the name");
});

test("of two tabs showing the channel, the active one, else a visible one, else the first", () => {
  const first = tab("design", "ch-design");
  const visible = tab("design", "ch-design", { visible: true });
  const active = tab("design", "ch-design", { active: true, visible: true });
  assert.equal(permissionTab([first, visible, active], "ch-design", "design")?.label, "design (active)");
  assert.equal(permissionTab([first, visible], "ch-design", "design")?.label, "design (visible)");
  assert.equal(permissionTab([first, tab("design", "ch-design")], "ch-design", "design"), first);
});
