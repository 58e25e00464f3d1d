/** Renders Markdown text as sanitized HTML, incrementally while the message streams. */
import { useMemo, useRef } from "preact/hooks";
import { stripAnsi } from "../ansi";
import { renderMarkdown, StreamingMarkdown } from "../markdown";

/**
 * One text part. While `streaming`, closed blocks keep their DOM and only the open tail is re-rendered; once the
 * message is final the whole text is rendered once more, so the committed message is exactly what marked makes.
 */
export function Markdown({ text: raw, streaming }: { text: string; streaming: boolean }) {
  const text = stripAnsi(raw);
  const incremental = useRef<StreamingMarkdown | null>(null);
  const chunks = useMemo(() => {
    if (!streaming) {
      incremental.current = null;
      return [renderMarkdown(text)];
    }
    incremental.current ??= new StreamingMarkdown();
    return incremental.current.update(text);
  }, [text, streaming]);
  return (
    <div class="markdown">
      {chunks.map((html, i) => (
        <div key={i} class="md-chunk" dangerouslySetInnerHTML={{ __html: html }} />
      ))}
    </div>
  );
}
