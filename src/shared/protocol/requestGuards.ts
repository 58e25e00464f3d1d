/**
 * The guard of the webview's requests (issue 17, "The webview can ask only for what its UI does"): per method of
 * {@link WebviewRequests}, a validator of its params — their types, lengths, the shape of their ids and their enums.
 * The host checks every request with it where the request enters (`src/app/webviewApi/viewGuard.ts`), before any
 * handler sees it, and answers a refusal as an error reply.
 *
 * A validator returns a fresh object holding only the fields the protocol names (an unknown field, a non-plain object
 * or a prototype name such as `__proto__` is refused), so a handler never sees what the UI cannot send. The table is
 * a mapped type over the request map: the compiler demands one validator per method, as it does one handler.
 *
 * What a guard cannot know (which channel the view shows, whether a message or a path is one the view was shown) is
 * the host's policy, checked after it (`viewGuard.ts`). Part of the protocol: imports only its own files.
 */
import type { Attachment, AttachmentRequest, LineRange, ProblemView, ToolCallDiff, ToolCallLocation } from "./parts";
import type { SessionChange } from "./views";
import type { WebviewRequestMethod, WebviewRequests } from "./messages";

/** A request's params the guard refused; `problem` says which field and why (English, for the log and the detail). */
export class InvalidParams extends Error {
  constructor(readonly problem: string) {
    super(problem);
  }
}

/** Checks one value; returns it (a fresh copy for objects) or throws {@link InvalidParams}. `at` names it. */
export type Check<T> = (value: unknown, at: string) => T;

/** The host commands the webview's buttons run (`command/run`): exactly the ones its UI offers. */
export const WEBVIEW_COMMANDS = ["createConfig", "openConfig", "manageTrust", "searchHistory"] as const;

/** A ULID as the store makes them (channel and message ids): 26 characters of Crockford's base 32. */
export const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/** A permission request id as the turn executor makes them: `<turn ULID>-<attempt>-<counter>`. */
export const PERMISSION_REQUEST_ID = /^[0-9A-HJKMNP-TV-Z]{26}-\d{1,6}-\d{1,12}$/;

/** The longest file path a request may name, in characters. */
export const PATH_MAX = 4096;

/** The longest text a request may carry (a message, a diff side), in characters. */
export const TEXT_MAX = 16 * 1024 * 1024;

/** The longest code block `editor/insert` takes, in characters (a larger block is copied instead). */
export const INSERT_MAX = 1024 * 1024;

const CONTROL = /[\u0000-\u001f\u007f]/;

const fail = (at: string, what: string): never => {
  throw new InvalidParams(`${at}: ${what}`);
};

/** A string of `min`..`max` characters (optionally matching `pattern`; `line`: without control characters). */
export function str(options: { min?: number; max: number; pattern?: RegExp; line?: boolean }): Check<string> {
  const { min = 1, max, pattern, line } = options;
  return (v, at) => {
    if (typeof v !== "string") return fail(at, "expected a string");
    if (v.length < min) return fail(at, min === 1 ? "must not be empty" : `shorter than ${min} characters`);
    if (v.length > max) return fail(at, `longer than ${max} characters`);
    if (line && CONTROL.test(v)) return fail(at, "contains control characters");
    if (pattern && !pattern.test(v)) return fail(at, `not of the expected shape`);
    return v;
  };
}

/** An id of the store (a channel or a message): a ULID. */
export const ulid: Check<string> = str({ min: 26, max: 26, pattern: ULID });
/** A name (a channel as typed, an agent, a session setting's id): one line of at most 1,024 characters. */
export const name: Check<string> = str({ max: 1024, line: true });
/** A file path: one line, at most {@link PATH_MAX} characters. */
export const filePath: Check<string> = str({ max: PATH_MAX, line: true });

/** An integer within `min`..`max`. */
export function int(min: number, max: number): Check<number> {
  return (v, at) => (typeof v === "number" && Number.isInteger(v) && v >= min && v <= max ? v : fail(at, `expected an integer from ${min} to ${max}`));
}

/** A boolean. */
export const bool: Check<boolean> = (v, at) => (typeof v === "boolean" ? v : fail(at, "expected true or false"));

/** One of `values`. */
export function oneOf<const T extends readonly string[]>(values: T): Check<T[number]> {
  return (v, at) => (typeof v === "string" && values.includes(v) ? (v as T[number]) : fail(at, `expected one of ${values.join(", ")}`));
}

/** `check`, or `null`. */
export function nullable<T>(check: Check<T>): Check<T | null> {
  return (v, at) => (v === null ? null : check(v, at));
}

/** An array of at most `max` items, each checked. */
export function list<T>(item: Check<T>, max: number): Check<T[]> {
  return (v, at) => {
    if (!Array.isArray(v)) return fail(at, "expected a list");
    if (v.length > max) return fail(at, `more than ${max} items`);
    return v.map((x, i) => item(x, `${at}[${i}]`));
  };
}

type Fields<T> = { [K in keyof T]-?: Check<T[K]> | Optional<T[K]> };
interface Optional<T> {
  optional: Check<Exclude<T, undefined>>;
}

/** Marks a field of {@link obj} optional: absent (or `undefined`) is fine, else `check` applies. */
export function optional<T>(check: Check<T>): Optional<T | undefined> {
  return { optional: check as Check<Exclude<T | undefined, undefined>> };
}

/**
 * A plain object with exactly these fields (optional ones may be absent): a copy of them, checked. Refuses any other
 * own key (`__proto__`, `constructor`, a field the protocol does not name) and objects with another prototype.
 */
export function obj<T extends object>(fields: Fields<T>): Check<T> {
  const known = Object.keys(fields);
  return (v, at) => {
    if (typeof v !== "object" || v === null || Array.isArray(v)) return fail(at, "expected an object");
    const proto = Object.getPrototypeOf(v) as unknown;
    if (proto !== Object.prototype && proto !== null) return fail(at, "expected a plain object");
    const extra = Object.keys(v).find((key) => !known.includes(key));
    if (extra !== undefined) return fail(`${at}.${extra}`, "not a field of this request");
    const out: Record<string, unknown> = {};
    for (const key of known) {
      const rule = (fields as Record<string, Check<unknown> | Optional<unknown>>)[key]!;
      const value = (v as Record<string, unknown>)[key];
      if (typeof rule === "function") out[key] = rule(value, `${at}.${key}`);
      else if (value !== undefined) out[key] = rule.optional(value, `${at}.${key}`);
    }
    return out as T;
  };
}

const sessionChange: Check<SessionChange> = (v, at) => {
  const kind = typeof v === "object" && v !== null ? (v as { kind?: unknown }).kind : undefined;
  if (kind === "mode") return obj<Extract<SessionChange, { kind: "mode" }>>({ kind: oneOf(["mode"] as const), modeId: name })(v, at);
  if (kind === "model") return obj<Extract<SessionChange, { kind: "model" }>>({ kind: oneOf(["model"] as const), modelId: name })(v, at);
  if (kind === "config") {
    const value: Check<string | boolean> = (x, where) => (typeof x === "boolean" ? x : name(x, where));
    return obj<Extract<SessionChange, { kind: "config" }>>({ kind: oneOf(["config"] as const), configId: name, value })(v, at);
  }
  return fail(`${at}.kind`, "expected mode, config or model");
};

// Attachments (issue 21): checked where they enter, from the webview (`channel/send`) and from LevelDB (a user
// message's `attachments`, `src/store/records.ts`). Shapes and bounds only; what a shape cannot tell (a path outside
// the workspace, an image type agents do not take, an image too large once decoded) the host refuses with a sentence
// for the user (`src/app/attachments.ts`).
/** Most attachments one message carries. */
export const MAX_ATTACHMENTS = 20;

/** Most characters of a file's or a selection's text kept on a message (a larger file is sent as a link only). */
export const ATTACHMENT_TEXT_MAX = 256 * 1024;

/** Largest image one message may carry, in bytes once decoded (Claude's API takes at most 5 MB per image). */
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;

/** The longest base64 text of an image the guard lets through (the host then checks the decoded size exactly). */
export const IMAGE_DATA_MAX = Math.ceil(IMAGE_MAX_BYTES / 3) * 4 + 4;

/** The image types an attachment may have: the ones the view shows and agents take (ACP `ImageContent`). */
export const IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;

/** Most problems one `problems` attachment lists. */
export const MAX_PROBLEMS = 100;

const LINE_MAX = 2 ** 31 - 1;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** A line range: 1-based, `start` ≤ `end`. */
export const lineRange: Check<LineRange> = (v, at) => {
  const r = obj<LineRange>({ start: int(1, LINE_MAX), end: int(1, LINE_MAX) })(v, at);
  if (r.end < r.start) return fail(`${at}.end`, "before start");
  return r;
};

const problem: Check<ProblemView> = obj<ProblemView>({
  severity: oneOf(["error", "warning", "info", "hint"] as const),
  message: str({ max: 4096 }),
  range: lineRange,
  source: optional(str({ max: 256, line: true })),
  code: optional(str({ max: 256, line: true })),
});

type FileAttachment = Extract<Attachment, { kind: "file" }>;

const image = obj<Extract<Attachment, { kind: "image" }>>({
  kind: oneOf(["image"] as const),
  name: str({ max: 256, line: true }),
  mimeType: str({ max: 128, line: true }),
  data: str({ max: IMAGE_DATA_MAX, pattern: BASE64 }),
});
const selection = obj<Extract<Attachment, { kind: "selection" }>>({
  kind: oneOf(["selection"] as const),
  path: filePath,
  range: lineRange,
  text: str({ min: 0, max: ATTACHMENT_TEXT_MAX }),
});
const problems = obj<Extract<Attachment, { kind: "problems" }>>({
  kind: oneOf(["problems"] as const),
  path: filePath,
  range: optional(lineRange),
  problems: list(problem, MAX_PROBLEMS),
});

const terminal = obj<Extract<Attachment, { kind: "terminal" }>>({
  kind: oneOf(["terminal"] as const),
  name: str({ max: 256, line: true }),
  text: str({ min: 1, max: ATTACHMENT_TEXT_MAX }),
});

function byKind<T extends { kind: string }>(checks: Record<T["kind"], Check<T>>): Check<T> {
  return (v, at) => {
    const kind = typeof v === "object" && v !== null ? (v as { kind?: unknown }).kind : undefined;
    const check = typeof kind === "string" && Object.hasOwn(checks, kind) ? checks[kind as T["kind"]] : undefined;
    if (!check) return oneOf(Object.keys(checks))(kind, `${at}.kind`) as never;
    return check(v, at);
  };
}

/** An attachment from the webview (`channel/send`). */
export const attachmentRequest: Check<AttachmentRequest> = byKind<AttachmentRequest>({
  file: obj<Omit<FileAttachment, "text" | "omitted">>({ kind: oneOf(["file"] as const), path: filePath, range: optional(lineRange) }),
  selection,
  image,
  problems,
  terminal,
});

/** The attachments of one `channel/send`: at most {@link MAX_ATTACHMENTS}. */
export const attachmentRequests: Check<AttachmentRequest[]> = list(attachmentRequest, MAX_ATTACHMENTS);

/** An attachment as a user message keeps it (LevelDB). */
export const storedAttachment: Check<Attachment> = byKind<Attachment>({
  file: obj<FileAttachment>({
    kind: oneOf(["file"] as const),
    path: filePath,
    range: optional(lineRange),
    text: optional(str({ min: 0, max: ATTACHMENT_TEXT_MAX })),
    omitted: optional(oneOf(["size", "binary"] as const)),
  }),
  selection,
  image,
  problems,
  terminal,
});

/**
 * The attachments of a stored message, each checked: a record that is not a list gives none, and an attachment that
 * is not of a known shape is left out (a damaged or newer record never reaches an agent or the view as it is).
 */
export function storedAttachments(value: unknown): Attachment[] {
  if (!Array.isArray(value)) return [];
  return value.slice(0, MAX_ATTACHMENTS).flatMap((a, i) => {
    try {
      return [storedAttachment(a, `attachments[${i}]`)];
    } catch {
      return [];
    }
  });
}

const terminalId = str({ max: 256, line: true });
const none = obj<Record<string, never>>({});

/** Per webview request method, the validator of its params (see the file comment). */
export const WEBVIEW_REQUEST_GUARDS: { readonly [M in WebviewRequestMethod]: Check<WebviewRequests[M][0]> } = {
  "channel/open": obj({ name: optional(str({ max: 256, line: true })), id: optional(ulid) }),
  "channel/older": obj({ channelId: ulid, beforeId: ulid, limit: optional(int(1, 500)) }),
  "session/configure": obj({ channelId: ulid, agent: name, change: sessionChange }),
  "channel/send": obj({ channelId: ulid, text: str({ min: 0, max: TEXT_MAX }), editOf: optional(ulid), undoAnswers: optional(bool), attachments: optional(attachmentRequests) }),
  "message/answerFiles": obj({ messageId: ulid }),
  "message/markdown": obj({ messageId: ulid }),
  "message/openInEditor": obj({ messageId: ulid }),
  "files/find": obj({ query: str({ min: 0, max: 256, line: true }) }),
  "turn/regenerate": obj({ messageId: ulid }),
  "permission/answer": obj({ requestId: str({ max: 64, pattern: PERMISSION_REQUEST_ID }), optionId: str({ max: 1024 }), remember: optional(bool) }),
  "turn/cancel": obj({ messageId: ulid }),
  "turn/retry": obj({ messageId: ulid }),
  "turn/sendNow": obj({ messageId: ulid }),
  "turn/fileDiff": obj({ messageId: ulid, path: filePath }),
  "turn/restore": obj({ messageId: ulid, action: oneOf(["keep", "undo", "redo"] as const), paths: optional(list(filePath, 10_000)) }),
  "turn/review": obj({ messageId: ulid, since: optional(bool) }),
  "turn/applyToFolder": obj({ messageId: ulid }),
  "terminal/snapshot": obj({ terminalId }),
  "terminal/show": obj({ terminalId }),
  "channels/list": none,
  "channel/create": obj({ name, description: optional(str({ min: 0, max: 4096 })), members: optional(list(name, 256)) }),
  "channel/rename": obj({ id: ulid, name }),
  "channel/delete": obj({ id: ulid }),
  "channel/join": obj({ id: ulid, agent: name }),
  "channel/leave": obj({ id: ulid, agent: name }),
  "channel/direct": obj({ agent: name }),
  "channel/read": obj({ channelId: ulid, messageId: ulid }),
  "command/run": obj({ command: oneOf(WEBVIEW_COMMANDS), channelId: optional(ulid) }),
  "editor/openDiff": obj<ToolCallDiff>({ path: filePath, oldText: nullable(str({ min: 0, max: TEXT_MAX })), newText: str({ min: 0, max: TEXT_MAX }) }),
  "editor/openLocation": obj<ToolCallLocation>({ path: filePath, line: optional(int(1, 2 ** 31 - 1)) }),
  "editor/insert": obj({ text: str({ min: 0, max: INSERT_MAX }) }),
  "editor/openLink": obj({ href: str({ max: 8192 }) }),
};

/** Whether `method` is a webview request method (an own key of the table: never `__proto__`, `toString`…). */
export function isWebviewRequestMethod(method: unknown): method is WebviewRequestMethod {
  return typeof method === "string" && Object.hasOwn(WEBVIEW_REQUEST_GUARDS, method);
}

/**
 * The params of a `method` request, checked by its guard (an absent params object counts as `{}`).
 * @throws InvalidParams naming the first field refused
 */
export function checkParams<M extends WebviewRequestMethod>(method: M, params: unknown): WebviewRequests[M][0] {
  return WEBVIEW_REQUEST_GUARDS[method](params ?? {}, "params");
}
