import * as l10n from "@vscode/l10n";
import { isAlias, isCollection, isMap, isSeq, parseDocument, visit, type Document, type Pair, type YAMLMap, type YAMLSeq } from "yaml";
import { SidekicksError } from "../shared/errors";
import { displayPath } from "./schemaFindings";
import { findPair, isMergePair, type DataPath } from "./yamlNodes";
import { appendItem, deleteItem, deletePair, insertPair, replaceItem, replacePairValue } from "./yamlSplice";

/** One change to the roster's data, at a path of map keys and list indexes (`["agents", 0, "command"]`). */
export type RosterEdit =
  | { op: "set"; path: DataPath; value: unknown }
  | { op: "delete"; path: DataPath }
  | { op: "append"; path: DataPath; value: unknown };

/** Fields `setAgentField` may change (the others are edited in the file). */
export type EditableAgentField = "command" | "args" | "title" | "icon" | "description" | "permissions" | "workspace" | "env";

const PARSE = { merge: true, prettyErrors: false } as const;

/**
 * Applies edits to roster text and returns the new text, keeping everything else as written: comments, blank
 * lines, key order, quoting, anchors and merge keys (field case 14). The `yaml` Document API locates each change
 * and defines its meaning (the merged data, as `parseRoster` sees it, after `set`/`delete`/`append`); the change is
 * then written into the original text at the node's source range, touching only its own lines. A shape the text
 * surgery does not handle falls back to the Document API (`setIn`/`deleteIn` and `String(doc)`), which keeps
 * comments and anchors but may re-space other lines. Either way the result is checked: its merged data must equal
 * the intended data.
 *
 * Merge keys: setting a key an entry takes from `<<: *anchor` writes the key into the entry's own map (with the
 * merged value, changed), never into the shared anchor; an alias value (`env: *shared`) is replaced by a copy.
 *
 * @throws SidekicksError `config/invalid` when the text has YAML syntax errors, a path does not exist, or a
 *   deleted key comes from a merge key (edit the anchor instead)
 */
export function editRoster(text: string, edits: readonly RosterEdit[]): string {
  let current = text;
  for (const edit of edits) current = applyOne(current, edit);
  return current;
}

function parse(text: string): Document {
  const doc = parseDocument(text, PARSE);
  if (doc.errors.length > 0) throw new SidekicksError("config/invalid", l10n.t("The roster has YAML syntax errors ({0}); fix them in the file first.", doc.errors[0]!.message.split("\n")[0] ?? ""));
  return doc;
}

function dataOf(doc: Document): unknown {
  try {
    return JSON.parse(JSON.stringify(doc.toJS({ maxAliasCount: 100 }) ?? {})) as unknown;
  } catch (err) {
    throw new SidekicksError("config/invalid", l10n.t("The roster cannot be read ({0}); fix it in the file first.", err instanceof Error ? err.message : String(err)));
  }
}

function applyOne(text: string, edit: RosterEdit): string {
  const doc = parse(text);
  const expected = intended(dataOf(doc), edit);
  if (expected === NO_CHANGE) return text;
  const spliced = splice(text, doc, edit, expected);
  if (spliced !== undefined && sameData(spliced, expected)) return spliced;
  const printed = viaDocument(doc, edit, expected);
  if (sameData(printed, expected)) return printed;
  throw new SidekicksError("config/invalid", l10n.t("Cannot change {0} in this file without changing something else; edit it by hand.", displayPath(edit.path)));
}

const NO_CHANGE = Symbol("no change");

/** The data after the edit, on a plain copy of the merged data. */
function intended(data: unknown, edit: RosterEdit): unknown {
  const path = edit.path;
  if (path.length === 0) throw new SidekicksError("config/invalid", "An edit needs a path.");
  let holder = data as Record<string | number, unknown>;
  for (let i = 0; i < path.length - 1; i++) {
    let next = holder[path[i]!];
    if (next === undefined || next === null) {
      if (edit.op === "delete") return NO_CHANGE;
      next = typeof path[i + 1] === "number" ? [] : {};
      holder[path[i]!] = next;
    }
    if (typeof next !== "object") throw new SidekicksError("config/invalid", `${displayPath(path.slice(0, i + 1))} is not a map or a list.`);
    holder = next as Record<string | number, unknown>;
  }
  const last = path[path.length - 1]!;
  if (edit.op === "set") {
    if (Array.isArray(holder) && (typeof last !== "number" || last >= holder.length)) throw new SidekicksError("config/invalid", `${displayPath(path)} does not exist.`);
    if (JSON.stringify(holder[last]) === JSON.stringify(edit.value)) return NO_CHANGE;
    holder[last] = edit.value;
  } else if (edit.op === "delete") {
    if (!(last in holder)) return NO_CHANGE;
    if (Array.isArray(holder)) holder.splice(Number(last), 1);
    else delete holder[last];
  } else {
    const list = holder[last] ?? [];
    if (!Array.isArray(list)) throw new SidekicksError("config/invalid", `${displayPath(path)} is not a list.`);
    holder[last] = [...(list as unknown[]), edit.value];
  }
  return data;
}

function getAt(data: unknown, path: DataPath): unknown {
  return path.reduce<unknown>((v, k) => (v as Record<string | number, unknown> | undefined)?.[k], data);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

function sameData(text: string, expected: unknown): boolean {
  const doc = parseDocument(text, PARSE);
  if (doc.errors.length > 0) return false;
  try {
    return canonical(dataOf(doc)) === canonical(expected);
  } catch {
    return false; // the candidate text does not resolve (a broken merge): not a valid result
  }
}

/** Where a `set` lands in the written document: a value to replace, or a key to add to an own map. */
type Target = { kind: "replace"; path: DataPath; holder: YAMLMap | YAMLSeq; pair?: Pair<unknown, unknown> } | { kind: "insert"; path: DataPath; map: YAMLMap };

/**
 * Walks `path` through the entries written in the file itself. It stops early, with the whole sub-value to
 * write, where the path leaves them: at a key only merged in (`<<:`), at an alias, or where a map must be created.
 */
function locate(doc: Document, path: DataPath): Target | undefined {
  let cur: unknown = doc.contents;
  for (let i = 0; i < path.length; i++) {
    const key = path[i]!;
    const here = path.slice(0, i + 1);
    const lastStep = i === path.length - 1;
    if (isMap(cur)) {
      const own = cur.items.find((p) => !isMergePair(p) && String((p.key as { value?: unknown })?.value ?? p.key) === String(key));
      if (!own) return { kind: "insert", path: here, map: cur };
      if (lastStep || !isCollection(own.value)) return { kind: "replace", path: here, holder: cur, pair: own };
      cur = own.value;
    } else if (isSeq(cur) && typeof key === "number" && key < cur.items.length) {
      const item = cur.items[key];
      if (lastStep || !isCollection(item)) return { kind: "replace", path: here, holder: cur };
      cur = item;
    } else {
      return undefined;
    }
  }
  return undefined;
}

/**
 * The text change for an edit, or undefined. When the change itself cannot be written in place (a key added to or
 * removed from a flow map `{…}`, a list written inline), the enclosing value is rewritten instead, one level up at
 * most: still only its own lines.
 */
function splice(text: string, doc: Document, edit: RosterEdit, expected: unknown): string | undefined {
  const direct = spliceDirect(text, doc, edit, expected);
  if (direct !== undefined || edit.path.length < 2) return direct;
  const prefix = edit.path.slice(0, -1);
  const target = locate(doc, prefix);
  if (target?.kind !== "replace" || target.path.length !== prefix.length) return undefined;
  const node = target.pair ? target.pair.value : (target.holder as YAMLSeq).items[Number(prefix[prefix.length - 1])];
  if (hasLinks(node)) return undefined; // rewriting it would flatten its anchors, aliases or merge keys
  const value = getAt(expected, prefix);
  if (target.pair) return replacePairValue(text, target.pair, value);
  return replaceItem(text, target.holder as YAMLSeq, Number(prefix[prefix.length - 1]), value);
}

/** Whether a node holds an anchor (`&a`), an alias (`*a`) or a merge key (`<<:`). */
function hasLinks(node: unknown): boolean {
  let found = false;
  const check = (n: unknown) => {
    if (isAlias(n) || (n && typeof n === "object" && "anchor" in n && (n as { anchor?: string }).anchor)) found = true;
  };
  check(node);
  if (isCollection(node)) {
    visit(node, {
      Node: (_, n) => check(n),
      Pair: (_, p) => {
        if (isMergePair(p)) found = true;
      },
    });
  }
  return found;
}

function spliceDirect(text: string, doc: Document, edit: RosterEdit, expected: unknown): string | undefined {
  if (edit.op === "delete") {
    const target = locate(doc, edit.path);
    if (target?.kind !== "replace" || target.path.length !== edit.path.length) return undefined;
    if (isMap(target.holder) && target.pair) return deletePair(text, target.holder, target.pair);
    if (isSeq(target.holder)) return deleteItem(text, target.holder, Number(edit.path[edit.path.length - 1]));
    return undefined;
  }
  const target = locate(doc, edit.path);
  if (!target) return undefined;
  if (edit.op === "append" && target.kind === "replace" && target.path.length === edit.path.length) {
    const list = target.pair ? target.pair.value : (target.holder as YAMLSeq).items[Number(edit.path[edit.path.length - 1])];
    if (isSeq(list) && !list.flow && list.items.length > 0) return appendItem(text, list, edit.value);
  }
  const value = getAt(expected, target.path);
  if (target.kind === "insert") return insertPair(text, target.map, String(target.path[target.path.length - 1]), value);
  if (target.pair) return replacePairValue(text, target.pair, value);
  return replaceItem(text, target.holder as YAMLSeq, Number(target.path[target.path.length - 1]), value);
}

/** The fallback: the same change through the Document API, printed whole by `yaml`. */
function viaDocument(doc: Document, edit: RosterEdit, expected: unknown): string {
  if (edit.op === "delete") {
    const parent = edit.path.slice(0, -1);
    const key = String(edit.path[edit.path.length - 1]);
    const holder = parent.length === 0 ? doc.contents : doc.getIn(parent, true);
    if (isMap(holder) && !holder.items.some((p) => !isMergePair(p) && String((p.key as { value?: unknown })?.value) === key) && findPair(doc, holder, key)) {
      throw new SidekicksError("config/invalid", l10n.t("{0} comes from a merge key (<<:); change the anchor it is merged from instead.", displayPath(edit.path)));
    }
    doc.deleteIn(edit.path);
  } else {
    const target = locate(doc, edit.path);
    const at = target?.path ?? edit.path;
    doc.setIn(at, doc.createNode(getAt(expected, at)));
  }
  return doc.toString({ flowCollectionPadding: false, lineWidth: 0 });
}

/** The agents' names in file order (merged data; entries without a string name are skipped). */
export function agentNames(text: string): string[] {
  const data = dataOf(parse(text)) as { agents?: unknown };
  return (Array.isArray(data.agents) ? data.agents : []).flatMap((a) => (a && typeof a === "object" && typeof (a as { name?: unknown }).name === "string" ? [(a as { name: string }).name] : []));
}

/**
 * The agent named `name` (ignoring case) as the file writes it, merged keys included and no defaults applied
 * (what an edit form shows as the current values).
 *
 * @throws SidekicksError `config/invalid` (syntax errors, no such agent)
 */
export function agentData(text: string, name: string): Record<string, unknown> {
  const data = dataOf(parse(text)) as { agents: Record<string, unknown>[] };
  return data.agents[agentIndex(text, name)]!;
}

function agentIndex(text: string, name: string): number {
  const index = agentNames(text).findIndex((n) => n.toLowerCase() === name.toLowerCase());
  if (index < 0) throw new SidekicksError("config/invalid", l10n.t('There is no agent named "{0}" in the roster.', name));
  return index;
}

/**
 * Sets (or, with `undefined`, removes) one field of the agent named `name` (ignoring case), e.g.
 * `setAgentField(text, "claude", "command", "claude-code-acp")`.
 *
 * @throws SidekicksError `config/invalid` (see `editRoster`), or when no agent has that name
 */
export function setAgentField(text: string, name: string, field: EditableAgentField, value: unknown): string {
  const path = ["agents", agentIndex(text, name), field];
  return editRoster(text, [value === undefined ? { op: "delete", path } : { op: "set", path, value }]);
}

/** Appends an agent at the end of `agents` (creating the list if needed). Keys are written in the given order. */
export function addAgent(text: string, agent: { name: string; command: string; args?: string[] } & Record<string, unknown>): string {
  const entry = Object.fromEntries(Object.entries(agent).filter(([k, v]) => v !== undefined && !(k === "args" && Array.isArray(v) && v.length === 0)));
  return editRoster(text, [{ op: "append", path: ["agents"], value: entry }]);
}

/** Removes the agent named `name` (ignoring case); its lines go, comments above it stay. */
export function removeAgent(text: string, name: string): string {
  return editRoster(text, [{ op: "delete", path: ["agents", agentIndex(text, name)] }]);
}
