/** The message composer: a textarea and a Send button. Enter sends, Shift+Enter inserts a newline. */
import "@vscode-elements/elements/dist/vscode-button/index.js";
import { useEffect, useRef, useState } from "preact/hooks";

/** How long typing must pause before the draft is saved with `setState`, in milliseconds. */
const DRAFT_SAVE_DELAY_MS = 300;

interface Props {
  channelName: string;
  initialDraft: string;
  /** Sends the text; resolves `true` when the host accepted it (only then is the text cleared). */
  send: (text: string) => Promise<boolean>;
  saveDraft: (draft: string) => void;
  sendError: string | undefined;
}

/**
 * `#composer` holds a plain `<textarea>` (so the text is reachable as `#composer textarea`) and a `vscode-button`
 * with class `send`. Empty text is never sent; a refused send keeps the text and shows why above the composer.
 */
export function Composer({ channelName, initialDraft, send, saveDraft, sendError }: Props) {
  const textarea = useRef<HTMLTextAreaElement>(null);
  const [sending, setSending] = useState(false);
  const inFlight = useRef(false);
  const [empty, setEmpty] = useState(initialDraft.trim() === "");
  const saveTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(saveTimer.current), []);

  const scheduleSave = (): void => {
    clearTimeout(saveTimer.current);
    saveTimer.current = setTimeout(() => saveDraft(textarea.current?.value ?? ""), DRAFT_SAVE_DELAY_MS);
  };

  const submit = async (): Promise<void> => {
    const el = textarea.current;
    if (!el || inFlight.current) return;
    const text = el.value;
    if (text.trim() === "") return;
    inFlight.current = true;
    setSending(true);
    try {
      const accepted = await send(text);
      if (accepted && el.value === text) {
        el.value = "";
        setEmpty(true);
        clearTimeout(saveTimer.current);
        saveDraft("");
      }
    } finally {
      inFlight.current = false;
      setSending(false);
      el.focus();
    }
  };

  const onKeyDown = (event: KeyboardEvent): void => {
    if (event.key !== "Enter" || event.shiftKey || event.isComposing || event.keyCode === 229) return;
    event.preventDefault();
    void submit();
  };

  const onInput = (): void => {
    setEmpty((textarea.current?.value ?? "").trim() === "");
    scheduleSave();
  };

  return (
    <div class="composer-area">
      {sendError && (
        <div class="send-error" role="alert">
          {sendError}
        </div>
      )}
      <div id="composer" class={sending ? "sending" : ""}>
        <textarea
          ref={textarea}
          rows={1}
          defaultValue={initialDraft}
          placeholder={`Message #${channelName} — @agent to mention`}
          aria-label={`Message #${channelName}`}
          aria-invalid={sendError ? true : undefined}
          onKeyDown={onKeyDown}
          onInput={onInput}
        />
        <div class="composer-toolbar">
          <span class="composer-hint">Enter to send · Shift+Enter for a new line</span>
          <vscode-button class="send" disabled={sending || empty} onClick={() => void submit()}>
            Send
          </vscode-button>
        </div>
      </div>
    </div>
  );
}
