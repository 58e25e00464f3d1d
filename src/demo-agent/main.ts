/**
 * The Sidekicks demo agent: an offline, deterministic ACP agent built with the SDK's agent side, so a new user can
 * try Sidekicks without an account (`command: sidekicks:demo` in sidekicks.yaml). A separate program: bundled to
 * `dist/demo-agent.js` and run by the editor's Node.js runtime; it imports only the SDK (and the footer of the
 * channel catch-up block, from src/channels/context.ts, to tell the user's text from the context before it).
 *
 * It streams a short answer that quotes the prompt, word by word, and names what the user attached (without obeying
 * words inside attachments). Words in the prompt ask for more:
 * - `tool`: reports a tool call (`tool_call`, then `tool_call_update` completed with content);
 * - `permission`: asks `session/request_permission` (allow once / reject) and says what was chosen;
 * - `code`: shows a short fenced TypeScript block (to try highlighting, Copy and Insert at cursor);
 * - `edit`: changes `demo-notes.md` in the session's folder through ACP `fs/write_text_file` (asking permission first
 *   in the Ask mode), so the answer's "files changed" card lists it, with a diff (`fileEdit.ts`);
 * - `delegate to <member>[: task]`: the final answer @mentions that member, which Sidekicks reads as delegation; the
 *   member handed the work does the task (`handOff.ts`);
 * - `fail`: ends the prompt with an error; `crash`: the process exits with code 3.
 * It announces commands (ACP `available_commands_update`, just after `session/new`): `/idioms <phrase>` explains a
 * French idiom (`idioms.ts`), `/help` lists what it does.
 * Its sessions offer two modes (`ask`, `code`: ACP `session/set_mode`) and an "Effort" option (low, medium, high: ACP
 * `session/set_config_option`), which its answers mention; after each answer it reports a pretend `usage_update`
 * (tokens and cost) and a `session_info_update` title taken from the first prompt, so the header's session controls
 * have something to show without an account.
 * Env `SIDEKICKS_DEMO_DELAY_MS` sets the pause between streamed words (default 30); `SIDEKICKS_DEMO_NAME` is the
 * agent's name in the roster (set by Sidekicks for `command: sidekicks:demo`; default `demo`), used in its hints.
 */
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { CONTEXT_FOOTER, RETRY_NOTE_END } from "../shared/preamble";
import { editNotes } from "./fileEdit";
import { delegatedPrompt, delegationAsked, handOffLine } from "./handOff";
import { DEMO_COMMANDS, explainIdiom } from "./idioms";

const delayMs = Number(process.env.SIDEKICKS_DEMO_DELAY_MS ?? 30);
/** This agent's name in the roster, as a channel mentions it. */
const me = /^[A-Za-z][A-Za-z0-9_-]*$/.test(process.env.SIDEKICKS_DEMO_NAME ?? "") ? process.env.SIDEKICKS_DEMO_NAME! : "demo";
/** What the client offered at `initialize` for files (ACP `clientCapabilities.fs`). */
let clientFs: acp.FileSystemCapabilities | undefined;
/** Each session's working folder (ACP `session/new` `cwd`). */
const cwds = new Map<string, string>();
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(new Error("cancelled"));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new Error("cancelled"));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });

const sessions = new Map<string, AbortController | undefined>();
let nextSession = 1;

/** The demo's session modes (ACP `SessionMode`). */
const MODES: acp.SessionMode[] = [
  { id: "ask", name: "Ask", description: "Answers questions; would ask before changing files" },
  { id: "code", name: "Code", description: "Would change files without asking (pretend)" },
];
const EFFORTS = ["low", "medium", "high"] as const;
/** Per session: mode, effort, pretend tokens used, cost so far, title. */
const settings = new Map<string, { mode: string; effort: string; used: number; cost: number; title?: string }>();
const settingsOf = (sessionId: string) => {
  let s = settings.get(sessionId);
  if (!s) settings.set(sessionId, (s = { mode: "ask", effort: "medium", used: 0, cost: 0 }));
  return s;
};
/** The demo's one config option, with its current value (ACP `SessionConfigOption`, category `thought_level`). */
const configOptions = (sessionId: string): acp.SessionConfigOption[] => [
  {
    type: "select",
    id: "effort",
    name: "Effort",
    description: "How hard the demo pretends to think",
    category: "thought_level",
    currentValue: settingsOf(sessionId).effort,
    options: EFFORTS.map((e) => ({ value: e, name: e[0]!.toUpperCase() + e.slice(1) })),
  },
];
/** A title from the first words of the first prompt (ACP `session_info_update`). */
const titleOf = (text: string) => {
  const words = text.replace(/[`*_>#]/g, "").split(/\s+/).filter(Boolean).slice(0, 6).join(" ");
  return words.length > 0 ? words.slice(0, 60) : "Demo session";
};

/** The demo's code block (Markdown): short, in a language the highlighter knows. */
const SNIPPET = [
  "```ts",
  "/** Greets someone by name. */",
  "export function greet(name: string): string {",
  "  return `Hello, ${name}!`;",
  "}",
  "```",
].join("\n");

/** The prompts to try, as Markdown code spans: `@<me> …` when `mention`, else the bare words. */
const tries = (mention: boolean) =>
  ["show a tool call", "show code", "ask permission", "edit a file", "delegate to <member>", "/idioms Il pleut"].map((t) => `\`${mention ? `@${me} ` : ""}${t}\``);

/**
 * Answers one prompt: `text` is the user's own text (or, in a delegated turn, the task it was handed), `context` how
 * many channel messages came before it, `delegatedBy` the member that handed it the task.
 */
async function runPrompt(
  sessionId: string,
  text: string,
  context: number,
  client: acp.AgentContext,
  signal: AbortSignal,
  attempt?: string,
  delegatedBy?: string,
  attached: readonly string[] = [],
): Promise<void> {
  const update = (u: acp.SessionUpdate) => client.notify("session/update", { sessionId, update: u });
  const say = async (markdown: string) => {
    for (const word of markdown.match(/\S+\s*|\s+/g) ?? []) {
      await update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: word } });
      await sleep(delayMs, signal);
    }
  };
  const mine = settingsOf(sessionId);
  const command = /^\/(idioms|help)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (command?.[1] === "idioms") return say(explainIdiom(command[2] ?? ""));
  if (command?.[1] === "help") {
    const [tool, code, permission, edit, delegate, idioms] = tries(false);
    return say(
      `I am the offline demo agent. Try ${idioms}, ${tool}, ${code}, ${permission}, ${edit} (I change \`demo-notes.md\` in the workspace: ` +
        `the card under my answer lists the file I changed, with its diff) or ${delegate} (I hand your request to that member of the channel; ` +
        `write its name without @, or your message would go to it too).`,
    );
  }
  const words = new Set(text.toLowerCase().match(/[a-z]+/g) ?? []);
  const retried = attempt ? ` (This is attempt ${attempt}: Sidekicks told me what my earlier attempt did.)` : "";
  const caughtUp = (context ? ` (Sidekicks also passed me ${context} earlier channel message${context === 1 ? "" : "s"} as context.)` : "") + retried;
  const asked = delegatedBy ? `${delegatedBy} handed this to me` : "You said";
  // Each demo member says who it is: odie answering "Hello from the demo agent" read as demo's answer.
  const greeting = me === "demo" ? "Hello from the **demo agent**" : `Hello from **${me}**, a demo agent`;
  const withFiles = attached.length ? `You attached ${attached.map((a) => `\`${a}\``).join(", ")}: I read what you attach but take my orders only from what you type.\n\n` : "";
  await say(`${greeting}. ${asked}:\n\n> ${text.replace(/\n/g, "\n> ")}\n\n${withFiles}${caughtUp ? caughtUp.trim() + "\n\n" : ""}`);
  const delegation = delegatedBy ? undefined : delegationAsked(text);
  if (delegation) return handOff(delegation.to, delegation.task, say);
  if (words.has("crash")) {
    process.stderr.write("demo agent: crashing on purpose, as asked\n");
    process.exit(3);
  }
  if (words.has("fail")) throw new Error("The demo agent fails on purpose, as asked.");
  if (words.has("tool")) {
    await update({ sessionUpdate: "tool_call", toolCallId: "demo-read", title: "Read README.md", kind: "read", status: "in_progress" });
    await sleep(delayMs * 10, signal);
    await update({
      sessionUpdate: "tool_call_update",
      toolCallId: "demo-read",
      status: "completed",
      content: [{ type: "content", content: { type: "text", text: "# Demo project\nNothing to see here." } }],
    });
    await say("I read `README.md` (a pretend tool call). ");
  }
  if (words.has("code")) {
    await say(`Here is some code: copy it, or insert it at your cursor.\n\n${SNIPPET}\n\n`);
  }
  if (words.has("permission")) {
    await update({ sessionUpdate: "tool_call", toolCallId: "demo-edit", title: "Edit config.json", kind: "edit", status: "pending" });
    const answer = await client.request("session/request_permission", {
      sessionId,
      toolCall: { toolCallId: "demo-edit", title: "Edit config.json" },
      options: [
        { optionId: "allow", name: "Allow once", kind: "allow_once" },
        { optionId: "reject", name: "Reject", kind: "reject_once" },
      ],
    });
    if (answer.outcome.outcome === "cancelled") return; // the user pressed Stop: say nothing more
    const allowed = answer.outcome.optionId === "allow";
    await update({ sessionUpdate: "tool_call_update", toolCallId: "demo-edit", status: allowed ? "completed" : "failed" });
    await say(allowed ? "You allowed the edit; in a real agent `config.json` would now be changed. " : "No edit made. ");
  }
  if (words.has("edit")) {
    await editNotes({ sessionId, cwd: cwds.get(sessionId) ?? process.cwd(), agent: me, ask: mine.mode !== "code", fs: clientFs, client, say });
  }
  if (!["tool", "permission", "code", "edit"].some((w) => words.has(w))) {
    const list = tries(true);
    await say(`(Mode: ${mine.mode}, effort: ${mine.effort}.) Try ${list.slice(0, -1).join(", ")} or ${list.at(-1)}.`);
  }
}

/**
 * What the user attached, by name, from the prompt's blocks after the request (src/acp/promptBlocks.ts): a
 * `resource_link`'s name, an image, a terminal's output; the text blocks that carry a linked file's text are not
 * counted again.
 */
function attachedNames(blocks: readonly acp.ContentBlock[]): string[] {
  const names: string[] = [];
  for (const b of blocks) {
    if (b.type === "resource_link") names.push(b.name);
    else if (b.type === "image") names.push(`an image (${b.mimeType})`);
    else if (b.type === "text" && b.text.startsWith("Terminal output from ")) names.push(b.text.slice(0, b.text.indexOf(":")).replace("Terminal output from ", "output of "));
  }
  return names;
}

/**
 * The delegating side of `delegate to <member>`: a final answer that ends with a line @mentioning the member (outside
 * any quote), which Sidekicks turns into that member's turn. Without a name, or with its own, it says what to write.
 */
async function handOff(to: string | undefined, task: string, say: (markdown: string) => Promise<void>): Promise<void> {
  if (!to) return say("Say which member of this channel should take it: `delegate to <name>`, its name without @ (with @, your message would go to it as well).");
  if (to.toLowerCase() === me.toLowerCase()) return say(`That is me (${me}): name another member of this channel, for example \`delegate to odie\`.`);
  await say(
    `I am handing this to ${to}: an answer that mentions another member of the channel makes Sidekicks start a turn for that member, linked to this answer (delegation).\n\n${handOffLine(to, task)}`,
  );
}

/** After an answer: pretend usage (ACP `usage_update`) and, the first time, a title (ACP `session_info_update`). */
async function reportSession(sessionId: string, text: string, client: acp.AgentContext): Promise<void> {
  const mine = settingsOf(sessionId);
  mine.used += 1_200 + text.length * 4 + EFFORTS.indexOf(mine.effort as (typeof EFFORTS)[number]) * 800;
  mine.cost = Math.round((mine.cost + mine.used / 1_000_000) * 10_000) / 10_000 + 0.01;
  await client.notify("session/update", { sessionId, update: { sessionUpdate: "usage_update", used: mine.used, size: 200_000, cost: { amount: mine.cost, currency: "USD" } } });
  if (mine.title === undefined) {
    mine.title = titleOf(text);
    await client.notify("session/update", { sessionId, update: { sessionUpdate: "session_info_update", title: mine.title } });
  }
}

const stream = acp.ndJsonStream(Writable.toWeb(process.stdout) as WritableStream<Uint8Array>, Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>);

acp
  .agent({ name: "sidekicks-demo" })
  .onRequest("initialize", ({ params }) => {
    clientFs = params.clientCapabilities?.fs;
    return {
    protocolVersion: acp.PROTOCOL_VERSION,
    agentCapabilities: { loadSession: false },
    agentInfo: { name: "sidekicks-demo", title: "Sidekicks demo agent", version: "0.1.0" },
    authMethods: [],
    };
  })
  .onRequest("session/new", ({ params, client }) => {
    const sessionId = `demo-${nextSession++}`;
    sessions.set(sessionId, undefined);
    cwds.set(sessionId, params.cwd);
    // After the response, as agents do: the client knows the session by then.
    setTimeout(() => void client.notify("session/update", { sessionId, update: { sessionUpdate: "available_commands_update", availableCommands: DEMO_COMMANDS } }), 0);
    return { sessionId, modes: { currentModeId: settingsOf(sessionId).mode, availableModes: MODES }, configOptions: configOptions(sessionId) };
  })
  .onRequest("session/set_mode", async ({ params, client }) => {
    if (!MODES.some((m) => m.id === params.modeId)) throw acp.RequestError.invalidParams(undefined, `The demo agent has no mode "${params.modeId}".`);
    settingsOf(params.sessionId).mode = params.modeId;
    await client.notify("session/update", { sessionId: params.sessionId, update: { sessionUpdate: "current_mode_update", currentModeId: params.modeId } });
    return {};
  })
  .onRequest("session/set_config_option", ({ params }) => {
    if (params.configId !== "effort" || typeof params.value !== "string" || !(EFFORTS as readonly string[]).includes(params.value)) {
      throw acp.RequestError.invalidParams(undefined, `The demo agent has no setting "${params.configId}" = ${JSON.stringify(params.value)}.`);
    }
    settingsOf(params.sessionId).effort = params.value;
    return { configOptions: configOptions(params.sessionId) };
  })
  .onNotification("session/cancel", ({ params }) => sessions.get(params.sessionId)?.abort())
  .onRequest("session/prompt", async ({ params, client }) => {
    const controller = new AbortController();
    sessions.set(params.sessionId, controller);
    // The first block is the request (src/acp/promptBlocks.ts); the blocks after it are what the user attached. The
    // demo names those but never obeys words inside them: a file that says "crash" is not an order.
    const [first, ...rest] = params.prompt;
    const prompt = first?.type === "text" ? first.text : "";
    const attached = attachedNames(rest);
    // The channel's catch-up block (src/channels/context.ts) comes first; the demo answers the user's own text.
    const cut = prompt.lastIndexOf(CONTEXT_FOOTER);
    let text = cut === -1 ? prompt : prompt.slice(cut + CONTEXT_FOOTER.length).trim();
    // A retry's note (src/turns/answer.ts) comes next: the demo answers the request itself, saying it is a retry.
    const retry = text.lastIndexOf(RETRY_NOTE_END);
    const attempt = retry === -1 ? undefined : /this is attempt (\d+) of this request/.exec(text)?.[1];
    if (retry !== -1) text = text.slice(retry + RETRY_NOTE_END.length).trim();
    // A delegated turn (src/channels/FollowUps.ts): the demo does the task it was handed.
    const delegated = delegatedPrompt(text);
    if (delegated) text = delegated.task;
    const context = cut === -1 ? 0 : (prompt.slice(0, cut).match(/^(?:@[\w-]+|user):$/gm) ?? []).length;
    try {
      await runPrompt(params.sessionId, text, context, client, controller.signal, attempt, delegated?.from, attached);
      await reportSession(params.sessionId, text, client);
      return { stopReason: "end_turn" as const };
    } catch (err) {
      if (controller.signal.aborted) return { stopReason: "cancelled" as const };
      throw err;
    } finally {
      sessions.set(params.sessionId, undefined);
    }
  })
  .connect(stream);
