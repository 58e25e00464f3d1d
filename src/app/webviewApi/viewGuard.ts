import { realpath } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import * as l10n from "@vscode/l10n";
import { GENERAL } from "../../channels/ChannelDirectory";
import { SidekicksError } from "../../shared/errors";
import type { MessageView, PermissionPart, WebviewRequestMethod, WebviewRequests } from "../../shared/protocol";
import { checkParams, InvalidParams } from "../../shared/protocol/requestGuards";
import { linkTarget, resolveLinkPath } from "../../workspace/linkTarget";
import type { WebviewRequestHandlers } from "../WebviewBridge";
import type { WebviewApiPorts } from "./ports";

/** What one connected view (the side view, an editor tab) has open, as the host knows it. */
export interface ViewState {
  /** The channel of the view's last answered `channel/open`: the one it shows. */
  channelId: string | undefined;
}

/** Folders under the home folder that hold secrets: never opened for the webview, even when a tool call names them. */
const SECRET_DIRS = [".ssh", ".gnupg", ".aws", ".kube", ".docker"];

type Policies = { [M in WebviewRequestMethod]?: (params: WebviewRequests[M][0], next: (params: WebviewRequests[M][0]) => Promise<WebviewRequests[M][1]>) => Promise<WebviewRequests[M][1]> };

/**
 * The host's side of the webview trust boundary (issue 17, "The webview can ask only for what its UI does"), for one
 * connected view. Every request is checked where it enters, before `handlers` see it:
 *
 * 1. its params by the protocol's guard (`requestGuards.ts`: types, lengths, ULID ids, enums; extra fields refused);
 * 2. then what the guard cannot know, against this view and the store:
 *    - `channel/older`, `session/configure`, `channel/read`: only the channel this view shows; `channel/read` only with
 *      a message of that channel (no read mark "far in the future");
 *    - `turn/*`, `message/*`: only a message of the channel this view shows; `turn/regenerate` only an agent's answer,
 *      `message/answerFiles` only a user message;
 *    - `channel/send` with `editOf` (Edit and resend): only to the shown channel, edited from a user message of it;
 *    - `permission/answer`: only a request pending in the channel this view shows, with an option the request
 *      offered; `remember` only with the option the card's Sidekicks rule buttons use (the first one-time allow or
 *      reject of a request with a title), as the UI offers it;
 *    - `channel/delete`: only after the host's own modal confirmation (the editor port's `confirm`); declined, nothing
 *      is deleted and the answer says `deleted: false`;
 *    - `editor/openLocation` and file links of `editor/openLink`: only a file inside the workspace roots (its real
 *      path too: no symlink out), or a path a tool call or files card of a message of the shown channel names; never
 *      a secret folder of the home folder (`~/.ssh`…);
 *    - `editor/insert`: only text that appears in a message of the shown channel (its text, thoughts or tool output:
 *      where the view draws code blocks with an Insert button), compared exactly or, for code blocks Markdown
 *      re-indents (lists, quotes), with the whitespace and quote markers at line starts ignored; at most `INSERT_MAX`.
 *
 * A refusal is an error reply (`webview/invalidRequest`, `webview/refused`) that says why, and one log line.
 */
export function guardedHandlers(handlers: WebviewRequestHandlers, ports: WebviewApiPorts, started: () => Promise<void>, view: ViewState): WebviewRequestHandlers {
  const { history, editor } = ports;
  const refuse = (method: string, why: string): never => {
    editor.log("warn", `webview: ${method} refused: ${why}`);
    throw new SidekicksError("webview/refused", why);
  };
  const shown = (method: string, channelId: string): void => {
    if (view.channelId === undefined || channelId !== view.channelId) refuse(method, l10n.t("That channel is not the one this view shows."));
  };
  /** The message `messageId` of the channel shown when the request came (`channelId`), or a refusal. */
  const messageOf = async (method: string, channelId: string | undefined, messageId: string): Promise<MessageView | undefined> => {
    await started();
    const channels = history.current;
    if (!channels) return undefined; // the handler says the history is not open
    const message = channelId === undefined ? undefined : await channels.messages.message(channelId, messageId);
    return message ?? refuse(method, l10n.t("That message is not in the channel this view shows."));
  };
  const inView = async (method: string, messageId: string): Promise<void> => void (await messageOf(method, view.channelId, messageId));
  const files = async (method: string, file: string, channelId: string | undefined): Promise<void> => {
    const why = await fileRefusal(file, ports.workspaceRoots?.() ?? [], async (absolute) => {
      await started();
      const channels = history.current;
      if (!channels || channelId === undefined) return false;
      return (await channels.messages.find(channelId, (m) => namesFile(m, file, absolute))) !== undefined;
    });
    if (why) refuse(method, why);
  };

  const policies: Policies = {
    "channel/open": async (params, next) => {
      const opened = await next(params);
      view.channelId = opened.channel.id;
      return opened;
    },
    "channel/older": (params, next) => (shown("channel/older", params.channelId), next(params)),
    "session/configure": (params, next) => (shown("session/configure", params.channelId), next(params)),
    "channel/read": async (params, next) => {
      shown("channel/read", params.channelId);
      await messageOf("channel/read", params.channelId, params.messageId);
      return next(params);
    },
    "channel/send": async (params, next) => {
      if (params.editOf === undefined) return next(params);
      shown("channel/send", params.channelId);
      const original = await messageOf("channel/send", params.channelId, params.editOf);
      if (original && original.author.kind !== "user") refuse("channel/send", l10n.t("Only your own messages can be edited and sent again."));
      return next(params);
    },
    "message/markdown": async (params, next) => (await inView("message/markdown", params.messageId), next(params)),
    "message/openInEditor": async (params, next) => (await inView("message/openInEditor", params.messageId), next(params)),
    "message/answerFiles": async (params, next) => {
      const request = await messageOf("message/answerFiles", view.channelId, params.messageId);
      if (request && request.author.kind !== "user") refuse("message/answerFiles", l10n.t("Only your own messages can be edited and sent again."));
      return next(params);
    },
    "turn/regenerate": async (params, next) => {
      const answer = await messageOf("turn/regenerate", view.channelId, params.messageId);
      if (answer && answer.author.kind !== "agent") refuse("turn/regenerate", l10n.t("Only an agent's answer can be regenerated."));
      return next(params);
    },
    "turn/cancel": async (params, next) => (await inView("turn/cancel", params.messageId), next(params)),
    "turn/retry": async (params, next) => (await inView("turn/retry", params.messageId), next(params)),
    "turn/sendNow": async (params, next) => (await inView("turn/sendNow", params.messageId), next(params)),
    "turn/fileDiff": async (params, next) => (await inView("turn/fileDiff", params.messageId), next(params)),
    "turn/restore": async (params, next) => (await inView("turn/restore", params.messageId), next(params)),
    "turn/review": async (params, next) => (await inView("turn/review", params.messageId), next(params)),
    "turn/applyToFolder": async (params, next) => (await inView("turn/applyToFolder", params.messageId), next(params)),
    "permission/answer": (params, next) => {
      const pending = history.current?.turns.pendingPermission(params.requestId);
      if (!pending) return next(params); // answered meanwhile, or never asked here: `accepted: false`
      const method = "permission/answer";
      if (pending.channelId !== view.channelId) refuse(method, l10n.t("That permission request is not in the channel this view shows."));
      if (!pending.part.options.some((o) => o.optionId === params.optionId)) refuse(method, l10n.t("That is not one of the options this permission request offers."));
      if (params.remember && !ruleOptions(pending.part).includes(params.optionId)) refuse(method, l10n.t("Sidekicks remembers only the one-time allow or reject its card offers to remember."));
      return next(params);
    },
    "channel/delete": async (params, next) => {
      await started();
      const summary = (await history.require().directory.list()).find((c) => c.id === params.id);
      // #general, a busy channel, a channel gone: the handler refuses with its own reason, nothing to confirm.
      if (!summary || summary.name === GENERAL || summary.busy) return next(params);
      const label = summary.kind === "direct" ? summary.name : `#${summary.name}`;
      if (!editor.confirm) refuse("channel/delete", l10n.t("Sidekicks cannot ask you to confirm here, so {0} was not deleted.", label));
      const remove = l10n.t("Delete");
      const yes = await editor.confirm!(l10n.t("Delete {0} and its history?", label), l10n.t("Its messages are removed from this workspace's Sidekicks history. This cannot be undone."), remove);
      if (!yes) {
        editor.log("info", `webview: channel/delete of ${label} declined by the user`);
        return { deleted: false };
      }
      return next(params);
    },
    "editor/openLocation": async (params, next) => (await files("editor/openLocation", params.path, view.channelId), next(params)),
    "editor/openLink": async (params, next) => {
      const target = linkTarget(params.href);
      if (target.kind === "file") {
        const file = resolveLinkPath(target, ports.workspaceRoots?.()[0]) ?? target.path;
        await files("editor/openLink", file, view.channelId);
      }
      return next(params);
    },
    "editor/insert": async (params, next) => {
      if (params.text === "") return next(params); // refused by the handler, as before
      const channelId = view.channelId;
      await started();
      const channels = history.current;
      const found = channels && channelId !== undefined ? await channels.messages.find(channelId, (m) => showsText(m, params.text)) : undefined;
      if (!found) refuse("editor/insert", l10n.t("Only code shown in this channel's messages can be inserted."));
      return next(params);
    },
  };

  const entries = (Object.keys(handlers) as WebviewRequestMethod[]).map((method) => {
    const handler = handlers[method] as (params: unknown) => Promise<unknown>;
    const policy = policies[method] as ((params: unknown, next: (p: unknown) => Promise<unknown>) => Promise<unknown>) | undefined;
    const guarded = async (params: unknown): Promise<unknown> => {
      let checked: unknown;
      try {
        checked = checkParams(method, params);
      } catch (err) {
        if (!(err instanceof InvalidParams)) throw err;
        editor.log("warn", `webview: ${method} refused: ${err.problem}`);
        throw new SidekicksError("webview/invalidRequest", l10n.t("The Sidekicks view sent a request the host refuses ({0}).", method), err.problem);
      }
      return policy ? policy(checked, handler) : handler(checked);
    };
    return [method, guarded] as const;
  });
  return Object.fromEntries(entries) as unknown as WebviewRequestHandlers;
}

/** The options of a request the card's Sidekicks rule buttons answer with (`PermissionCard.tsx`, `SidekicksRule`). */
function ruleOptions(part: PermissionPart): string[] {
  if (part.title.trim() === "") return [];
  return (["allow_once", "reject_once"] as const).flatMap((kind) => part.options.find((o) => o.kind === kind)?.optionId ?? []);
}

/**
 * Why the webview may not open `file`, or undefined when it may: inside a workspace root (by its real path too), or
 * `named(absolute)` (a message of the shown channel names it); never inside a secret folder of the home folder.
 */
async function fileRefusal(file: string, roots: readonly string[], named: (absolute: string) => Promise<boolean>): Promise<string | undefined> {
  const absolute = path.isAbsolute(file) ? path.normalize(file) : roots[0] ? path.resolve(roots[0], file) : undefined;
  if (absolute === undefined) return l10n.t("{0} is not inside the workspace, and no tool call of this channel names it.", file);
  const real = await realpath(absolute).catch(() => absolute);
  const home = os.homedir();
  if ([absolute, real].some((p) => SECRET_DIRS.some((dir) => inside(path.join(home, dir), p)))) return l10n.t("{0} is in a folder of secrets: Sidekicks never opens it from the view.", file);
  const realRoots = await Promise.all(roots.map((root) => realpath(root).catch(() => root)));
  // A symlink inside a root that leads out of every root does not count as inside (its target is what would open).
  const realInside = real === absolute || [...roots, ...realRoots].some((root) => inside(root, real));
  if (roots.some((root) => inside(root, absolute)) && realInside) return undefined;
  if (await named(absolute)) return undefined;
  return l10n.t("{0} is not inside the workspace, and no tool call of this channel names it.", file);
}

/** Whether `file` is `folder` or inside it (absolute paths). */
function inside(folder: string, file: string): boolean {
  const rel = path.relative(folder, file);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/** Whether a tool call (its locations or diffs) or a files card of `message` names `file` (as sent, or `absolute`). */
function namesFile(message: MessageView, file: string, absolute: string): boolean {
  const same = (p: string) => p === file || p === absolute;
  return message.parts.some((part) => {
    if (part.type === "toolCall") return (part.locations ?? []).some((l) => same(l.path)) || (part.diffs ?? []).some((d) => same(d.path));
    if (part.type === "files") return part.files.some((f) => same(f.path));
    return false;
  });
}

/** Whether `text` appears in what `message` shows as text (its text, thoughts, tool output, embedded files): see {@link guardedHandlers}. */
function showsText(message: MessageView, text: string): boolean {
  const shown = message.parts.flatMap((part) => {
    if (part.type === "text" || part.type === "thought") return [part.text];
    if (part.type === "content") return part.block.kind === "file" ? [part.block.text] : [];
    if (part.type !== "toolCall") return [];
    // An embedded file's text is shown as a code block, with Insert, like the tool's text output.
    return [part.content ?? "", ...(part.blocks ?? []).flatMap((b) => (b.kind === "file" ? [b.text] : []))];
  });
  if (shown.some((s) => s.includes(text))) return true;
  const wanted = loose(text);
  return wanted !== "" && shown.some((s) => loose(s).includes(wanted));
}

/** `text` without whitespace, and without the quote markers and indentation at the start of its lines. */
function loose(text: string): string {
  return text.replace(/^[\s>]+/gm, "").replace(/\s+/g, "");
}
