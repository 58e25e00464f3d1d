/**
 * Configures `@vscode/l10n` with the editor's bundle before anything renders: the host writes `vscode.l10n.bundle`
 * into the page as a JSON data block (`webviewDocument`, `L10N_ELEMENT_ID`). No block (English) or one that does not
 * parse leaves `l10n.t` returning the English text. Imported first by `main.tsx`, so it runs before any module
 * that calls `l10n.t`.
 */
import * as l10n from "@vscode/l10n";
import { L10N_ELEMENT_ID } from "../src/shared/webviewDocument";

/** Reads the page's l10n bundle and configures `@vscode/l10n` with it; returns whether a bundle was found. */
export function configureL10n(doc: Document): boolean {
  const text = doc.getElementById(L10N_ELEMENT_ID)?.textContent;
  if (!text) return false;
  try {
    const contents: unknown = JSON.parse(text);
    if (typeof contents !== "object" || contents === null || Array.isArray(contents)) return false;
    l10n.config({ contents: contents as Record<string, string> });
    return true;
  } catch {
    return false; // a damaged bundle: English rather than no view
  }
}

configureL10n(document);
