// @ts-check
/**
 * A fake extension host that runs inside the test page, typed from `src/shared/protocol` (checked by
 * `npx tsc -p test/webview`). `installFakeHost` is passed to Playwright's `addInitScript`, so it must be
 * self-contained: it runs before the webview bundle and defines `acquireVsCodeApi` the way VS Code does.
 *
 * It records everything the webview posts, answers the webview's requests like the real host would (handlers can
 * be replaced per test through `window.__host.handlers`), and delivers host messages as window `message` events.
 */

/** @typedef {import("../../src/shared/protocol").WebviewToHost} WebviewToHost */
/** @typedef {import("../../src/shared/protocol").HostToWebview} HostToWebview */
/** @typedef {import("../../src/shared/protocol").WebviewRequests} WebviewRequests */
/** @typedef {import("../../src/shared/protocol").HostRequests} HostRequests */
/** @typedef {import("../../src/shared/protocol").HostEvents} HostEvents */
/** @typedef {import("../../src/shared/protocol").ErrorInfo} ErrorInfo */
/** @typedef {import("../../src/shared/protocol").MessageView} MessageView */

/**
 * @typedef {object} FakeHostInit
 * @property {WebviewRequests["channel/open"][1]} open What `channel/open` returns.
 * @property {unknown} [state] What `getState()` returns at start (a previous `setState`).
 * @property {number} [delayMs] How long the host takes to answer each request.
 * @property {import("../../src/shared/protocol").ChannelSummary[]} [channels] What `channels/list` returns (default: the open channel).
 * @property {string[]} [agents] The roster's agents `channels/list` returns (default: the open channel's members).
 * @property {Refusal} [refuse] Requests refused from the start (e.g. the history locked by another window).
 */

/** @typedef {{ methods: (keyof WebviewRequests)[], error: ErrorInfo }} Refusal */

/**
 * A handler answers at once, or later when it returns a promise (a test holds the answer back).
 * @typedef {{ [M in keyof WebviewRequests]?: (params: WebviewRequests[M][0]) => WebviewRequests[M][1] | { error: ErrorInfo } | Promise<WebviewRequests[M][1] | { error: ErrorInfo }> }} Handlers
 */

/**
 * @typedef {object} FakeHost
 * @property {WebviewToHost[]} posted Everything the webview posted, in order.
 * @property {unknown[]} states Every `setState` value, in order.
 * @property {unknown} state The last `setState` value.
 * @property {WebviewRequests["channel/open"][1]} open What `channel/open` returns; tests may replace it.
 * @property {import("../../src/shared/protocol").ChannelSummary[]} channels What `channels/list` returns; tests may replace it.
 * @property {number} delayMs
 * @property {Map<number, (reply: { result?: unknown, error?: ErrorInfo }) => void>} pendingHostRequests
 * @property {Handlers} handlers
 * @property {Refusal | undefined} refuse Requests answered with `error` whatever their handler; tests may clear it.
 * @property {(message: HostToWebview) => void} deliver
 * @property {<E extends keyof HostEvents>(name: E, payload: HostEvents[E]) => void} emit
 * @property {<M extends keyof HostRequests>(method: M, params: HostRequests[M][0]) => Promise<{ result?: unknown, error?: ErrorInfo }>} request
 * @property {(method: keyof WebviewRequests) => unknown[]} requests
 * @property {() => Promise<WebviewToHost>} nextPost
 */

/**
 * @param {FakeHostInit} init
 */
export function installFakeHost(init) {
  /** The workspace's files as the fake host finds them (`files/find`, typed `@path` words). (Inside: this function is serialized.) */
  const FAKE_FILES = ["src/app/compose.ts", "src/shared/attachments.ts", "README.md"];
  /** @type {{ resolve: (value: WebviewToHost) => void }[]} */
  const waiting = [];
  let nextHostRequestId = 1000;
  let nextMessageId = 1;

  /** @type {FakeHost} */
  const host = {
    posted: [],
    states: [],
    state: init.state,
    open: init.open,
    channels: init.channels ?? [{ id: init.open.channel.id, name: init.open.channel.name, kind: "channel", members: init.open.channel.members.map((m) => m.name), unread: 0, busy: false }],
    delayMs: init.delayMs ?? 0,
    pendingHostRequests: new Map(),
    refuse: init.refuse,
    handlers: {
      "channel/open": () => host.open,
      "channel/send": ({ channelId, text, editOf, attachments }) => {
        const members = host.open.channel.members.map((m) => m.name);
        // As the host: `@name` mentions a member; a typed `@path` (a `/` or `.` in it) is a file, attached when the
        // workspace has it, else sent as text and named in `unmatchedPaths`.
        const unknown = [...text.matchAll(/@([\w-]+)(?![\w./:-])/g)].map((m) => m[1]).find((n) => !members.includes(n ?? ""));
        const unmatchedPaths = [...text.matchAll(/@([\w-]*[./][\w./:-]*\w)/g)].map((m) => m[1] ?? "").filter((p) => !FAKE_FILES.includes(p.replace(/:[\d-]+$/, "")));
        if (unknown) {
          const list = members.map((m) => `@${m}`).join(", ");
          return { error: { code: "channel/unknownMember", message: `No agent named @${unknown} in #${host.open.channel.name}. Members: ${list}` } };
        }
        const id = `sent-${nextMessageId++}`;
        /** @type {MessageView} */
        const message = { id, channelId, author: { kind: "user" }, parts: [{ type: "text", text }], createdAt: Date.now(), status: "done", ...(editOf ? { editOf } : {}), ...(attachments ? { attachments } : {}) };
        setTimeout(() => host.emit("message/finished", message), 0);
        return { messageId: id, ...(unmatchedPaths.length > 0 ? { unmatchedPaths } : {}) };
      },
      "permission/answer": () => ({ accepted: true }),
      "turn/cancel": () => ({ cancelled: true }),
      "turn/retry": () => ({ retried: true }),
      "turn/sendNow": () => ({ sent: true }),
      "turn/fileDiff": () => ({ opened: true }),
      // A message's Markdown as the host's export writes it: a heading, then its text.
      "message/markdown": ({ messageId }) => {
        const found = host.open.messages.find((m) => m.id === messageId);
        if (!found) return { error: { code: "channel/notFound", message: "That message is no longer in the history." } };
        const body = `${found.parts.map((p) => (p.type === "text" ? p.text : "")).join("")}\n`;
        const who = found.author.kind === "user" ? "You" : `@${found.author.agentName}`;
        return { markdown: `## ${who} · 2026-11-01 10:00 UTC\n\n${body}`, body };
      },
      "message/openInEditor": () => ({ opened: true }),
      // An edited message's answers changed no file an undo could restore, unless a test says otherwise.
      "message/answerFiles": () => ({ answers: 1, undoable: 0 }),
      "turn/regenerate": () => ({ messageId: `regen-${nextMessageId++}` }),
      "turn/restore": () => ({ done: 1, skipped: 0, conflicts: 0 }),
      "turn/review": () => ({ opened: true }),
      "turn/applyToFolder": () => ({ agent: "alpha", applied: 1, same: 0, conflicts: 1, opened: 0, skipped: 1, unsaved: 0 }),
      "terminal/snapshot": () => ({ known: false, output: "", truncated: false }),
      "terminal/show": () => ({ shown: true }),
      "command/run": () => ({ done: true }),
      // Editor actions succeed; the tests read what was asked from `posted` (`requests("editor/…")`).
      "editor/openDiff": () => ({ opened: true }),
      "editor/openLocation": () => ({ opened: true }),
      "editor/insert": () => ({ inserted: true }),
      "editor/openLink": () => ({ opened: true }),
      // `@file` completion: the fake workspace's files whose path holds the word (the real host ranks them fuzzy).
      "files/find": ({ query }) => ({
        files: FAKE_FILES
          .filter((f) => f.toLowerCase().includes(query.replace(/[:#].*$/, "").toLowerCase()))
          .map((relative) => ({ path: `/work/${relative}`, relative })),
      }),
      "channels/list": () => ({ channels: host.channels, agents: init.agents ?? host.open.channel.members.map((m) => m.name) }),
      // Rename and delete as the host does them: the change, then `channel/changed` / `channels/changed`, then the
      // answer. Refusals (#general, busy, taken names) are set up by the tests that need them.
      "channel/rename": ({ id, name }) => {
        const found = host.channels.find((c) => c.id === id);
        if (!found) return { error: { code: "channel/notFound", message: `There is no channel ${id}.` } };
        const renamed = { ...found, name: name.trim().replace(/^#/, "") };
        host.channels = host.channels.map((c) => (c.id === id ? renamed : c));
        if (host.open.channel.id === id) {
          host.open = { ...host.open, channel: { ...host.open.channel, name: renamed.name } };
          host.emit("channel/changed", host.open.channel);
        }
        host.emit("channels/changed", { channels: host.channels });
        return renamed;
      },
      "channel/delete": ({ id }) => {
        host.channels = host.channels.filter((c) => c.id !== id);
        host.emit("channels/changed", { channels: host.channels });
        return { deleted: true };
      },
      "channel/read": ({ channelId }) => {
        host.channels = host.channels.map((c) => (c.id === channelId ? { ...c, unread: 0 } : c));
        return { unread: 0 };
      },
    },
    deliver(message) {
      window.postMessage(message, "*");
    },
    emit(name, payload) {
      host.deliver(/** @type {HostToWebview} */ ({ kind: "event", name, payload }));
    },
    /** Sends a host request (`test/*`) to the webview; resolves with its response. */
    request(method, params) {
      const id = nextHostRequestId++;
      return new Promise((resolve) => {
        host.pendingHostRequests.set(id, resolve);
        host.deliver(/** @type {HostToWebview} */ ({ kind: "request", id, method, params }));
      });
    },
    /** The params of every request the webview posted for `method`. */
    requests(method) {
      return host.posted.filter((m) => m.kind === "request" && m.method === method).map((m) => ("params" in m ? m.params : undefined));
    },
    /** Resolves on the next message the webview posts. */
    nextPost() {
      return new Promise((resolve) => waiting.push({ resolve }));
    },
  };

  /** @param {Extract<WebviewToHost, { kind: "request" }>} message */
  function answer(message) {
    const handler = /** @type {((p: unknown) => unknown) | undefined} */ (host.handlers[message.method]);
    /** @param {unknown} out @returns {HostToWebview} */
    const replyOf = (out) => {
      const error = out && typeof out === "object" && "error" in out ? /** @type {{ error: ErrorInfo }} */ (out).error : undefined;
      return error ? { kind: "response", id: message.id, error } : { kind: "response", id: message.id, result: out };
    };
    /** @param {unknown} err @returns {HostToWebview} */
    const failed = (err) => ({ kind: "response", id: message.id, error: { code: "host/failed", message: String(err) } });
    /** @type {HostToWebview | Promise<HostToWebview>} */
    let reply;
    try {
      const refused = host.refuse?.methods.includes(message.method) ? { error: host.refuse.error } : undefined;
      const out = refused ?? (handler ? handler(message.params) : { error: { code: "host/unknownMethod", message: message.method } });
      reply = out instanceof Promise ? out.then(replyOf, failed) : replyOf(out);
    } catch (err) {
      reply = failed(err);
    }
    void Promise.resolve(reply).then((r) => setTimeout(() => host.deliver(r), host.delayMs));
  }

  window.__host = host;
  let acquired = false;
  window.acquireVsCodeApi = () => {
    if (acquired) throw new Error("An instance of the VS Code API has already been acquired");
    acquired = true;
    return {
      /** @param {WebviewToHost} message */
      postMessage(message) {
        const copy = structuredClone(message);
        host.posted.push(copy);
        for (const w of waiting.splice(0)) w.resolve(copy);
        if (copy.kind === "request") answer(copy);
        if (copy.kind === "response") {
          const resolve = host.pendingHostRequests.get(copy.id);
          host.pendingHostRequests.delete(copy.id);
          resolve?.(copy);
        }
      },
      getState: () => host.state,
      /** @param {unknown} state */
      setState(state) {
        host.state = structuredClone(state);
        host.states.push(host.state);
        return state;
      },
    };
  };

  /** @type {{ type: string, directive: string, blocked: string, sample: string }[]} */
  const violations = [];
  window.__cspViolations = violations;
  document.addEventListener("securitypolicyviolation", (e) => {
    violations.push({ type: "csp", directive: e.violatedDirective, blocked: e.blockedURI, sample: e.sample });
  });
}
