/**
 * The demo agent's "edit a file" prompt: a real change to one file of the workspace, made through the client (ACP
 * `fs/read_text_file`, then `fs/write_text_file`), so the user sees what a real agent's edit looks like in Sidekicks —
 * a tool call card with its diff, the "1 file changed" card under the answer and its diff in the editor — without an
 * account. Offline and deterministic: the new text depends only on the file's text before.
 *
 * The file is {@link DEMO_NOTES_FILE} at the session's working folder (ACP `session/new` `cwd`): a file of the demo's
 * own, created when missing, so asking the demo in a real project never changes the project's files. In the Ask mode
 * the demo asks permission first (ACP `session/request_permission`, with the diff); in the Code mode it does not.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import type * as acp from "@agentclientprotocol/sdk";

/** The file the demo agent edits, relative to the session's working folder. */
export const DEMO_NOTES_FILE = "demo-notes.md";

/** Edits asked of this process so far: each one's tool call id is `demo-write-<n>`. */
let writes = 0;

/** The line that counts the demo's edits; each edit adds one to it. */
const COUNTER = /^Edits so far: (\d+)$/m;

/**
 * The text of {@link DEMO_NOTES_FILE} after one more edit by `agent`: the counter line ("Edits so far: N") goes up
 * by one and a line "- Edit N, by <agent>" is added at the end. `before` is the file's text, or `null` when it does
 * not exist yet (it is then created with a short heading). Pure.
 *
 * @returns the new text and the edit's number (1 for the first)
 */
export function nextNotes(before: string | null, agent: string): { text: string; edit: number } {
  let text = before ?? `# Demo notes\n\nThe Sidekicks demo agent changes this file when asked to edit a file.\n`;
  const counter = COUNTER.exec(text);
  const edit = (counter ? Number(counter[1]) : 0) + 1;
  if (counter) text = text.replace(COUNTER, `Edits so far: ${edit}`);
  else text = `${text}${text.endsWith("\n") || text === "" ? "" : "\n"}\nEdits so far: ${edit}\n`;
  if (!text.endsWith("\n")) text += "\n";
  return { text: `${text}- Edit ${edit}, by ${agent}\n`, edit };
}

/** What {@link editNotes} needs of the agent around it. */
export interface EditContext {
  sessionId: string;
  /** The session's working folder (absolute; ACP `session/new` `cwd`). */
  cwd: string;
  /** The agent's name in the roster (shown in the file). */
  agent: string;
  /** Whether to ask permission before writing (the Ask mode). */
  ask: boolean;
  /** What the client offered at `initialize` (ACP `clientCapabilities.fs`). */
  fs: { readTextFile?: boolean; writeTextFile?: boolean } | undefined;
  client: acp.AgentContext;
  /** Streams Markdown as the answer's text. */
  say: (markdown: string) => Promise<void>;
}

/**
 * Edits {@link DEMO_NOTES_FILE} through the client: a tool call (`kind: edit`, with the file as its location), the
 * file read (`fs/read_text_file`; missing → created), permission asked in the Ask mode (the diff on the card), the
 * write (`fs/write_text_file`), and the tool call completed with its diff. Says what happened in every case: the
 * client cannot write files, the user rejected it or pressed Stop, or the read or the write failed (the file is then
 * left as it was). Resolves when done; never throws for a refusal.
 */
export async function editNotes(ctx: EditContext): Promise<void> {
  const { sessionId, client, say } = ctx;
  const file = path.join(ctx.cwd, DEMO_NOTES_FILE);
  if (!ctx.fs?.writeTextFile) {
    await say(`I would edit \`${DEMO_NOTES_FILE}\`, but this client does not let agents write files (no \`fs/write_text_file\`). `);
    return;
  }
  const toolCallId = `demo-write-${++writes}`;
  const update = (u: acp.SessionUpdate) => client.notify("session/update", { sessionId, update: u });
  const title = `Edit ${DEMO_NOTES_FILE}`;
  await update({ sessionUpdate: "tool_call", toolCallId, title, kind: "edit", status: "pending", locations: [{ path: file }] });
  const fail = async (why: string) => {
    await update({ sessionUpdate: "tool_call_update", toolCallId, status: "failed", content: [{ type: "content", content: { type: "text", text: why } }] });
    await say(`${why} `);
  };

  let before: string | null = null;
  if (ctx.fs.readTextFile) {
    try {
      before = (await client.request("fs/read_text_file", { sessionId, path: file })).content;
    } catch (err) {
      // Missing: the demo creates it. Present but unreadable: nothing is written over it.
      if (existsSync(file)) return fail(`I could not read \`${DEMO_NOTES_FILE}\` (${errorText(err)}), so I left it as it is.`);
    }
  } else if (existsSync(file)) {
    return fail(`This client does not let agents read files (no \`fs/read_text_file\`), so I left \`${DEMO_NOTES_FILE}\` as it is.`);
  }
  const { text, edit } = nextNotes(before, ctx.agent);
  const diff: acp.ToolCallContent = { type: "diff", path: file, oldText: before, newText: text };

  if (ctx.ask) {
    const answer = await client.request("session/request_permission", {
      sessionId,
      toolCall: { toolCallId, title, kind: "edit", locations: [{ path: file }], content: [diff] },
      options: [
        { optionId: "allow", name: "Allow once", kind: "allow_once" },
        { optionId: "reject", name: "Reject", kind: "reject_once" },
      ],
    });
    if (answer.outcome.outcome === "cancelled") return; // the user pressed Stop: say nothing more
    if (answer.outcome.optionId !== "allow") {
      await update({ sessionUpdate: "tool_call_update", toolCallId, status: "failed" });
      await say(`No edit made: \`${DEMO_NOTES_FILE}\` is as it was. `);
      return;
    }
  }
  await update({ sessionUpdate: "tool_call_update", toolCallId, status: "in_progress" });
  try {
    await client.request("fs/write_text_file", { sessionId, path: file, content: text });
  } catch (err) {
    return fail(`I could not write \`${DEMO_NOTES_FILE}\`: ${errorText(err)}`);
  }
  await update({ sessionUpdate: "tool_call_update", toolCallId, status: "completed", content: [diff] });
  const how = ctx.ask ? "" : " (Code mode: without asking)";
  await say(`I ${before === null ? "created" : "changed"} \`${DEMO_NOTES_FILE}\`${how}: edit ${edit}. The card under this answer lists it (**1 file changed**): open its diff from there. `);
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : typeof err === "object" && err && "message" in err ? String((err as { message: unknown }).message) : String(err);
}
