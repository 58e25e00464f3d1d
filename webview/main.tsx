/**
 * Webview entry point: connects to the host, opens the last channel (or `#general`), and renders the app once
 * per animation frame at most (the store batches host events per frame and calls `render` synchronously).
 */
import { render } from "preact";
import { ChannelStore, type PersistedState, storeStats } from "./channelStore";
import { type AppActions, App } from "./components/App";
import { HostConnection, vsCodePort } from "./host";
import { markdownStats } from "./markdown";
import { createTestHandlers } from "./testHooks";
import "./styles/base.css";
import "./styles/messages.css";
import "./styles/cards.css";

const vscode = acquireVsCodeApi();
let persisted = readPersisted(vscode.getState());

const host = new HostConnection(vsCodePort(vscode));
const store = new ChannelStore(host, persist);
let lastSend: Promise<boolean> | undefined;

const actions: AppActions = {
  send: (text) => (lastSend = store.send(text)),
  answerPermission: (requestId, optionId) => store.answerPermission(requestId, optionId),
  stop: (messageId) => void store.stop(messageId),
  runCommand: (command) => void store.runCommand(command),
  reopen: () => void store.open(persisted.channel),
  saveDraft: (draft) => persist({ draft }),
};

const root = document.getElementById("root") ?? document.body;
const initialDraft = persisted.draft ?? "";
const paint = (): void => render(<App state={store.current} actions={actions} initialDraft={initialDraft} />, root);
store.subscribe(paint);
paint();

host.handleRequests(createTestHandlers({ flush: () => store.flushNow(), lastSend: () => lastSend }));
host.start();
store.start(persisted.channel);

/** Read-only counters for tests and debugging: store flushes and Markdown renders. */
Object.defineProperty(window, "__sidekicksStats", { value: { store: storeStats, markdown: markdownStats } });

function persist(patch: PersistedState): void {
  persisted = { ...persisted, ...patch };
  vscode.setState(persisted);
}

/** Validates what `getState` returned: a previous version of the webview may have stored anything. */
function readPersisted(value: unknown): PersistedState {
  if (typeof value !== "object" || value === null) return {};
  const v = value as Record<string, unknown>;
  return {
    channel: typeof v.channel === "string" ? v.channel : undefined,
    draft: typeof v.draft === "string" ? v.draft : undefined,
  };
}
