// @ts-check
// What the user does: answer permissions, send messages (accepted or refused), read errors; and the host's test/*
// requests that drive the same DOM.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { frames, message, openResult, openView, withBrowser } from "./harness.mjs";

/** @type {import("../../src/shared/protocol").PermissionPart} */
const PERMISSION = {
  type: "permission",
  requestId: "r1",
  toolCallId: "tc1",
  title: "rm -rf build/",
  options: [
    { optionId: "allow", name: "Allow once", kind: "allow_once" },
    { optionId: "always", name: "Always allow", kind: "allow_always" },
    { optionId: "reject", name: "Reject", kind: "reject_once" },
  ],
};

describe("interaction", () => {
  const env = withBrowser();

  it("answers a pending permission with the clicked option; buttons are disabled once the outcome is known", async () => {
    const view = await openView(env.browser, env.server.origin);
    const { page, host } = view;
    await host.emit("message/started", message({ id: "p1", status: "streaming", parts: [PERMISSION] }));
    await page.waitForSelector(".permission[data-request-id='r1'] button.permission-option[data-option-id='allow']:not([disabled])");
    assert.equal(await page.$$eval("button.permission-option", (bs) => bs.filter((b) => !(/** @type {HTMLButtonElement} */ (b).disabled)).length), 3);
    assert.match(await page.innerText(".permission"), /rm -rf build\//);

    await page.click("button.permission-option[data-option-id='allow']");
    assert.deepEqual(await host.waitForRequests("permission/answer"), [{ requestId: "r1", optionId: "allow" }]);
    await page.waitForSelector("button.permission-option[data-option-id='reject'][disabled]");

    await host.emit("message/finished", message({ id: "p1", parts: [{ ...PERMISSION, outcome: "allow" }, { type: "text", text: "Removed." }] }));
    await page.waitForSelector(".message[data-message-id='p1'][data-status='done']");
    assert.deepEqual(await page.$$eval("button.permission-option", (bs) => bs.map((b) => /** @type {HTMLButtonElement} */ (b).disabled)), [true, true, true]);
    assert.match(await page.innerText(".permission-outcome"), /Chosen: Allow once/);
    assert.equal(await page.getAttribute("button.permission-option[data-option-id='allow']", "aria-pressed"), "true");
    assert.equal((await host.requests("permission/answer")).length, 1, "answered once");
    assert.deepEqual(await view.problems(), []);
  });

  it("a request answered by the policy shows the choice and why, with no button to press", async () => {
    const view = await openView(env.browser, env.server.origin);
    const { page, host } = view;
    const auto = { ...PERMISSION, toolKind: "read", outcome: "allow", auto: "Allowed automatically: a read tool, and @demo's permissions are allow-reads." };
    await host.emit("message/started", message({ id: "pa", status: "streaming", parts: [auto] }));
    await page.waitForSelector(".permission[data-state='auto']");
    assert.match(await page.innerText(".permission-outcome"), /Chosen: Allow once/);
    assert.match(await page.innerText(".permission-auto"), /allow-reads/);
    assert.deepEqual(await page.$$eval("button.permission-option", (bs) => bs.map((b) => /** @type {HTMLButtonElement} */ (b).disabled)), [true, true, true]);
    assert.deepEqual(await view.problems(), []);
  });

  it("shows Cancelled for a cancelled permission and never re-enables its buttons", async () => {
    const { page, host } = await openView(env.browser, env.server.origin);
    await host.emit("message/started", message({ id: "p2", status: "streaming", parts: [PERMISSION] }));
    await host.emit("message/delta", { channelId: "ch-general", messageId: "p2", part: { ...PERMISSION, outcome: "cancelled" } });
    await page.waitForSelector(".permission[data-state='cancelled']");
    assert.equal(await page.innerText(".permission-outcome"), "Cancelled");
    assert.deepEqual(await page.$$eval("button.permission-option", (bs) => bs.map((b) => /** @type {HTMLButtonElement} */ (b).disabled)), [true, true, true]);
    await page.click("button.permission-option[data-option-id='allow']", { force: true });
    await frames(page, 2);
    assert.deepEqual(await host.requests("permission/answer"), []);
  });

  it("re-enables the options and says why when the host rejects the answer", async () => {
    const { page, host } = await openView(env.browser, env.server.origin);
    await page.evaluate(() => {
      window.__host.handlers["permission/answer"] = () => ({ error: { code: "permission/unknown", message: "This request is no longer pending." } });
    });
    await host.emit("message/started", message({ id: "p3", status: "streaming", parts: [PERMISSION] }));
    await page.click("button.permission-option[data-option-id='reject']");
    await page.waitForSelector(".permission-note");
    assert.match(await page.innerText(".permission-note"), /no longer pending/);
    assert.equal(await page.$eval("button.permission-option[data-option-id='reject']", (b) => /** @type {HTMLButtonElement} */ (b).disabled), false);
  });

  it("shows a failed message's error and its stderr detail, with no typing indicator left", async () => {
    const { page, host } = await openView(env.browser, env.server.origin);
    await host.emit("message/started", message({ id: "e1", status: "streaming" }));
    await host.emit("message/delta", { channelId: "ch-general", messageId: "e1", appendText: "Starting" });
    await page.waitForSelector(".message[data-message-id='e1'] .typing");
    const detail = "Traceback (most recent call last):\n  File \"agent.py\", line 3\nRuntimeError: boom";
    await host.emit("message/finished", message({
      id: "e1",
      text: "Starting",
      status: "error",
      error: { code: "agent/exited", message: "demo exited with code 1", detail },
    }));
    await page.waitForSelector(".message[data-message-id='e1'][data-status='error'] .message-error");
    assert.match(await page.innerText(".message-error"), /demo exited with code 1/);
    assert.equal(await page.$eval(".message-error pre", (pre) => pre.textContent), detail);
    assert.equal(await page.$(".message[data-message-id='e1'] .typing"), null, "no spinner forever");
    assert.match(await page.innerText(".message[data-message-id='e1'] .message-body"), /Starting/, "what was received stays");
  });

  it("keeps the text and shows why when the host refuses a send, then clears it once accepted", async () => {
    const view = await openView(env.browser, env.server.origin);
    const { page, host } = view;
    await page.click("#composer textarea");
    await page.keyboard.type("@foo please help");
    await page.keyboard.press("Enter");
    await page.waitForSelector(".send-error");
    assert.equal(await page.innerText(".send-error"), "No agent named @foo in #general. Members: @demo");
    assert.equal(await page.inputValue("#composer textarea"), "@foo please help", "nothing is lost");
    assert.deepEqual(await host.requests("channel/send"), [{ channelId: "ch-general", text: "@foo please help" }]);

    await page.fill("#composer textarea", "@demo please help");
    await page.keyboard.press("Enter");
    await page.waitForSelector(".send-error", { state: "detached" });
    await page.waitForFunction(() => /** @type {HTMLTextAreaElement} */ (document.querySelector("#composer textarea")).value === "");
    await page.waitForSelector(".message[data-author='user']");
    assert.match(await page.innerText(".message[data-author='user'] .message-body"), /@demo please help/);
    assert.equal((await host.state()).drafts?.["ch-general"], undefined, "the saved draft is cleared with the text");
    assert.deepEqual(await view.problems(), []);
  });

  it("Shift+Enter inserts a newline, empty text never sends, the Send button sends", async () => {
    const { page, host } = await openView(env.browser, env.server.origin);
    await page.click("#composer textarea");
    await page.keyboard.press("Enter");
    await page.keyboard.type("   ");
    await page.keyboard.press("Enter");
    assert.equal(await page.$eval("#composer .send", (b) => b.hasAttribute("disabled")), true, "Send is disabled while empty");
    await page.fill("#composer textarea", "");
    await page.keyboard.type("line one");
    await page.keyboard.press("Shift+Enter");
    await page.keyboard.type("line two");
    assert.equal(await page.inputValue("#composer textarea"), "line one\nline two");
    await frames(page, 2);
    assert.deepEqual(await host.requests("channel/send"), [], "nothing sent yet");

    await page.click("#composer .send");
    assert.deepEqual(await host.waitForRequests("channel/send"), [{ channelId: "ch-general", text: "line one\nline two" }]);
    await page.waitForFunction(() => /** @type {HTMLTextAreaElement} */ (document.querySelector("#composer textarea")).value === "");
    const userBody = await page.innerHTML(".message[data-author='user'] .message-body");
    assert.match(userBody, /line one<br>\s*line two/, "the newline survives in the rendered message");
  });

  it("answers the host's test/compose, test/text, test/click, test/count and test/type requests, each exactly once", async () => {
    const { page, host } = await openView(env.browser, env.server.origin, {
      open: openResult({ messages: [message({ id: "q1", status: "streaming", parts: [PERMISSION] })] }),
    });
    assert.deepEqual(await host.request("test/text", { selector: ".channel-header .channel-name" }), { kind: "response", id: 1000, result: { text: "#general" } });
    assert.deepEqual((await host.request("test/text", { selector: ".nothing" })).result, { text: null });

    const composed = await host.request("test/compose", { text: "@demo hello from the host" });
    assert.deepEqual(composed.result, { sent: true });
    assert.deepEqual(await host.requests("channel/send"), [{ channelId: "ch-general", text: "@demo hello from the host" }]);
    assert.equal(await page.inputValue("#composer textarea"), "", "the same path as Enter: cleared when accepted");

    const refused = await host.request("test/compose", { text: "@nobody hi" });
    assert.deepEqual(refused.result, { sent: false });
    assert.match((await host.request("test/text", { selector: ".send-error" })).result?.text ?? "", /No agent named @nobody/);
    assert.deepEqual((await host.request("test/compose", { text: "   " })).result, { sent: false }, "empty text is not sent");

    assert.deepEqual((await host.request("test/click", { selector: "button.permission-option[data-option-id='always']" })).result, { clicked: true });
    assert.deepEqual(await host.waitForRequests("permission/answer"), [{ requestId: "r1", optionId: "always" }]);
    assert.deepEqual((await host.request("test/click", { selector: ".nothing" })).result, { clicked: false });

    assert.deepEqual((await host.request("test/count", { selector: "button.permission-option" })).result, { count: 3 });
    assert.deepEqual((await host.request("test/count", { selector: ".nothing" })).result, { count: 0 });
    const sends = (await host.requests("channel/send")).length;
    assert.deepEqual((await host.request("test/type", { text: "@de" })).result, { typed: true });
    assert.equal(await page.inputValue("#composer textarea"), "@de", "typed, not sent");
    assert.match((await host.request("test/text", { selector: ".suggestions" })).result?.text ?? "", /demo/, "the suggestions typing opens");
    assert.equal((await host.requests("channel/send")).length, sends, "typing sends nothing");

    // A method the protocol does not have, on purpose: the cast lets it through the types, as a buggy host would send it.
    const unknown = await host.request(/** @type {any} */ ("test/bogus"), {});
    assert.equal(unknown.error?.code, "webview/unknownMethod");

    const responses = (await host.posted()).filter((m) => m.kind === "response");
    const ids = responses.map((r) => r.id);
    assert.deepEqual(ids, [...new Set(ids)], "no request answered twice");
    assert.equal(ids.length, 13, "every request answered");
  });

  it("Stop on a streaming answer and Cancel on a queued one ask the host to cancel exactly that message", async () => {
    const view = await openView(env.browser, env.server.origin);
    const { page, host } = view;
    await host.emit("message/finished", message({ id: "u1", author: "user", text: "@demo go", to: ["demo"] }));
    await host.emit("message/started", message({ id: "a1", status: "streaming", text: "Working" }));
    await host.emit("message/started", message({ id: "a2", status: "queued" }));
    await page.waitForSelector(".message[data-message-id='a2'][data-status='queued'] .message-queued");
    assert.match(await page.innerText(".message[data-message-id='u1'] .message-to"), /→ @demo/);
    assert.match(await page.innerText(".message[data-message-id='a2']"), /Queued: demo answers after its current message/);
    assert.equal(await page.innerText(".message[data-message-id='a1'] .message-stop"), "Stop");
    assert.equal(await page.innerText(".message[data-message-id='a2'] .message-stop"), "Cancel");
    await page.click(".message[data-message-id='a2'] .message-stop");
    await page.click(".message[data-message-id='a1'] .message-stop");
    assert.deepEqual(await host.waitForRequests("turn/cancel", 2), [{ messageId: "a2" }, { messageId: "a1" }]);
    await host.emit("message/finished", message({ id: "a1", text: "Working", stopReason: "cancelled" }));
    await page.waitForSelector(".message[data-message-id='a1'][data-status='done']");
    assert.equal(await page.$(".message[data-message-id='a1'] .message-stop"), null, "no Stop on a finished message");
    assert.match(await page.innerText(".message[data-message-id='a1']"), /Cancelled/);
    // The button went away with the answer's end; the focus stayed on its message, not on the page (a tryout found it on the body).
    assert.equal(await page.evaluate(() => document.activeElement?.closest(".message")?.getAttribute("data-message-id")), "a1");
    assert.deepEqual(await view.problems(), []);
  });

  it("field case 12: terminal escape sequences in agent text and tool output are stripped, never shown", async () => {
    const view = await openView(env.browser, env.server.origin);
    const { page, host } = view;
    /** @type {import("../../src/shared/protocol").ToolCallPart} */
    const tool = { type: "toolCall", toolCallId: "t1", title: "\u001b[32mnpm test\u001b[0m", status: "completed", content: "\u001b[1;37m{\u001b[0m \"ok\": true }" };
    await host.emit("message/started", message({ id: "e1", status: "streaming", parts: [tool] }));
    await host.emit("message/delta", { channelId: "ch-general", messageId: "e1", appendText: "Terminal said: \u001b[?9001h\u001b[?1004hbuild ok\r\n and \u001b]0;zsh\u0007done \u001b[1;3" });
    await page.waitForSelector(".message[data-message-id='e1'] .markdown");
    await frames(page, 2);
    const text = await page.innerText(".message[data-message-id='e1']");
    assert.match(text, /Terminal said: build ok/);
    assert.match(text, /and done/);
    assert.match(text, /\{ "ok": true \}/);
    assert.match(text, /npm test/);
    assert.doesNotMatch(text, /\[\?9001h|\[1;37m|\[0m|\[32m|0;zsh|\[1;3|\u001b/);
    assert.deepEqual(await view.problems(), []);
  });
});

describe("following the conversation", () => {
  const env = withBrowser();

  it("member badges follow agent/state events", async () => {
    const view = await openView(env.browser, env.server.origin, { open: openResult({ members: [{ name: "demo", state: "stopped" }] }) });
    const { page, host } = view;
    assert.match(await page.innerText(".channel-header"), /demo\s*stopped/);
    await host.emit("agent/state", { agent: "demo", state: "busy" });
    await page.waitForFunction(() => /demo\s*busy/.test(document.querySelector(".channel-header")?.textContent ?? ""));
    await host.emit("agent/state", { agent: "other", state: "error" });
    await frames(page, 2);
    assert.doesNotMatch(await page.innerText(".channel-header"), /other/, "agents that are not members are ignored");
    assert.deepEqual(await view.problems(), []);
  });

  it("stays pinned to the latest message when the composer grows, and a sent message brings it back", async () => {
    const history = Array.from({ length: 40 }, (_, i) => message({ id: `m${i}`, text: `message ${i} `.repeat(12) }));
    const view = await openView(env.browser, env.server.origin, { open: openResult({ messages: history }), height: 600 });
    const { page, host } = view;
    const distance = () => page.$eval(".history", (el) => el.scrollHeight - el.scrollTop - el.clientHeight);
    await frames(page, 2);
    assert.ok((await distance()) < 40, "starts at the bottom");
    await page.fill("#composer textarea", Array.from({ length: 12 }, (_, i) => `draft line ${i}`).join("\n"));
    await frames(page, 3);
    assert.ok((await distance()) < 40, `still at the bottom after the composer grew (${await distance()} px)`);
    await page.$eval(".history", (el) => {
      el.dispatchEvent(new WheelEvent("wheel", { bubbles: true })); // the user's wheel, then where it took the view
      el.scrollTop = 0;
    });
    await frames(page, 2);
    await host.emit("message/finished", message({ id: "mine", author: "user", text: "@demo go", to: ["demo"] }));
    await host.emit("message/started", message({ id: "answer", status: "streaming", text: "Working" }));
    await frames(page, 3);
    assert.ok((await distance()) < 40, `back at the bottom after the user's own message (${await distance()} px)`);
  });
});
