/** The channel view: header, config banner, history, composer, and a status line for screen readers. */
import "@vscode-elements/elements/dist/vscode-button/index.js";
import type { HostCommand, ViewState } from "../channelStore";
import { ChannelHeader } from "./ChannelHeader";
import { Composer } from "./Composer";
import { ConfigBanner } from "./ConfigBanner";
import { History } from "./History";
import type { AnswerPermission } from "./PermissionCard";

/** The actions the view takes; stable across renders so memoized messages are not re-rendered. */
export interface AppActions {
  send: (text: string) => Promise<boolean>;
  answerPermission: AnswerPermission;
  stop: (messageId: string) => void;
  runCommand: (command: HostCommand) => void;
  reopen: () => void;
  saveDraft: (draft: string) => void;
}

/** Renders one `ViewState`; `initialDraft` is the composer text restored from the webview state. */
export function App({ state, actions, initialDraft }: { state: ViewState; actions: AppActions; initialDraft: string }) {
  const channelName = state.channel?.name ?? "general";
  return (
    <div class="app" data-phase={state.phase} data-snapshot={state.snapshot}>
      <ChannelHeader channel={state.channel} />
      <ConfigBanner config={state.config} error={state.commandError} run={actions.runCommand} />
      {state.phase === "failed" ? (
        <div class="open-error" role="alert">
          <p>Could not open #{channelName}: {state.openError}</p>
          <vscode-button secondary onClick={actions.reopen}>
            Retry
          </vscode-button>
        </div>
      ) : state.phase === "opening" && !state.channel ? (
        <div class="history history-loading">Opening #{channelName}…</div>
      ) : (
        <History channelName={channelName} messages={state.messages} answerPermission={actions.answerPermission} stop={actions.stop} />
      )}
      <Composer
        channelName={channelName}
        initialDraft={initialDraft}
        send={actions.send}
        saveDraft={actions.saveDraft}
        sendError={state.sendError}
      />
      <div class="visually-hidden" role="status" aria-live="polite">
        {state.announcement}
      </div>
    </div>
  );
}
