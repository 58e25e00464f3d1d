/**
 * Attachments as chips (issue 21): in the composer, each with a button that removes it before sending; on a sent user
 * message, what went with it. A chip names the file and its lines (the whole path in its tooltip), an image by its
 * name with a thumbnail, problems by their count; a file kept as a link only says why.
 */
import * as l10n from "@vscode/l10n";
import { chipLabel, cite } from "../../src/shared/attachments";
import type { Attachment, AttachmentRequest } from "../../src/shared/protocol";

const ICONS: Record<Attachment["kind"], string> = { file: "file", selection: "selection", image: "file-media", problems: "warning", terminal: "terminal" };

/** `remove` set: removable chips (the composer); absent: the chips of a sent message. */
export function AttachmentChips({ items, remove }: { items: readonly (Attachment | AttachmentRequest)[]; remove?: (index: number) => void }) {
  if (items.length === 0) return null;
  return (
    <ul class={remove ? "attachment-chips composer-chips" : "attachment-chips message-chips"} aria-label={l10n.t("Attachments")}>
      {items.map((a, i) => {
        const label = a.kind === "problems" ? problemsLabel(a.problems.length, chipLabel(a)) : chipLabel(a);
        return (
          <li class="chip" data-kind={a.kind} title={tooltip(a)} key={`${a.kind}:${label}:${i}`}>
            {a.kind === "image" ? <img class="chip-thumb" src={`data:${a.mimeType};base64,${a.data}`} alt="" /> : <span class={`codicon codicon-${ICONS[a.kind]}`} aria-hidden="true" />}
            <span class="chip-label">{label}</span>
            {a.kind === "file" && "omitted" in a && a.omitted && <span class="chip-note">{a.omitted === "size" ? l10n.t("link only: too large") : l10n.t("link only: binary")}</span>}
            {remove && (
              <button type="button" class="chip-remove" aria-label={l10n.t("Remove {0}", label)} title={l10n.t("Remove {0}", label)} onClick={() => remove(i)}>
                <span class="codicon codicon-close" aria-hidden="true" />
              </button>
            )}
          </li>
        );
      })}
    </ul>
  );
}

function tooltip(a: Attachment | AttachmentRequest): string {
  switch (a.kind) {
    case "file":
      return l10n.t("File {0}", cite(a.path, a.range));
    case "selection":
      return l10n.t("Selection from {0}", cite(a.path, a.range));
    case "image":
      return l10n.t("Image {0} ({1})", a.name, a.mimeType);
    case "problems":
      return a.problems.map((p) => `${cite(a.path, p.range)} ${p.severity}: ${p.message}`).join("\n");
    case "terminal":
      return l10n.t("Output of terminal {0}", a.name);
  }
}

/** "1 problem · a.ts:14", "3 problems · a.ts:10-20". */
function problemsLabel(count: number, where: string): string {
  return count === 1 ? l10n.t("1 problem · {0}", where) : l10n.t("{0} problems · {1}", count, where);
}
