/**
 * Escape as a deliberate Stop (issue 15, item 4; `docs/reliability.md`, "Stop is deliberate"). People press Escape
 * out of habit — to close a list, before the command palette — so in an empty composer it stops nothing by itself:
 * the first press *arms* a confirmation that says what a second press would stop; the second press, while the hint
 * shows, stops those answers. Nothing reaches the host before that second press, so there is nothing to undo.
 *
 * The second press counts only once the hint has been on screen for {@link CONFIRM_AFTER_MS} (a habitual double tap
 * is not a decision) and is not a key repeat (a held key); the hint goes after {@link CONFIRM_WINDOW_MS}, at any
 * other key, when the composer loses the focus, or when every answer it named has ended.
 */
import * as l10n from "@vscode/l10n";
import { useEffect, useRef, useState } from "preact/hooks";

/** How long the confirmation stays armed after the first Escape, in ms. */
export const CONFIRM_WINDOW_MS = 4_000;

/** How long the hint must have been shown before a second Escape confirms, in ms. */
export const CONFIRM_AFTER_MS = 500;

/** An armed confirmation: the answers the hint named (queued first), and whether a second Escape confirms yet. */
export interface ArmedStop {
  ids: readonly string[];
  ready: boolean;
}

/** What the composer needs: the armed state to render, the Escape handler, and a way to drop the confirmation. */
export interface StopConfirm {
  /** The armed confirmation, with `ids` narrowed to the answers that still run; undefined when not armed. */
  armed: ArmedStop | undefined;
  /** Handles an Escape in an empty composer while answers run: arms, or (armed and ready) stops. */
  escape(event: KeyboardEvent): void;
  /** Drops the confirmation (another key, the focus left); nothing is stopped. */
  disarm(): void;
}

/**
 * The two-step Escape for the composer. `running`: the ids of the channel's streaming or queued answers, queued
 * first (what the Stop button stops); `stop`: stops the given answers (`turn/cancel` each, in that order).
 */
export function useStopConfirm(running: readonly string[], stop: (ids: readonly string[]) => void): StopConfirm {
  // The ref is the truth (two key events can come before a render); the state re-renders the hint.
  const current = useRef<ArmedStop | undefined>(undefined);
  const [, setShown] = useState<ArmedStop | undefined>(undefined);
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);

  const set = (next: ArmedStop | undefined): void => {
    current.current = next;
    setShown(next);
  };
  const disarm = (): void => {
    for (const t of timers.current) clearTimeout(t);
    timers.current = [];
    if (current.current) set(undefined);
  };
  useEffect(
    () => () => {
      for (const t of timers.current) clearTimeout(t);
    },
    [],
  );

  const armed = current.current;
  const still = armed ? armed.ids.filter((id) => running.includes(id)) : [];
  // Every answer the hint named has ended: there is nothing left to confirm.
  useEffect(() => {
    if (armed && still.length === 0) disarm();
  }, [armed, still.length]);

  const escape = (event: KeyboardEvent): void => {
    if (event.repeat) return; // a held key decides nothing
    const now = current.current;
    if (!now) {
      set({ ids: running, ready: false });
      timers.current = [
        setTimeout(() => current.current && set({ ...current.current, ready: true }), CONFIRM_AFTER_MS),
        setTimeout(disarm, CONFIRM_WINDOW_MS),
      ];
      return;
    }
    if (!now.ready) return; // too quick to have read the hint: it stays, and a later Escape confirms
    const ids = now.ids.filter((id) => running.includes(id));
    disarm();
    if (ids.length > 0) stop(ids);
  };

  return { armed: armed && still.length > 0 ? { ids: still, ready: armed.ready } : undefined, escape, disarm };
}

/** The Stop button's tooltip and accessible name: what it stops, and its key. */
export function stopTitle(running: number): string {
  return running > 1
    ? l10n.t("Stop the {0} answers running or queued in this channel (Escape twice in an empty composer)", running)
    : l10n.t("Stop the answer running in this channel (Escape twice in an empty composer)");
}

/** What the armed Escape says: what a second Escape stops, and that anything else keeps it. */
export function confirmText(count: number): string {
  return count > 1
    ? l10n.t("Press Escape again to stop the {0} answers running or queued in this channel; any other key keeps them.", count)
    : l10n.t("Press Escape again to stop the answer running in this channel; any other key keeps it.");
}
