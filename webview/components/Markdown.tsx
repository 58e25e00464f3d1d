/** Renders Markdown text as DOM nodes (`markdown.ts`, `markdownDom.ts`), incrementally while the message streams. */
import { Component } from "preact";
import { useContext, useLayoutEffect, useMemo, useRef } from "preact/hooks";
import { stripAnsi } from "../ansi";
import { decorateCodeBlocks, handleCodeAction } from "../codeBlocks";
import { EditorContext } from "../editorActions";
import { highlightCodeBlocks } from "../highlight";
import { type MarkdownChunk, renderMarkdown, StreamingAnsiStrip, StreamingMarkdown } from "../markdown";

/**
 * One text part. While `streaming`, closed blocks keep their DOM and only the open tail is re-rendered; once the
 * message is final the open tail is rendered once more and every chunk is final (the whole text is rendered once
 * more only when a reference-style link definition could change earlier blocks, or the text was never streamed here).
 * Code blocks get Copy and Insert buttons (`codeBlocks.ts`); links are routed to the host by `History`. Code blocks
 * of finished chunks (every chunk once the message is final; while it streams, every chunk but the open tail) are
 * highlighted lazily (`highlight.ts`), so a block is coloured once it is closed, never per streamed chunk.
 *
 * A sealed group, and a finished chunk of at least `SKIP_MIN_CHARS`, let the browser skip their style, layout and
 * paint while they are off screen (`content-visibility: auto`: `.md-sealed` and `.md-skip` in markdown.css), with an
 * estimated height until they have been laid out once and their own height after: a 2 MB answer that streams in
 * costs the layout of what is on screen, not of 2 MB (`render.e2e2MBLagMs` in docs/performance.md).
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
      return renderMarkdown(stripAnsi(raw));
    }
    incremental.current ??= { strip: new StreamingAnsiStrip(), markdown: new StreamingMarkdown() };
    return incremental.current.markdown.update(incremental.current.strip.strip(raw));
  }, [raw, streaming]);
  const groups = groupChunks(chunks);
  const root = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const el = root.current;
    if (!el || !widthObserver) return;
    widthObserver.observe(el);
    return () => widthObserver.unobserve(el);
  }, []);
  return (
    <div class="markdown" ref={root} onClick={(event) => handleCodeAction(event, editor)}>
      {groups.map((group, g) => (
        <MarkdownGroup key={g} chunks={group.chunks} start={group.start} open={streaming ? chunks.length - 1 : -1} sealed={g < groups.length - 2} />
      ))}
    </div>
  );
}

/** A reference-style link definition (`[label]: url`), which changes how the whole text renders. */
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]\n]+\]:/m;

/** A group is closed once it holds this many chunks or this many characters of source. */
const GROUP_CHUNKS = 32;
const GROUP_CHARS = 32_768;

/**
 * Splits chunks into consecutive groups, so a frame's diff and layout visit the groups and the last group's
 * chunks, not every chunk. Greedy from the first chunk: a chunk's group depends only on the chunks before it, which
 * are final, so a chunk never changes group while the text grows.
 */
function groupChunks(chunks: readonly MarkdownChunk[]): { start: number; chunks: MarkdownChunk[] }[] {
  const groups: { start: number; chunks: MarkdownChunk[] }[] = [];
  let current: MarkdownChunk[] = [];
  let start = 0;
  let chars = 0;
  chunks.forEach((chunk, i) => {
    if (current.length && (current.length >= GROUP_CHUNKS || chars >= GROUP_CHARS)) {
      groups.push({ start, chunks: current });
      current = [];
      start = i;
      chars = 0;
    }
    current.push(chunk);
    chars += chunk.sourceChars;
  });
  if (current.length) groups.push({ start, chunks: current });
  return groups;
}

interface GroupProps {
  chunks: MarkdownChunk[];
  /** The index of the group's first chunk in the whole text's chunks. */
  start: number;
  /** The index of the open chunk (the streaming tail), or -1 once the message is final. */
  open: number;
  /** A later group exists, so this one will not change any more. */
  sealed: boolean;
}

interface ChunkProps {
  chunk: MarkdownChunk;
  /** No more text will be rendered into this chunk: its code blocks are closed and may be highlighted. */
  finished: boolean;
}

/**
 * Up to `GROUP_CHUNKS` consecutive chunks. A chunk always stays in its group, so its DOM is never moved or replaced
 * once it is final (the browser's scroll anchoring keeps a view pinned to the bottom only if it is not), and a
 * frame's diff visits the groups and the last group's chunks, not every chunk.
 *
 * A sealed group lets the browser skip it while it is off screen (`md-sealed`: `content-visibility: auto`). Its
 * `contain-intrinsic-size: auto <estimate>` makes the browser remember its height each time it is laid out, so a
 * group that was on screen before it was sealed (an answer that streams at a reading pace) keeps its exact height
 * when skipped; only a group never laid out (a large batch of text at once) stands in with the estimate.
 */
class MarkdownGroup extends Component<GroupProps> {
  shouldComponentUpdate(next: GroupProps): boolean {
    const { chunks, sealed } = this.props;
    return (
      next.sealed !== sealed ||
      this.holdsOpen(next) !== this.holdsOpen(this.props) ||
      next.chunks.length !== chunks.length ||
      next.chunks.some((chunk, i) => chunk !== chunks[i])
    );
  }

  /** The open chunk's position in this group, or -1 (a change of it re-renders the group to finish that chunk). */
  private holdsOpen({ open, start, chunks }: GroupProps): number {
    return open >= start && open < start + chunks.length ? open - start : -1;
  }

  /**
   * The height the group stands in with when it was never laid out, fixed at its first render: a change of
   * `contain-intrinsic-size` on a box that holds what the user reads suppresses Chromium's scroll anchoring for
   * that frame, and the view would move. A group that grows after its first render is the last one, laid out, and
   * its remembered height is used instead.
   */
  private estimate: number | undefined;

  render() {
    const { chunks, start, open, sealed } = this.props;
    const estimate = (this.estimate ??= estimatedHeightPx(chunks.reduce((n, chunk) => n + chunk.sourceChars, 0)));
    return (
      <div class={sealed ? "md-group md-sealed" : "md-group"} style={{ containIntrinsicSize: `auto ${estimate}px` }}>
        {chunks.map((chunk, i) => (
          <ChunkView key={i} chunk={chunk} finished={start + i !== open} />
        ))}
      </div>
    );
  }
}

/**
 * One rendered chunk. Its nodes are put in once (`MarkdownChunk.mountInto`), and again only when the chunk changed
 * (the open tail); the code blocks it holds are then decorated once, so a frame of streaming touches the tail chunk
 * only. A finished chunk's blocks are highlighted, and the browser may skip a large one while it is off screen.
 *
 * The nodes go in through the element's ref, made per chunk, not in `componentDidMount`: Preact applies refs before
 * the commit's layout effects, and `History`'s layout effect measures the rows (pin to the bottom, keep the viewed
 * row in place) before any class component's `componentDidMount` would run.
 */
class ChunkView extends Component<ChunkProps> {
  private readonly refs = new WeakMap<MarkdownChunk, (el: HTMLDivElement | null) => void>();
  private el: HTMLDivElement | null = null;

  shouldComponentUpdate(next: ChunkProps): boolean {
    return next.chunk !== this.props.chunk || next.finished !== this.props.finished;
  }

  /** The ref for `chunk`: a new function for a new chunk, so Preact calls it again with the element. */
  private refFor(chunk: MarkdownChunk): (el: HTMLDivElement | null) => void {
    let ref = this.refs.get(chunk);
    if (!ref) {
      ref = (el) => {
        this.el = el ?? this.el;
        if (!el) return;
        chunk.mountInto(el, decorateCodeBlocks);
        if (this.props.finished && el.querySelector("pre")) highlightCodeBlocks(el);
      };
      this.refs.set(chunk, ref);
    }
    return ref;
  }

  componentDidUpdate(previous: ChunkProps): void {
    // The open tail became final without changing: its code blocks are closed now.
    const el = this.el;
    if (this.props.finished && !previous.finished && el?.querySelector("pre")) highlightCodeBlocks(el);
  }

  render({ chunk, finished }: ChunkProps) {
    return finished && chunk.sourceChars >= SKIP_MIN_CHARS ? (
      <div ref={this.refFor(chunk)} class="md-chunk md-skip" style={{ containIntrinsicSize: `auto ${estimatedHeightPx(chunk.sourceChars)}px` }} />
    ) : (
      <div ref={this.refFor(chunk)} class="md-chunk" />
    );
  }
}

/**
 * A finished chunk of at least this many characters of source may be skipped on its own while off screen: such
 * chunks come from text that arrived in a large batch (a fast agent, a reopened history), which the browser would
 * otherwise lay out whole before the next frame. Smaller chunks are left to their group.
 */
const SKIP_MIN_CHARS = 4_096;

/** Width (px) of the last `.markdown` the browser laid out: for the height a chunk not laid out yet is given. */
let textWidthPx = 600;

/** Keeps `textWidthPx` up to date: a ResizeObserver reports after the browser's layout, so none is forced. */
const widthObserver =
  typeof ResizeObserver === "undefined"
    ? undefined
    : new ResizeObserver((entries) => {
        const width = entries[entries.length - 1]?.contentRect.width;
        if (width) textWidthPx = width;
      });

/**
 * The height (px) a chunk of `sourceChars` characters of Markdown is assumed to have until the browser lays it out
 * (then `contain-intrinsic-size: auto` keeps its real height): the characters in lines of the text's width at
 * about 7 px a character and 20 px a line, which is what the theme's 13 px font gives for prose. It only has to be
 * near: it sets the scroll bar's length for the part of an answer nobody has looked at yet.
 */
function estimatedHeightPx(sourceChars: number): number {
  const perLine = Math.max(20, textWidthPx / 7);
  return Math.round((sourceChars / perLine) * 20);
}
