/**
 * `@file` completion (issue 21): after the members `@` offers, the workspace files whose path matches the typed word,
 * asked of the host (`files/find`, debounced) once the word looks like a path or is two characters or more. Accepting
 * one writes the file's path as code (`` `src/a.ts:10-20` ``) over the typed `@…` word, so the sentence still names it
 * (a trial found "look at  and fix" sent), and adds the file as an attachment chip, the lines of `@a.ts:10-20` (or
 * `#L10-20`) only when the word names them.
 */
import * as l10n from "@vscode/l10n";
import { useEffect, useRef } from "preact/hooks";
import { cite } from "../src/shared/attachments";
import { fileWordBefore, looksLikePath, parseFileMention, rankFiles } from "../src/shared/fileMentions";
import type { AttachmentRequest, FileSuggestion } from "../src/shared/protocol";
import { MAX_SUGGESTIONS, type Suggestion } from "./autocomplete";
import { sameAttachment } from "./composerChips";

/** How long typing pauses before the host is asked, in ms. */
export const FILE_QUERY_DEBOUNCE_MS = 120;

/**
 * The composer's file completion (a hook). `withFiles` appends to the members' suggestions the files known for the
 * word before the caret, and asks the host for them when not known yet (then calls `refresh`, which calls `withFiles`
 * again); `attach` adds an accepted file as a chip (not twice).
 */
export function useFileSuggestions(
  findFiles: (query: string) => Promise<FileSuggestion[]>,
  refresh: () => void,
  setAttachments: (chips: readonly AttachmentRequest[]) => void,
  attachmentsNow: () => readonly AttachmentRequest[],
) {
  const known = useRef<{ word: string; files: FileSuggestion[] } | undefined>(undefined);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const asked = useRef<string | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const ask = (word: string): void => {
    if (asked.current === word) return;
    asked.current = word;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      findFiles(word).then(
        (files) => {
          if (asked.current !== word) return; // typed on meanwhile: a newer question is on its way
          known.current = { word, files };
          refresh();
        },
        () => undefined, // no files offered: the members' suggestions stay
      );
    }, FILE_QUERY_DEBOUNCE_MS);
  };

  const withFiles = (members: Suggestion[], text: string, caret: number): Suggestion[] => {
    const at = fileWordBefore(text, caret);
    if (!at || (at.word.length < 2 && !looksLikePath(at.word))) return members;
    const { query, range } = parseFileMention(at.word);
    // Until the host answers for this word, the last answer ranked again (typing on narrows it), so the list holds still.
    if (known.current?.word !== at.word) ask(at.word);
    if (!known.current) return members;
    const listed = known.current.word === at.word ? known.current.files : rankFiles(query, known.current.files);
    const files = listed.map(
      (f): Suggestion => ({
        label: cite(f.relative, range),
        detail: range ? l10n.t("attach these lines") : l10n.t("attach file"),
        // The name stays in the sentence, as code (no `@`: it is not looked up again as a typed path); the chip attaches it.
        insert: `\`${cite(f.relative, range)}\` `,
        from: at.from,
        attach: { kind: "file", path: f.path, ...(range ? { range } : {}) },
      }),
    );
    return [...members, ...files].slice(0, MAX_SUGGESTIONS);
  };

  const attach = (chip: AttachmentRequest): void => {
    const now = attachmentsNow();
    if (!now.some((c) => sameAttachment(c, chip))) setAttachments([...now, chip]);
  };

  return { withFiles, attach };
}
