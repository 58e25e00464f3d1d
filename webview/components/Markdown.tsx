/** Renders Markdown text as sanitized HTML, incrementally while the message streams. */
import { Component, createRef } from "preact";
import { useContext, useMemo, useRef } from "preact/hooks";
import { stripAnsi } from "../ansi";
import { decorateCodeBlocks, handleCodeAction } from "../codeBlocks";
import { EditorContext } from "../editorActions";
import { highlightCodeBlocks } from "../highlight";
import { renderMarkdown, StreamingAnsiStrip, StreamingMarkdown } from "../markdown";

/**
 * One text part. While `streaming`, closed blocks keep their DOM and only the open tail is re-rendered; once the
 * message is final the open tail is rendered once more and every chunk is final (the whole text is rendered once
 * more only when a reference-style link definition could change earlier blocks, or the text was never streamed here).
 * Code blocks get Copy and Insert buttons (`codeBlocks.ts`); links are routed to the host by `History`. Code blocks
 * of finished chunks (every chunk once the message is final; while it streams, every chunk but the open tail) are
 * highlighted lazily (`highlight.ts`), so a block is coloured once it is closed, never per streamed chunk.
 */
export function Markdown({ text: raw, streaming }: { text: string; streaming: boolean }) {
  const editor = useContext(EditorContext);
  const incremental = useRef<{ strip: StreamingAnsiStrip; markdown: StreamingMarkdown } | null>(null);
  // While streaming, a frame costs what was appended (stripping, lexing and rendering the open tail), not the
  // whole text: `render.longMessageRatio` in docs/performance.md.
  const chunks = useMemo(() => {
    if (!streaming) {
      const streamed = incremental.current;
      incremental.current = null;
      // The answer just finished: its streamed chunks are what a full render makes unless a reference-style link
      // definition (which applies to the whole text) is in it. Rendering only the open tail once more keeps the
      // kept chunks' DOM; a full render of a 2 MB answer blocks the view for seconds (`render.e2e2MBLagMs`).
      if (streamed) {
        const text = streamed.strip.strip(raw);
        if (!REFERENCE_DEFINITION.test(text)) return streamed.markdown.update(text);
      }
      return [renderMarkdown(stripAnsi(raw))];
    }
    incremental.current ??= { strip: new StreamingAnsiStrip(), markdown: new StreamingMarkdown() };
    return incremental.current.markdown.update(incremental.current.strip.strip(raw));
  }, [raw, streaming]);
  const groups = groupChunks(chunks);
  return (
    <div class="markdown" onClick={(event) => handleCodeAction(event, editor)}>
      {groups.map((group, g) => (
        <MarkdownGroup key={g} chunks={group.chunks} start={group.start} open={streaming ? chunks.length - 1 : -1} sealed={g < groups.length - 2} />
      ))}
    </div>
  );
}

/** A reference-style link definition (`[label]: url`), which changes how the whole text renders. */
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]\n]+\]:/m;

/** A group is closed once it holds this many chunks or this many characters of HTML. */
const GROUP_CHUNKS = 32;
const GROUP_CHARS = 32_768;

/**
 * Splits chunks into consecutive groups, so a frame's diff and layout visit the groups and the last group's
 * chunks, not every chunk. Greedy from the first chunk: a chunk's group depends only on the chunks before it, which
 * are final, so a chunk never changes group while the text grows.
 */
function groupChunks(chunks: readonly string[]): { start: number; chunks: string[] }[] {
  const groups: { start: number; chunks: string[] }[] = [];
  let current: string[] = [];
  let start = 0;
  let chars = 0;
  chunks.forEach((html, i) => {
    if (current.length && (current.length >= GROUP_CHUNKS || chars >= GROUP_CHARS)) {
      groups.push({ start, chunks: current });
      current = [];
      start = i;
      chars = 0;
    }
    current.push(html);
    chars += html.length;
  });
  if (current.length) groups.push({ start, chunks: current });
  return groups;
}

interface GroupProps {
  chunks: string[];
  /** The index of the group's first chunk in the whole text's chunks. */
  start: number;
  /** The index of the open chunk (the streaming tail), or -1 once the message is final. */
  open: number;
  sealed: boolean;
}

interface ChunkProps {
  html: string;
  /** No more text will be rendered into this chunk: its code blocks are closed and may be highlighted. */
  finished: boolean;
}

/**
 * Up to `GROUP_CHUNKS` consecutive chunks. A chunk always stays in its group, so its DOM is never moved or replaced
 * once it is final (the browser's scroll anchoring keeps a view pinned to the bottom only if it is not).
 *
 * `sealed`: a later group exists, so this one will not change any more. It is then measured once and marked
 * `md-sealed`, which lets the browser skip its style, layout and paint while it is off screen
 * (`content-visibility: auto`) with its measured height standing in, so the page's height does not change when it
 * is skipped.
 */
class MarkdownGroup extends Component<GroupProps> {
  private readonly ref = createRef<HTMLDivElement>();

  shouldComponentUpdate(next: GroupProps): boolean {
    const { chunks, sealed } = this.props;
    return (
      next.sealed !== sealed ||
      this.holdsOpen(next) !== this.holdsOpen(this.props) ||
      next.chunks.length !== chunks.length ||
      next.chunks.some((html, i) => html !== chunks[i])
    );
  }

  /** The open chunk's position in this group, or -1 (a change of it re-renders the group to finish that chunk). */
  private holdsOpen({ open, start, chunks }: GroupProps): number {
    return open >= start && open < start + chunks.length ? open - start : -1;
  }

  componentDidMount(): void {
    this.seal();
  }

  componentDidUpdate(): void {
    this.seal();
  }

  private seal(): void {
    const el = this.ref.current;
    if (!el || !this.props.sealed || el.classList.contains("md-sealed")) return;
    el.style.containIntrinsicSize = `auto ${el.offsetHeight}px`;
    el.classList.add("md-sealed");
  }

  render() {
    const { chunks, start, open } = this.props;
    return (
      <div ref={this.ref} class="md-group">
        {chunks.map((html, i) => (
          <MarkdownChunk key={i} html={html} finished={start + i !== open} />
        ))}
      </div>
    );
  }
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
