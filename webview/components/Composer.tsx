/**
 * The message composer: a textarea, a Send button and, while answers run in the channel, a Stop button. Enter sends,
 * Shift+Enter inserts a newline; Escape twice in an empty composer stops the running answers (`stopConfirm.ts`).
 */
import * as l10n from "@vscode/l10n";
import "@vscode-elements/elements/dist/vscode-button/index.js";
import { useContext, useEffect, useRef, useState } from "preact/hooks";
import { EditorContext } from "../editorActions";
import type { AgentCommand, AttachmentRequest } from "../../src/shared/protocol";
import { useTransferChips } from "../attachInput";
import { AttachmentChips } from "./AttachmentChips";
import { accept, suggest, type Suggestion } from "../autocomplete";
import { Suggestions } from "./Suggestions";
import { EditingBanner } from "./EditingBanner";
import { useFileSuggestions } from "../fileCompletion";
import { channelLabel } from "../channelLabel";
import { confirmText, stopTitle, useStopConfirm } from "../stopConfirm";
import { isSelectAllKey, selectedAllHere } from "../selectAllGuard";
import { type ComposerLink, insertQuote } from "../messageActions";

/** How long typing must pause before the draft is saved with `setState`, in milliseconds. */
const DRAFT_SAVE_DELAY_MS = 300;

/** The last `composer/attach` focus request a composer of this page handled (its `seq`): each is handled once. */
const handledFocus = { seq: 0 };

interface Props {
  channelName: string;
  initialDraft: string;
  /**
   * Sends the text; resolves `true` when the host accepted it. Sends go one after the other, in the order of the
   * Enters (`sendQueue.ts`); the text leaves the box at Enter and comes back only if the host refuses it.
   */
  send: (text: string, editOf: string | undefined, attachments: readonly AttachmentRequest[], undoAnswers?: boolean) => Promise<boolean>;
  /** The chips that go with the next message (issue 21), removable until it is sent. */
  attachments: readonly AttachmentRequest[];
  setAttachments: (attachments: readonly AttachmentRequest[]) => void;
  /** The chips now (a paste or a refused send changes them before the next render). */
  attachmentsNow: () => readonly AttachmentRequest[];
  /** The host asked for this composer (`composer/attach`): focus it; `mention` starts an empty draft. Handled once per `seq`. */
  focusRequest?: { seq: number; mention?: string };
  saveDraft: (draft: string) => void;
  sendError: string | undefined;
  /** Drops the shown send error (called as the draft is edited). */
  clearSendError: () => void;
  /** The channel's members with a short detail each (their state), for `@` completion. */
  members: readonly { name: string; detail: string }[];
  /** The commands each member announced, for `/` completion. */
  commands: Readonly<Record<string, readonly AgentCommand[]>>;
  /** The ids of this channel's streaming or queued agent answers, queued first: what Stop stops (none: no Stop button). */
  running: readonly string[];
  /** Stops these answers (`turn/cancel` for each, in order, as the messages' own Stop). */
  stop: (ids: readonly string[]) => void;
  /** Where the message actions reach this composer (Quote in composer, Edit); absent: they do not. */
  link?: ComposerLink;
  /** Why nothing can be sent now (no channel open: the history is open in another window); the draft is kept. */
  closed?: string;
}

/**
 * `#composer` holds a plain `<textarea>` (so the text is reachable as `#composer textarea`) and a `vscode-button`
 * with class `send`. Empty text is never sent. Enter takes the text out of the box at once, so what is typed next
 * belongs to the next message (issue 15: a key that came before the box cleared once kept the sent text, and quick
 * messages became growing repeats); a refused send puts its text back before what was typed since and shows why
 * above the composer, until the text is edited.
 * Typing `@` or a leading `/` opens `#composer-suggestions` (members, commands with their input hints, workspace files:
 * `fileCompletion.ts`): ↑/↓ move, Tab or Enter accept, Esc closes, a click accepts.
 * While `running` > 0 a secondary `vscode-button` with class `stop` sits before Send ("Stop", "Stop 2 answers"): the
 * Stop of every answer of the channel, reachable however far the history scrolled. With the text empty and no
 * suggestion list open (Escape closes that list first), Escape shows in `.composer-confirm` what a second Escape
 * would stop, and marks the Stop button `armed`; only that second Escape stops.
 * Edit (issue 19) puts a user message's text in the box under `EditingBanner` (with "First undo the files its answers
 * changed" when there are some): the draft is set aside (its saved copy left alone) until Escape or Cancel, or until
 * the edited text is sent (`send(text, editOf, …, undoAnswers)`), then it comes back. Quote inserts at the caret.
 */
export function Composer({ channelName, initialDraft, send, attachments, setAttachments, attachmentsNow, focusRequest, saveDraft, sendError, clearSendError, members, commands, running, stop, link, closed }: Props) {
  const textarea = useRef<HTMLTextAreaElement>(null);
  /** Sends not yet answered by the host (`sending` while there is one). */
  const inFlight = useRef(0);
  const [sending, setSending] = useState(false);
  const { refusals, findFiles } = useContext(EditorContext);
  const mounted = useRef(true);
  const confirm = useStopConfirm(running, stop);
  const [empty, setEmpty] = useState(initialDraft.trim() === "");
  const saveTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  /** The text a waiting save will store (read at unmount, when the textarea may be gone). */
  const typed = useRef(initialDraft);
  const [suggestions, setSuggestions] = useState<Suggestion[]>([]);
  const [active, setActive] = useState(0);
  /** The input hint of the command just accepted, shown in the toolbar while the text still starts with it. */
  const [hint, setHint] = useState<{ label: string; hint: string } | undefined>(undefined);
  const dismissed = useRef(false);
  /** The user message being edited (edit mode), and the draft set aside meanwhile. */
  const [editing, setEditing] = useState<string | undefined>(undefined);
  const editingRef = useRef<{ messageId: string; draft: string } | undefined>(undefined);
  /** For the message edited: the files its answers changed that an undo would restore, and whether to undo them first. */
  const [undo, setUndo] = useState<{ messageId: string; undoable?: number; first: boolean } | undefined>(undefined);
  const { note: attachNote, clearNote, addChips, dropProps } = useTransferChips(setAttachments, attachmentsNow);
  const files = useFileSuggestions(findFiles, () => refresh(), setAttachments, attachmentsNow);

  useEffect(() => {
    const el = textarea.current;
    if (!focusRequest || !el || focusRequest.seq <= handledFocus.seq) return;
    // Once: the composer is made again at each channel switch (a trial found "@demo " back in every empty draft).
    handledFocus.seq = focusRequest.seq;
    if (focusRequest.mention && el.value.trim() === "") {
      el.value = `@${focusRequest.mention} `;
      onInput();
    }
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
  }, [focusRequest?.seq]);

  const refresh = (): void => {
    const el = textarea.current;
    if (!el || dismissed.current || el.selectionStart !== el.selectionEnd) return setSuggestions([]);
    const next = files.withFiles(suggest(el.value, el.selectionStart, members, commands), el.value, el.selectionStart);
    setSuggestions(next);
    setActive((i) => (i < next.length ? i : 0));
  };

  const choose = (s: Suggestion): void => {
    const el = textarea.current;
    if (!el || s.notCallable) return; // shown greyed with why; typing it would call another command (field case 22)
    const next = accept(el.value, el.selectionStart, s);
    el.value = next.text;
    el.setSelectionRange(next.caret, next.caret);
    el.focus();
    setHint(s.hint ? { label: s.label, hint: s.hint } : undefined);
    if (s.attach) files.attach(s.attach);
    setSuggestions([]);
    setActive(0);
    onInput();
  };

  // Leaving the channel (the composer is keyed by it): a save still waiting is done now, not dropped.
  useEffect(
    () => () => {
      mounted.current = false;
      if (saveTimer.current === undefined) return;
      clearTimeout(saveTimer.current);
      saveDraft(typed.current);
    },
    [],
  );

  const scheduleSave = (): void => {
    if (editingRef.current) return; // the saved draft stays the one set aside, not the edited message
    typed.current = textarea.current?.value ?? "";
    clearTimeout(saveTimer.current);
    saveTimer.current = setTimeout(() => {
      saveTimer.current = undefined;
      saveDraft(textarea.current?.value ?? "");
    }, DRAFT_SAVE_DELAY_MS);
  };

  /** Leaves edit mode: the draft set aside comes back (caret at its end), and is what is saved again. */
  const endEdit = (): void => {
    const aside = editingRef.current;
    if (!aside) return;
    editingRef.current = undefined;
    setEditing(undefined);
    setUndo(undefined);
    const el = textarea.current;
    if (!el) return;
    el.value = aside.draft;
    el.setSelectionRange(el.value.length, el.value.length);
    onInput();
  };

  // The message actions reach this composer while it is shown.
  useEffect(
    () =>
      link?.attach({
        mention: (agent) => {
          const el = textarea.current;
          if (!el) return;
          if (el.value.trim() === "") el.value = `@${agent} `;
          el.focus();
          el.setSelectionRange(el.value.length, el.value.length);
          onInput();
        },
        insert: (quoted) => {
          const el = textarea.current;
          if (!el || quoted === "") return;
          // At the caret (after a selection, never over it): what the user typed stays around the quote.
          const next = insertQuote(el.value, el.selectionEnd, quoted);
          el.value = next.text;
          el.focus();
          el.setSelectionRange(next.caret, next.caret);
          onInput();
        },
        edit: (messageId, text) => {
          const el = textarea.current;
          if (!el) return;
          if (saveTimer.current !== undefined) {
            // A save still waiting is of the draft: done now, before the box holds the message being edited.
            clearTimeout(saveTimer.current);
            saveTimer.current = undefined;
            saveDraft(el.value);
          }
          editingRef.current = { messageId, draft: editingRef.current?.draft ?? el.value };
          setEditing(messageId);
          setUndo({ messageId, first: false });
          el.value = text;
          el.focus();
          el.setSelectionRange(text.length, text.length);
          onInput();
        },
        offerUndo: (messageId, undoable) => setUndo((u) => (u?.messageId === messageId ? { ...u, undoable } : u)),
      }),
    [link],
  );

  /** Enter or Send: the box's text goes now, and the box is emptied before any other key can reach it. */
  const submit = async (): Promise<void> => {
    const el = textarea.current;
    if (!el) return;
    const text = el.value;
    if (text.trim() === "") return;
    const editOf = editingRef.current?.messageId;
    const chips = attachmentsNow();
    const noteBefore = refusals.current?.seq; // (a note about this very message, reported with its answer, stays)
    if (chips.length > 0) setAttachments([]);
    el.value = "";
    onInput();
    // Saved at once, not after the typing pause: a view reloaded right after Enter must not offer the sent text again.
    clearTimeout(saveTimer.current);
    saveTimer.current = undefined;
    if (editOf === undefined) saveDraft("");
    inFlight.current += 1;
    setSending(true);
    try {
      if (!(await send(text, editOf, chips, editOf !== undefined && undo?.messageId === editOf && undo.first && (undo.undoable ?? 0) > 0))) {
        restore(text);
        if (chips.length > 0 && mounted.current) setAttachments([...chips, ...attachmentsNow()]);
      } else {
        if (refusals.current?.seq === noteBefore) refusals.dismiss(); // the user has moved on: why an earlier click could not act is old news
        if (editOf !== undefined && editingRef.current?.messageId === editOf) endEdit();
      }
    } finally {
      inFlight.current -= 1;
      if (mounted.current) setSending(inFlight.current > 0);
    }
  };

  /** A refused text comes back before what was typed since (on its own line), the caret where it was. */
  const restore = (text: string): void => {
    const el = textarea.current;
    if (!mounted.current || !el) return saveDraft(typed.current.trim() === "" ? text : `${text}\n${typed.current}`);
    const after = el.value;
    const fromEnd = after.length - el.selectionEnd;
    el.value = after.trim() === "" ? text : `${text}\n${after}`;
    el.setSelectionRange(el.value.length - fromEnd, el.value.length - fromEnd);
    setEmpty(false);
    scheduleSave();
  };

  const onKeyDown = (event: KeyboardEvent): void => {
    if (suggestions.length > 0 && !event.isComposing) {
      const move = event.key === "ArrowDown" ? 1 : event.key === "ArrowUp" ? -1 : 0;
      if (move !== 0) {
        event.preventDefault();
        setActive((i) => (i + move + suggestions.length) % suggestions.length);
        return;
      }
      if (event.key === "Tab" || (event.key === "Enter" && !event.shiftKey)) {
        event.preventDefault();
        choose(suggestions[active] ?? suggestions[0]!);
        return;
      }
      if (event.key === "Escape") {
        event.preventDefault();
        event.stopPropagation();
        dismissed.current = true;
        setSuggestions([]);
        return;
      }
    }
    if (event.key === "Escape" && editingRef.current && !event.isComposing) {
      event.preventDefault();
      event.stopPropagation();
      endEdit();
      return;
    }
    if (event.key === "Escape" && running.length > 0 && !event.isComposing && (textarea.current?.value ?? "").trim() === "") {
      event.preventDefault();
      confirm.escape(event);
      return;
    }
    if (isSelectAllKey(event)) selectedAllHere(); // the host's late echo of it must not select what is typed next
    if (!["Shift", "Control", "Alt", "Meta"].includes(event.key)) confirm.disarm();
    if (event.key !== "Enter" || event.shiftKey || event.isComposing || event.keyCode === 229) return;
    event.preventDefault();
    void submit();
  };

  const onInput = (): void => {
    const value = textarea.current?.value ?? "";
    if (sendError) clearSendError(); // the error was about the text before this edit
    clearNote();
    setEmpty(value.trim() === "");
    if (hint && !value.includes(hint.label)) setHint(undefined);
    dismissed.current = false;
    refresh();
    scheduleSave();
  };

  const onCaretMove = (event: KeyboardEvent | MouseEvent): void => {
    if (event instanceof KeyboardEvent && !["ArrowLeft", "ArrowRight", "Home", "End"].includes(event.key)) return;
    refresh();
  };

  return (
    <div class="composer-area">
      {sendError && <div class="send-error" role="alert">{sendError}</div>}
      {attachNote && <div class="send-error attach-note" role="alert">{attachNote}</div>}
      <div
        id="composer"
        class={sending ? "sending" : ""}
        data-editing={editing}
        {...dropProps}
      >
        <AttachmentChips items={attachments} remove={(i) => setAttachments(attachments.filter((_, at) => at !== i))} />
        {suggestions.length > 0 && <Suggestions items={suggestions} active={active} choose={choose} hover={setActive} />}
        {editing && (
          <EditingBanner undoable={undo?.messageId === editing ? undo.undoable : undefined} undoFirst={undo?.messageId === editing && undo.first} setUndoFirst={(first) => setUndo((u) => (u?.messageId === editing ? { ...u, first } : u))} cancel={() => (endEdit(), textarea.current?.focus())} />
        )}
        <textarea
          ref={textarea}
          rows={1}
          defaultValue={initialDraft}
          placeholder={channelName.startsWith("@") ? l10n.t("Message {0}", channelName) : l10n.t("Message #{0} — @agent to mention", channelName)}
          aria-label={editing ? l10n.t("Edit your message to {0}", channelLabel(channelName)) : l10n.t("Message {0}", channelLabel(channelName))}
          aria-invalid={sendError ? true : undefined}
          aria-autocomplete="list"
          aria-controls={suggestions.length > 0 ? "composer-suggestions" : undefined}
          aria-expanded={suggestions.length > 0}
          aria-activedescendant={suggestions.length > 0 ? `suggestion-${active}` : undefined}
          onKeyDown={onKeyDown}
          onKeyUp={onCaretMove}
          onClick={onCaretMove}
          onInput={onInput}
          onPaste={(event) => {
            const data = event.clipboardData;
            if (!data || ![...data.items].some((i) => i.kind === "file" && i.type.startsWith("image/"))) return;
            event.preventDefault();
            void addChips(data);
          }}
          onBlur={() => {
            setSuggestions([]);
            confirm.disarm();
          }}
        />
        <div class="composer-confirm" role="status" data-ready={confirm.armed?.ready ? "true" : undefined}>
          {confirm.armed && confirmText(confirm.armed.ids.length)}
        </div>
        <div class="composer-toolbar">
          <span class="composer-hint">
            {hint ? (
              <>
                <b>{hint.label}</b> {hint.hint}
              </>
            ) : (
              l10n.t("Enter to send · Shift+Enter for a new line · @ and / complete")
            )}
          </span>
          {running.length > 0 && (
            <vscode-button
              class={confirm.armed ? "stop armed" : "stop"}
              secondary
              title={stopTitle(running.length)}
              aria-label={stopTitle(running.length)}
              onClick={() => {
                confirm.disarm();
                stop(running);
                textarea.current?.focus(); // the button goes once the answers end: the focus must not go with it
              }}
            >
              {running.length > 1 ? l10n.t("Stop {0} answers", running.length) : l10n.t("Stop")}
            </vscode-button>
          )}
          <vscode-button
            class="send"
            disabled={empty || closed !== undefined}
            title={closed}
            onClick={() => {
              void submit();
              textarea.current?.focus();
            }}
          >
            {l10n.t("Send")}
          </vscode-button>
        </div>
      </div>
    </div>
  );
}
