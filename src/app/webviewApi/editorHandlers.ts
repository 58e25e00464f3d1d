import type { EditorPort } from "../EditorPort";
import { fileFinder } from "../fileSuggestions";
import type { WebviewRequestHandlers } from "../WebviewBridge";

/** The longest text the webview may hand to the editor in one request (diff sides, inserted text), in characters. */
export const EDITOR_TEXT_LIMIT = 16 * 1024 * 1024;

type EditorMethods = "editor/openDiff" | "editor/openLocation" | "editor/insert" | "editor/openLink" | "command/run" | "files/find";

/**
 * The webview's editor requests (`editor/*`, `command/run`), validated here (the webview is a trust boundary) and
 * handed to the `EditorPort`. Malformed params, or an editor without the method, answer `false` instead of throwing.
 */
export function editorHandlers(editor: EditorPort): Pick<WebviewRequestHandlers, EditorMethods> {
  const isText = (v: unknown): v is string => typeof v === "string" && v.length <= EDITOR_TEXT_LIMIT;
  const isPath = (v: unknown): v is string => typeof v === "string" && v.trim() !== "" && v.length <= 4096 && !v.includes("\0");
  const refuse = (what: string): false => {
    editor.log("warn", `webview: ${what} refused: malformed request`);
    return false;
  };
  const find = fileFinder(editor);
  return {
    "files/find": async ({ query }) => ({ files: await find(query) }),
    "command/run": async ({ command, channelId }) => {
      await editor.runCommand(command, channelId);
      return { done: true };
    },
    "editor/openDiff": async ({ path, oldText, newText }) => {
      if (!isPath(path) || !isText(newText) || !(oldText === null || isText(oldText))) return { opened: refuse("open diff") };
      return { opened: (await editor.openDiff?.({ path, oldText, newText })) ?? false };
    },
    "editor/openLocation": async ({ path, line }) => {
      const validLine = line === undefined || (typeof line === "number" && Number.isInteger(line) && line >= 1);
      if (!isPath(path) || !validLine) return { opened: refuse("open location") };
      return { opened: (await editor.openLocation?.(line === undefined ? { path } : { path, line })) ?? false };
    },
    "editor/insert": async ({ text }) => {
      if (!isText(text) || text === "") return { inserted: refuse("insert") };
      return { inserted: (await editor.insertText?.(text)) ?? false };
    },
    "editor/openLink": async ({ href }) => {
      if (typeof href !== "string" || href.trim() === "" || href.length > 8192) return { opened: refuse("open link") };
      return { opened: (await editor.openLink?.(href)) ?? false };
    },
  };
}
