/**
 * What the field-case suites share: sending a message in the real webview's channel and waiting for the answer it
 * starts, read through the live DOM (`test/*` requests), as a user would see it.
 */
import * as assert from "node:assert/strict";
import type { HostRequests } from "../../../src/shared/protocol";
import { poll } from "./poll";

/** The part of the extension's test API these suites use. */
export interface FieldCaseApi {
  webview<M extends keyof HostRequests>(method: M, params: HostRequests[M][0]): Promise<HostRequests[M][1]>;
  reopenStore(): Promise<void>;
  savedText(channel: string, messageId: string): Promise<string | undefined>;
}

/** Reads and drives the channel shown in the sidebar. */
export interface FieldCaseChannel {
  /** `innerText` of the first match, or null. */
  text(selector: string): Promise<string | null>;
  attribute(selector: string, name: string): Promise<string | null>;
  count(selector: string): Promise<number>;
  click(selector: string): Promise<boolean>;
  /** Whether the first match shows inside the window and the history's visible part (`null`: no match). */
  inView(selector: string): Promise<boolean | null>;
  /** The id of the last message in the history, or null when it is empty. */
  lastId(): Promise<string | null>;
  /**
   * Sends `text` and waits for the agent's answer it starts (the message after the user's) to be past streaming.
   * @returns the answer's selector (`.message[data-message-id='…']`) and id, and the id of the message that was last
   *   before the send (to count what the send added)
   */
  ask(text: string, timeoutMs?: number): Promise<{ answer: string; id: string; before: string | null }>;
  /** Waits for the message `selector` to be past streaming; returns its `data-status`. */
  settled(selector: string, timeoutMs?: number): Promise<string>;
}

/** The channel view over the test API `api`. */
export function fieldCaseChannel(api: () => FieldCaseApi): FieldCaseChannel {
  const text = async (selector: string) => (await api().webview("test/text", { selector })).text;
  const attribute = async (selector: string, name: string) => (await api().webview("test/attribute", { selector, name })).text;
  const lastId = () => attribute(".history > .message:nth-last-child(1)", "data-message-id");
  const settled = (selector: string, timeoutMs = 30_000) =>
    poll(`${selector} to finish`, async () => {
      const status = await attribute(selector, "data-status");
      return status === "done" || status === "error" ? status : undefined;
    }, timeoutMs);
  return {
    text,
    attribute,
    lastId,
    settled,
    count: async (selector) => (await api().webview("test/count", { selector })).count,
    click: async (selector) => (await api().webview("test/click", { selector })).clicked,
    inView: async (selector) => (await api().webview("test/inView", { selector })).visible,
    ask: async (message, timeoutMs = 30_000) => {
      const before = await lastId();
      assert.equal((await api().webview("test/compose", { text: message })).sent, true, `"${message}" was not sent`);
      const id = await poll(`the answer to "${message}"`, async () => {
        const last = await lastId();
        if (last === null || last === before) return undefined;
        return (await attribute(`.message[data-message-id='${last}']`, "data-author")) === "agent" ? last : undefined;
      }, timeoutMs);
      const answer = `.message[data-message-id='${id}']`;
      await settled(answer, timeoutMs);
      return { answer, id, before };
    },
  };
}

/** A session update step of the scripted fake agent (test/fixtures/fake-agent.mjs). */
export const update = (u: object) => ({ update: u });
