/** Renders Markdown text as sanitized HTML, incrementally while the message streams. */
import { Component, createRef } from "preact";
import { useContext, useMemo, useRef } from "preact/hooks";
import { stripAnsi } from "../ansi";
import { decorateCodeBlocks, handleCodeAction } from "../codeBlocks";
import { EditorContext } from "../editorActions";
import { highlightCodeBlocks } from "../highlight";
import { renderMarkdown, StreamingMarkdown } from "../markdown";

/**
 * One text part. While `streaming`, closed blocks keep their DOM and only the open tail is re-rendered; once the
 * message is final the whole text is rendered once more, so the committed message is exactly what marked makes.
 * Code blocks get Copy and Insert buttons (`codeBlocks.ts`); links are routed to the host by `History`. Code blocks
 * of finished chunks (every chunk once the message is final; while it streams, every chunk but the open tail) are
 * highlighted lazily (`highlight.ts`), so a block is coloured once it is closed, never per streamed chunk.
 */
export function Markdown({ text: raw, streaming }: { text: string; streaming: boolean }) {
  const text = stripAnsi(raw);
  const editor = useContext(EditorContext);
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
    <div class="markdown" onClick={(event) => handleCodeAction(event, editor)}>
      {chunks.map((html, i) => (
        <MarkdownChunk key={i} html={html} finished={!streaming || i < chunks.length - 1} />
      ))}
    </div>
  );
}

interface ChunkProps {
  html: string;
  /** No more text will be rendered into this chunk: its code blocks are closed and may be highlighted. */
  finished: boolean;
}

/**
 * One rendered chunk. Preact sets its `innerHTML` only when `html` changed; the code blocks it holds are then
 * decorated once, so a frame of streaming touches the tail chunk only. A finished chunk's blocks are highlighted.
 */
class MarkdownChunk extends Component<ChunkProps> {
  private readonly ref = createRef<HTMLDivElement>();

  shouldComponentUpdate(next: ChunkProps): boolean {
    return next.html !== this.props.html || next.finished !== this.props.finished;
  }

  componentDidMount(): void {
    this.decorate();
  }

  componentDidUpdate(): void {
    this.decorate();
  }

  private decorate(): void {
    const el = this.ref.current;
    if (!el?.querySelector("pre")) return;
    decorateCodeBlocks(el);
    if (this.props.finished) highlightCodeBlocks(el);
  }

  render({ html }: ChunkProps) {
    return <div ref={this.ref} class="md-chunk" dangerouslySetInnerHTML={{ __html: html }} />;
  }
}
