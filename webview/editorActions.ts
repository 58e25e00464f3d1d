/**
 * What agent output in the view can ask of the editor (issue 6): open a tool call's diff or location, insert a code
 * block at the cursor, open a link. Each is one host request (`editor/*` in `src/shared/protocol`); the view never
 * navigates or touches files itself. Components reach them through {@link EditorContext}.
 */
import { createContext } from "preact";
import type { ToolCallDiff, ToolCallLocation } from "../src/shared/protocol";
import type { HostConnection } from "./host";

/** Editor actions; each resolves whether the host did it (false when it refused, failed or did not answer). */
export interface EditorActions {
  openDiff(diff: ToolCallDiff): Promise<boolean>;
  openLocation(location: ToolCallLocation): Promise<boolean>;
  insert(text: string): Promise<boolean>;
  openLink(href: string): Promise<boolean>;
  /** Opens the diff of a file a turn changed (`turn/fileDiff`): its text before the turn against the file now. */
  fileDiff(messageId: string, path: string): Promise<boolean>;
}

/** Does nothing: the default outside an `EditorContext.Provider` (tests of single components). */
const NONE: EditorActions = {
  openDiff: async () => false,
  openLocation: async () => false,
  insert: async () => false,
  openLink: async () => false,
  fileDiff: async () => false,
};

/** The editor actions of the view (`main.tsx` provides the host's). */
export const EditorContext = createContext<EditorActions>(NONE);

/** Editor actions over the host connection; a host error reads as `false` (the host logs why). */
export function hostEditorActions(host: HostConnection): EditorActions {
  const ask = async (run: () => Promise<boolean>): Promise<boolean> => {
    try {
      return await run();
    } catch {
      return false;
    }
  };
  return {
    openDiff: (diff) => ask(async () => (await host.request("editor/openDiff", { path: diff.path, oldText: diff.oldText, newText: diff.newText })).opened),
    openLocation: (location) => ask(async () => (await host.request("editor/openLocation", location.line === undefined ? { path: location.path } : { path: location.path, line: location.line })).opened),
    insert: (text) => ask(async () => (await host.request("editor/insert", { text })).inserted),
    openLink: (href) => ask(async () => (await host.request("editor/openLink", { href })).opened),
    fileDiff: (messageId, path) => ask(async () => (await host.request("turn/fileDiff", { messageId, path })).opened),
  };
}
