/**
 * Attachments the composer takes from the clipboard and from drops (issue 21): images pasted or dropped (of a type
 * agents take, within the size bound; the host checks them again), and files dropped from the editor's explorer (their
 * `file:` URIs). What is refused comes back as a sentence for the composer to show.
 */
import * as l10n from "@vscode/l10n";
import { useState } from "preact/hooks";
import type { AttachmentRequest } from "../src/shared/protocol";
import { IMAGE_MAX_BYTES, IMAGE_TYPES } from "../src/shared/protocol/requestGuards";

/** What a paste or a drop gave: chips to add, and why some were not taken. */
export interface Taken {
  chips: AttachmentRequest[];
  refused: string[];
}

/** Whether a clipboard or drop holds something {@link takeTransfer} would take (so the default action is skipped). */
export function holdsAttachments(data: DataTransfer | null): boolean {
  if (!data) return false;
  return [...data.items].some((i) => i.kind === "file" || i.type === "text/uri-list" || i.type === "application/vnd.code.uri-list");
}

/** The images and `file:` URIs of a paste or a drop, read. */
export async function takeTransfer(data: DataTransfer): Promise<Taken> {
  const taken: Taken = { chips: [], refused: [] };
  const uris = data.getData("application/vnd.code.uri-list") || data.getData("text/uri-list");
  for (const line of uris.split(/\r?\n/)) {
    const path = filePathOf(line.trim());
    if (path) taken.chips.push({ kind: "file", path });
  }
  for (const file of [...data.files]) {
    if (!file.type.startsWith("image/")) {
      // A file from outside the editor (the system's file manager) comes without a path the host can read: said,
      // not dropped in silence (a trial's dropped.txt did nothing). With a URI too, the URI's chip is the file.
      if (taken.chips.length === 0) taken.refused.push(l10n.t("{0} was not attached: a file from outside VS Code comes without its path. Drag it from the Explorer, or type @ and its name.", file.name || l10n.t("The file")));
      continue;
    }
    if (!(IMAGE_TYPES as readonly string[]).includes(file.type)) {
      taken.refused.push(l10n.t("{0} was not attached: images of type {1} are not taken; attach a PNG, JPEG, GIF or WebP image.", file.name || file.type, file.type));
    } else if (file.size > IMAGE_MAX_BYTES) {
      taken.refused.push(l10n.t("{0} was not attached: it is {1} MB; at most {2} MB can be sent.", file.name || file.type, (file.size / 2 ** 20).toFixed(1), String(IMAGE_MAX_BYTES / 2 ** 20)));
    } else {
      taken.chips.push({ kind: "image", name: (file.name || `pasted.${file.type.slice(6)}`).slice(0, 256), mimeType: file.type, data: await base64(file) });
    }
  }
  return taken;
}

/** The local path of a `file:` URI (`file:///w/a%20b.ts` → `/w/a b.ts`; Windows drive letters kept); else undefined. */
export function filePathOf(uri: string): string | undefined {
  if (!uri.startsWith("file://") || uri.startsWith("#")) return undefined;
  try {
    const url = new URL(uri);
    const path = decodeURIComponent(url.pathname);
    return /^\/[A-Za-z]:\//.test(path) ? path.slice(1).replace(/\//g, "\\") : path;
  } catch {
    return undefined;
  }
}

async function base64(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/**
 * The composer's paste and drop (a hook): `addChips` takes a clipboard or a drop's items as chips after the ones there
 * now, `note` says why some were refused (until `clearNote`), and `dropProps` go on the element that takes drops.
 */
export function useTransferChips(setAttachments: (chips: readonly AttachmentRequest[]) => void, attachmentsNow: () => readonly AttachmentRequest[]) {
  const [note, setNote] = useState<string | undefined>(undefined);
  const addChips = async (data: DataTransfer): Promise<void> => {
    const taken = await takeTransfer(data);
    setNote(taken.refused.length > 0 ? taken.refused.join(" ") : undefined);
    if (taken.chips.length > 0) setAttachments([...attachmentsNow(), ...taken.chips]);
  };
  const dropProps = {
    onDragOver: (event: DragEvent) => {
      if (holdsAttachments(event.dataTransfer)) event.preventDefault();
    },
    onDrop: (event: DragEvent) => {
      if (!event.dataTransfer || !holdsAttachments(event.dataTransfer)) return;
      event.preventDefault();
      void addChips(event.dataTransfer);
    },
  };
  return { note, clearNote: () => setNote(undefined), addChips, dropProps };
}
