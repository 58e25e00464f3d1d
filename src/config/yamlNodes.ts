import { isAlias, isMap, isPair, isScalar, isSeq, type Document, type Node as YamlNode, type Pair } from "yaml";

/** A path into the roster's data, as ajv's `instancePath` names it: map keys and list indexes. */
export type DataPath = readonly (string | number)[];

/** Where a pair of a map comes from: written in the map itself, or merged in with `<<:`. */
export interface FoundPair {
  pair: Pair<unknown, unknown>;
  /** True when the pair belongs to the map itself (not to a merged map or an alias target). */
  own: boolean;
}

/** `<<`, the YAML 1.1 merge key (`yaml` keeps it as a symbol or as the plain string). */
export function isMergePair(pair: Pair<unknown, unknown>): boolean {
  const key = isScalar(pair.key) ? pair.key.value : pair.key;
  return key === "<<" || (typeof key === "symbol" && key.description === "<<");
}

/** The node an alias points to (itself when it is no alias). */
export function deref(doc: Document, node: unknown): unknown {
  let current = node;
  for (let hops = 0; isAlias(current) && hops < 100; hops++) current = current.resolve(doc);
  return current;
}

function keyOf(pair: Pair<unknown, unknown>): unknown {
  return isScalar(pair.key) ? pair.key.value : pair.key;
}

/**
 * The pair for `key` in a map as YAML merge keys define it (yaml.org/type/merge.html): the map's own pair first,
 * else the first merged map (in `<<:` order, a list of sources earliest first) that has it.
 */
export function findPair(doc: Document, map: unknown, key: string): FoundPair | undefined {
  const target = deref(doc, map);
  if (!isMap(target)) return undefined;
  const own = target.items.find((p) => isPair(p) && !isMergePair(p) && String(keyOf(p)) === key);
  if (own) return { pair: own, own: map === target };
  for (const p of target.items) {
    if (!isMergePair(p)) continue;
    const source = deref(doc, p.value);
    const sources = isSeq(source) ? source.items : [source];
    for (const s of sources) {
      const found = findPair(doc, s, key);
      if (found) return { pair: found.pair, own: false };
    }
  }
  return undefined;
}

/** The value node at `path` (following aliases and merge keys), or the key node when the value is empty. */
export function nodeAt(doc: Document, path: DataPath): YamlNode | undefined {
  let node: unknown = doc.contents;
  for (const part of path) {
    const target = deref(doc, node);
    if (isSeq(target) && typeof part === "number") {
      node = target.items[part];
    } else if (isMap(target)) {
      const found = findPair(doc, target, String(part));
      if (!found) return undefined;
      node = isEmptyValue(found.pair.value) ? found.pair.key : found.pair.value;
    } else {
      return undefined;
    }
    if (node === undefined || node === null) return undefined;
  }
  return node as YamlNode;
}

/** `key:` with nothing after it: no node, or a null scalar of zero length. */
function isEmptyValue(value: unknown): boolean {
  return value === null || value === undefined || (isScalar(value) && value.value === null && !!value.range && value.range[0] === value.range[1]);
}

/** The key node of `key` in the map at `path`, if written (own or merged). */
export function keyNodeAt(doc: Document, path: DataPath, key: string): YamlNode | undefined {
  const found = findPair(doc, nodeAt(doc, path), key);
  return found && (found.pair.key as YamlNode);
}

/** A node's source range `[start, end)`; collections end after one character, so a squiggle stays on one line. */
export function spanOf(node: YamlNode | undefined): [number, number] | undefined {
  const range = node?.range;
  if (!range) return undefined;
  if (isScalar(node) || isAlias(node)) return [range[0], Math.max(range[0] + 1, range[1])];
  return [range[0], range[0] + 1];
}
