/** The files an agent changed in its workspace during a turn (issue 7, "File watching"), each with its diff. */
import { useContext } from "preact/hooks";
import type { FilesPart } from "../../src/protocol";
import { EditorContext } from "../editorActions";
import { shortPath } from "../shortPath";

const KIND_LABEL = { created: "new", modified: "changed", deleted: "deleted" } as const;

/**
 * One row per file: its name (full path on hover), what happened to it, and "Diff" (its text before the turn against
 * the file now, in the editor's diff view) when its earlier text is known.
 */
export function FilesCard({ messageId, part }: { messageId: string; part: FilesPart }) {
  const editor = useContext(EditorContext);
  const count = part.files.length;
  return (
    <div class="files card" role="group" aria-label={`${count} ${count === 1 ? "file" : "files"} changed during this answer`}>
      <div class="card-header">
        <span class="files-title">
          {count} {count === 1 ? "file" : "files"} changed
        </span>
      </div>
      <ul class="files-list">
        {part.files.map((file) => (
          <li key={file.path} class="files-item" data-path={file.path} data-kind={file.kind}>
            <span class="diff-file" title={file.path}>
              {shortPath(file.path)}
            </span>
            <span class={`files-kind kind-${file.kind}`}>{KIND_LABEL[file.kind]}</span>
            {file.beforeKnown ? (
              <button type="button" class="diff-open" aria-label={`Diff of ${file.path} since before the answer`} onClick={() => void editor.fileDiff(messageId, file.path)}>
                Diff
              </button>
            ) : (
              <span class="files-unknown" title="Its text from before this answer was not captured (a large file, or the snapshot budget was spent), so there is no diff to show.">
                no earlier text
              </span>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

