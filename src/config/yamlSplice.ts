import { Document, isAlias, isCollection, isMap, isPair, isScalar, isSeq, visit, type Node as YamlNode, type Pair, type Scalar, type YAMLMap, type YAMLSeq } from "yaml";

/**
 * Text surgery on YAML source: each function returns the new text with exactly the lines of one change touched
 * (a value replaced, a key inserted or deleted, a list item appended or deleted), or undefined when the shape is
 * one it does not handle (flow maps, block scalars, empty collections…) and the caller should fall back to
 * re-printing the document. Offsets are UTF-16 indexes into `text`, as the `yaml` package's node ranges are.
 */

const SHORT = 80;

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf("\n", offset - 1) + 1;
}

/** Where the line holding `offset` ends: at its `\n`, or at the `\r` of a `\r\n`. */
function lineEnd(text: string, offset: number): number {
  const i = text.indexOf("\n", offset);
  if (i < 0) return text.length;
  return i > 0 && text[i - 1] === "\r" ? i - 1 : i;
}

/** The file's line break: `\r\n` when it uses it, else `\n`. */
function eolOf(text: string): string {
  return text.includes("\r\n") ? "\r\n" : "\n";
}

/** Past the line break at `offset` (a `lineEnd`). */
function pastBreak(text: string, offset: number): number {
  return Math.min(text.length, offset + (text.startsWith("\r\n", offset) ? 2 : 1));
}

function columnOf(text: string, offset: number): number {
  return offset - lineStart(text, offset);
}

/** Where a node's written content ends (before a trailing comment): the end of its last scalar or bracket. */
export function contentEnd(node: unknown): number | undefined {
  if (isScalar(node) || isAlias(node)) return node.range?.[1];
  if (isCollection(node)) {
    if (node.flow) return node.range?.[1];
    const last = node.items[node.items.length - 1];
    if (last === undefined) return node.range?.[1];
    if (isPair(last)) return contentEnd(last.value ?? last.key) ?? contentEnd(last.key);
    return contentEnd(last);
  }
  return undefined;
}

/** One-line YAML for a scalar, in the quoting style of `like` when it has one; undefined if it needs several lines. */
export function renderScalar(value: unknown, like?: Scalar): string | undefined {
  const doc = new Document(value);
  if (like && isScalar(doc.contents) && (like.type === "QUOTE_DOUBLE" || like.type === "QUOTE_SINGLE" || like.type === "PLAIN")) doc.contents.type = like.type;
  const out = doc.toString({ lineWidth: 0 }).replace(/\n$/, "");
  return out.includes("\n") ? undefined : out;
}

const isScalarValue = (v: unknown) => v === null || ["string", "number", "boolean"].includes(typeof v);

/** `["-y", "pkg"]` for a short list of scalars (the style of `args` in the template), else undefined. */
function renderFlowList(value: unknown): string | undefined {
  if (!Array.isArray(value) || !value.every(isScalarValue)) return undefined;
  const doc = new Document(value);
  if (isSeq(doc.contents)) quoteFlow(doc.contents);
  return oneShortLine(doc);
}

/** `{A: "1", B: x}` for a short map of scalars, else undefined (used where the file wrote a flow map). */
function renderFlowMap(value: unknown): string | undefined {
  if (!value || typeof value !== "object" || Array.isArray(value) || !Object.values(value).every(isScalarValue)) return undefined;
  const doc = new Document(value);
  if (isCollection(doc.contents)) doc.contents.flow = true;
  return oneShortLine(doc);
}

function oneShortLine(doc: Document): string | undefined {
  const out = doc.toString({ lineWidth: 0, flowCollectionPadding: false }).replace(/\n$/, "");
  return out.includes("\n") || out.length > SHORT ? undefined : out;
}

/** Makes a list of scalars a flow list with double-quoted strings: `["-y", "pkg"]`, as the template writes args. */
function quoteFlow(seq: YAMLSeq): void {
  seq.flow = true;
  for (const item of seq.items) if (isScalar(item) && typeof item.value === "string") item.type = "QUOTE_DOUBLE";
}

/** Block YAML for a map or list, lines indented by `indent` except the first; short scalar lists stay inline. */
function renderBlock(value: unknown, indent: number, eol: string): string {
  const doc = new Document(value);
  visit(doc, {
    Seq(_, seq) {
      if (seq !== doc.contents && seq.items.every((i) => isScalar(i)) && seq.items.length > 0) quoteFlow(seq);
    },
  });
  const lines = doc.toString({ lineWidth: 0, flowCollectionPadding: false }).replace(/\n$/, "").split("\n");
  return lines.map((l, i) => (i === 0 ? l : `${" ".repeat(indent)}${l}`)).join(eol);
}

/** What follows `key:` for a value: ` scalar`, ` [flow]`, ` []`, or a newline and an indented block. */
function renderAfterColon(value: unknown, childIndent: number, eol: string): string | undefined {
  if (isScalarValue(value)) {
    const s = renderScalar(value);
    return s === undefined ? undefined : ` ${s}`;
  }
  if (Array.isArray(value) && value.length === 0) return " []";
  if (!Array.isArray(value) && typeof value === "object" && Object.keys(value as object).length === 0) return " {}";
  const flow = renderFlowList(value);
  if (flow !== undefined) return ` ${flow}`;
  return `${eol}${" ".repeat(childIndent)}${renderBlock(value, childIndent, eol)}`;
}

/** Replaces the value of `pair` (own, in a block or flow map) with `value`. */
export function replacePairValue(text: string, pair: Pair<unknown, unknown>, value: unknown): string | undefined {
  const key = pair.key as YamlNode;
  if (!key.range) return undefined;
  const old = pair.value as YamlNode | null;
  const colon = text.indexOf(":", key.range[1]);
  if (colon < 0) return undefined;
  if ((isScalar(old) || isAlias(old)) && old.range && isScalarValue(value)) {
    if (isScalar(old) && (old.type === "BLOCK_LITERAL" || old.type === "BLOCK_FOLDED")) return undefined;
    if (old.range[0] === old.range[1]) return splice(text, colon + 1, colon + 1, renderAfterColon(value, 0, eolOf(text)));
    return splice(text, old.range[0], old.range[1], renderScalar(value, isScalar(old) ? old : undefined));
  }
  if (isCollection(old) && old.flow && old.range) {
    const flow = isScalarValue(value) ? renderScalar(value) : isMap(old) ? renderFlowMap(value) : renderFlowList(value);
    if (flow !== undefined) return splice(text, old.range[0], old.range[1], flow);
  }
  const eol = eolOf(text);
  const nonEmptyCollection = !isScalarValue(value) && Object.keys(value as object).length > 0;
  if (isCollection(old) && !old.flow && old.range && nonEmptyCollection) {
    const oldEnd = contentEnd(old);
    return oldEnd === undefined ? undefined : splice(text, old.range[0], oldEnd, renderBlock(value, columnOf(text, old.range[0]), eol));
  }
  const end = old === null ? colon + 1 : contentEnd(old);
  if (end === undefined) return undefined;
  const childIndent = isCollection(old) && !old.flow && old.range ? columnOf(text, old.range[0]) : columnOf(text, key.range[0]) + 2;
  return splice(text, colon + 1, end, renderAfterColon(value, childIndent, eol));
}

/** Replaces item `index` of a block or flow list with `value`. */
export function replaceItem(text: string, seq: YAMLSeq, index: number, value: unknown): string | undefined {
  const old = seq.items[index] as YamlNode | undefined;
  if (!old?.range) return undefined;
  if ((isScalar(old) || isAlias(old)) && isScalarValue(value)) {
    if (isScalar(old) && (old.type === "BLOCK_LITERAL" || old.type === "BLOCK_FOLDED")) return undefined;
    return splice(text, old.range[0], old.range[1], renderScalar(value, isScalar(old) ? old : undefined));
  }
  if (seq.flow) return undefined;
  const end = contentEnd(old);
  if (end === undefined || isScalarValue(value)) return undefined;
  const flow = isCollection(old) && old.flow ? (isMap(old) ? renderFlowMap(value) : renderFlowList(value)) : renderFlowList(value);
  return splice(text, old.range[0], end, flow ?? renderBlock(value, columnOf(text, old.range[0]), eolOf(text)));
}

/** Adds `key: value` after the last pair of a block map (after that pair's trailing comment). */
export function insertPair(text: string, map: YAMLMap, key: string, value: unknown): string | undefined {
  const first = map.items[0];
  const last = map.items[map.items.length - 1];
  if (map.flow || !first || !last) return undefined;
  const firstKey = (first.key as YamlNode | null)?.range;
  const end = contentEnd(last.value ?? last.key) ?? contentEnd(last.key);
  if (!firstKey || end === undefined) return undefined;
  const indent = columnOf(text, firstKey[0]);
  const renderedKey = renderScalar(key);
  const after = renderAfterColon(value, indent + 2, eolOf(text));
  if (renderedKey === undefined || after === undefined) return undefined;
  const at = lineEnd(text, end);
  const eol = eolOf(text);
  // A new top-level section (limits:, channels:) gets a blank line before it, like the template's sections.
  const gap = indent === 0 && after.startsWith(eol) ? eol : "";
  return splice(text, at, at, `${gap}${eol}${" ".repeat(indent)}${renderedKey}:${after}`);
}

/** Removes a pair's lines from a block map that keeps at least one other pair. */
export function deletePair(text: string, map: YAMLMap, pair: Pair<unknown, unknown>): string | undefined {
  const index = map.items.indexOf(pair as (typeof map.items)[number]);
  const keyRange = (pair.key as YamlNode | null)?.range;
  const end = contentEnd(pair.value ?? pair.key) ?? contentEnd(pair.key);
  if (map.flow || map.items.length < 2 || index < 0 || !keyRange || end === undefined) return undefined;
  const start = lineStart(text, keyRange[0]);
  const prefix = text.slice(start, keyRange[0]);
  const stop = pastBreak(text, lineEnd(text, end));
  if (/^\s*$/.test(prefix)) return splice(text, start, stop, "");
  const next = (map.items[index + 1]?.key as YamlNode | undefined)?.range;
  if (/^\s*- $/.test(prefix) && next) return splice(text, keyRange[0], next[0], "");
  return undefined;
}

function dashOf(text: string, item: YamlNode): number | undefined {
  if (!item.range) return undefined;
  let i = item.range[0] - 1;
  while (i >= 0 && text[i] === " ") i--;
  return text[i] === "-" ? i : undefined;
}

/** Appends an item after the last item of a block list, at the same indentation. */
export function appendItem(text: string, seq: YAMLSeq, value: unknown): string | undefined {
  const first = seq.items[0] as YamlNode | undefined;
  const last = seq.items[seq.items.length - 1];
  if (seq.flow || !first || last === undefined) return undefined;
  const dash = dashOf(text, first);
  const end = contentEnd(last);
  if (dash === undefined || end === undefined) return undefined;
  const indent = columnOf(text, dash);
  const body = isScalarValue(value) ? renderScalar(value) : (renderFlowList(value) ?? renderBlock(value, indent + 2, eolOf(text)));
  if (body === undefined) return undefined;
  const at = lineEnd(text, end);
  return splice(text, at, at, `${eolOf(text)}${" ".repeat(indent)}- ${body}`);
}

/** Removes item `index` (its lines, from its dash) from a block list that keeps at least one other item. */
export function deleteItem(text: string, seq: YAMLSeq, index: number): string | undefined {
  const item = seq.items[index] as YamlNode | undefined;
  if (seq.flow || seq.items.length < 2 || !item) return undefined;
  const dash = dashOf(text, item);
  const end = contentEnd(item);
  if (dash === undefined || end === undefined) return undefined;
  const start = lineStart(text, dash);
  if (!/^\s*$/.test(text.slice(start, dash))) return undefined;
  return splice(text, start, pastBreak(text, lineEnd(text, end)), "");
}

function splice(text: string, from: number, to: number, insert: string | undefined): string | undefined {
  return insert === undefined ? undefined : text.slice(0, from) + insert + text.slice(to);
}
