/**
 * Copy and Insert for the fenced code blocks of rendered Markdown (issue 6).
 *
 * Markdown's nodes are built from its tokens (`markdownDom.ts`) and hold no buttons, no data attributes, and no
 * classes an agent chooses (only a code block's checked `language-…`, and our network-image links), so the controls
 * are added to the DOM afterwards: each `<pre>` is wrapped in a `div.code-block` with a header (language, Copy,
 * Insert). Agent HTML can neither make such a header nor a button, so a click on a `button[data-code-action]`
 * inside a `.markdown` is always one of ours. Clicks are handled by delegation (`handleCodeAction`) so the buttons
 * need no listeners of their own. Finished blocks are then highlighted, lazily and in idle time (`highlight.ts`);
 * the text, and so Copy and Insert, stays the same.
 */
import * as l10n from "@vscode/l10n";
import { fenceLanguage } from "./highlight";

/** What the buttons do: `insert` resolves whether the host inserted the text. */
export interface CodeBlockActions {
  insert(text: string): Promise<boolean>;
}

/** How long a button says "Copied" / "Inserted" before its label comes back, in ms. */
export const FEEDBACK_MS = 1_500;

/**
 * Wraps every `<pre>` under `root` that is not yet wrapped; cheap when there is none. `root` may be a fragment not
 * yet in the page (then the work costs no style invalidation); the new elements are made by the page's document.
 */
export function decorateCodeBlocks(root: ParentNode): void {
  for (const pre of Array.from(root.querySelectorAll("pre"))) {
    if (pre.parentElement?.classList.contains("code-block")) continue;
    const block = document.createElement("div");
    block.className = "code-block";
    // A long answer holds hundreds of blocks: each header is a copy of one made once.
    const header = headerTemplate().cloneNode(true) as HTMLElement;
    const language = fenceLanguage(pre.querySelector("code"));
    if (language) {
      header.firstElementChild!.textContent = language;
      const copy = header.children[1]!;
      const label = l10n.t("Copy {0} code", language);
      copy.setAttribute("title", label);
      copy.setAttribute("aria-label", label);
    }
    pre.replaceWith(block);
    block.append(header, pre);
  }
}

let headerTemplateElement: HTMLElement | undefined;

/** The header of a block without a language (an empty label, Copy, Insert), made once. */
function headerTemplate(): HTMLElement {
  if (!headerTemplateElement) {
    const header = document.createElement("div");
    header.className = "code-header";
    const label = document.createElement("span");
    label.className = "code-language";
    header.append(
      label,
      button(document, "copy", l10n.t("Copy"), l10n.t("Copy code")),
      button(document, "insert", l10n.t("Insert"), l10n.t("Insert code at the cursor of the active editor")),
    );
    headerTemplateElement = header;
  }
  return headerTemplateElement;
}

/**
 * The text of the code block a control belongs to, exactly as written: the code without the newline that ends the
 * fence's last line (field case 11: "copy button yields exactly abc123").
 */
export function codeBlockText(block: Element): string {
  const code = block.querySelector("pre code") ?? block.querySelector("pre");
  const text = code?.textContent ?? "";
  return text.endsWith("\n") ? text.slice(0, -1) : text;
}

/**
 * Handles a click that may be on a code block button: copies to the clipboard (from the view) or asks the host to
 * insert. Returns true when the click was one.
 */
export function handleCodeAction(event: MouseEvent, actions: CodeBlockActions): boolean {
  const target = event.target;
  const control = target instanceof Element ? target.closest<HTMLButtonElement>("button[data-code-action]") : null;
  const block = control?.closest(".code-block");
  if (!control || !block) return false;
  event.preventDefault();
  const text = codeBlockText(block);
  if (control.dataset.codeAction === "copy") {
    void copyText(text).then((ok) => feedback(control, ok ? l10n.t("Copied") : l10n.t("Copy failed")));
  } else {
    void actions.insert(text).then((ok) => feedback(control, ok ? l10n.t("Inserted") : l10n.t("No editor open")));
  }
  return true;
}

/** Writes `text` to the clipboard (`navigator.clipboard`, else a hidden textarea and `copy`). */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.className = "visually-hidden";
    document.body.append(area);
    area.select();
    try {
      return document.execCommand("copy");
    } catch {
      return false;
    } finally {
      area.remove();
    }
  }
}

function button(doc: Document, action: "copy" | "insert", text: string, label: string): HTMLButtonElement {
  const el = doc.createElement("button");
  el.type = "button";
  el.className = "code-action";
  el.dataset.codeAction = action;
  el.textContent = text;
  el.title = label;
  el.setAttribute("aria-label", label);
  return el;
}

/** Shows `text` on the button (and as its accessible name) for {@link FEEDBACK_MS}. */
function feedback(control: HTMLButtonElement, text: string): void {
  control.dataset.text ??= control.textContent ?? "";
  control.dataset.label ??= control.getAttribute("aria-label") ?? "";
  control.textContent = text;
  control.setAttribute("aria-label", text);
  control.dataset.feedback = text;
  clearTimeout(Number(control.dataset.timer));
  control.dataset.timer = String(
    setTimeout(() => {
      control.textContent = control.dataset.text ?? "";
      control.setAttribute("aria-label", control.dataset.label ?? "");
      delete control.dataset.feedback;
    }, FEEDBACK_MS),
  );
}
