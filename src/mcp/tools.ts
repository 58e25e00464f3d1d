/**
 * The tools of the Sidekicks MCP server (issue 22), scoped to one agent's session in one channel:
 * - `skill_read(name)`: a skill's instructions (SKILL.md after its front matter) and the list of its reference files;
 * - `skill_reference(name, file)`: one reference file, confined to the skill's folder (`skills.ts`);
 * - `channel_recent_messages(limit)`, `channel_members()`: the channel, read-only;
 * - `post_progress(text)`: a progress note in the agent's running answer, which goes on;
 * - `delegate(member, request)`: hands work to another member of the channel and answers with its final answer (the
 *   child is a whole agent turn: the call may last minutes; progress notifications go out meanwhile when asked for).
 * A tool that cannot do what is asked answers an MCP tool error (`isError`) saying why, never a protocol failure.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { readReference, referenceFiles, type Skill } from "./skills";

/** One message as `channel_recent_messages` gives it. */
export interface ChannelMessageInfo {
  /** `user`, or the agent's roster name. */
  author: string;
  /** Milliseconds since the epoch. */
  at: number;
  /** Its text (an answer's text parts, joined). */
  text: string;
}

/** What the tools read and do, provided by the channels over the open store (`src/app/composeChannels.ts`). */
export interface ToolPorts {
  /** The latest `limit` messages of the channel, oldest first. */
  recentMessages(channelId: string, limit: number): Promise<ChannelMessageInfo[]>;
  /** The channel's name and members (agents by roster name). */
  members(channelId: string): Promise<{ channel: string; members: string[] }>;
  /** Shows `text` as a progress note on `agent`'s running answer in the channel. @returns false when no turn of it runs there */
  postProgress(channelId: string, agent: string, text: string): Promise<boolean>;
  /**
   * `agent`'s running answer in the channel hands `request` to `member` (a child turn) and waits for it to settle:
   * its final answer, or an error saying what happened (refused, stopped, failed…). Absent: no `delegate` tool.
   */
  delegate?(channelId: string, agent: string, member: string, request: string, toolCallId: string): Promise<{ text: string; isError: boolean }>;
}

/** How often a waiting `delegate` call reports progress, in ms (when the caller asked for progress). */
export const DELEGATE_PROGRESS_MS = 10_000;

/** Most messages `channel_recent_messages` returns at once. */
export const MAX_RECENT_MESSAGES = 50;

const text = (t: string, isError = false): CallToolResult => ({ content: [{ type: "text", text: t }], ...(isError ? { isError: true } : {}) });

/**
 * An `McpServer` with the tools of one session (`scope`). `skills()` reads the session's skills as they are now.
 * `emptyTool` adds `empty`, a tool that does nothing (the bench's baseline).
 */
export function buildServer(scope: { channelId: string; agent: string }, skills: () => Promise<Skill[]>, ports: ToolPorts, emptyTool: boolean): McpServer {
  const server = new McpServer({ name: "sidekicks", version: "0.1.0" });
  const find = async (name: string): Promise<{ skill: Skill } | { error: CallToolResult }> => {
    const all = await skills();
    const skill = all.find((s) => s.name === name);
    if (skill) return { skill };
    return { error: text(all.length === 0 ? `No skill is attached to you here, so "${name}" cannot be read.` : `No skill "${name}". The skills attached to you here: ${all.map((s) => s.name).join(", ")}.`, true) };
  };
  server.registerTool(
    "skill_read",
    { description: "Read the instructions of a Sidekicks skill attached to you (by the name in the skill catalog), with the list of its reference files.", inputSchema: { name: z.string().min(1).max(64) }, annotations: { readOnlyHint: true } },
    async ({ name }) => {
      const found = await find(name);
      if ("error" in found) return found.error;
      const { skill } = found;
      const files = await referenceFiles(skill);
      const listing = files.length > 0 ? `\n\n[Reference files of this skill, for skill_reference: ${files.join(", ")}]` : "";
      return text(`# ${skill.name} (version ${skill.version})\n\n${skill.instructions.trim()}${listing}`);
    },
  );
  server.registerTool(
    "skill_reference",
    { description: "Read a reference file of a Sidekicks skill, by a path relative to the skill's folder (as skill_read lists them).", inputSchema: { name: z.string().min(1).max(64), file: z.string().min(1).max(1024) }, annotations: { readOnlyHint: true } },
    async ({ name, file }) => {
      const found = await find(name);
      if ("error" in found) return found.error;
      try {
        return text(await readReference(found.skill, file));
      } catch (err) {
        return text((err as Error).message, true);
      }
    },
  );
  server.registerTool(
    "channel_recent_messages",
    { description: "The latest messages of the Sidekicks channel you are answering in, oldest first.", inputSchema: { limit: z.number().int().min(1).max(MAX_RECENT_MESSAGES).optional() }, annotations: { readOnlyHint: true } },
    async ({ limit }) => {
      const messages = await ports.recentMessages(scope.channelId, limit ?? 20);
      return text(JSON.stringify(messages.map((m) => ({ author: m.author, at: new Date(m.at).toISOString(), text: m.text }))));
    },
  );
  server.registerTool("channel_members", { description: "The Sidekicks channel you are answering in: its name and its members (agents you can mention with @name).", annotations: { readOnlyHint: true } }, async () =>
    text(JSON.stringify(await ports.members(scope.channelId))),
  );
  server.registerTool(
    "post_progress",
    { description: "Show a short progress note on your answer in the Sidekicks channel while you keep working (the latest note replaces the previous one). Does not end your turn.", inputSchema: { text: z.string().min(1).max(2000) } },
    async ({ text: note }) => ((await ports.postProgress(scope.channelId, scope.agent, note)) ? text("Progress note shown.") : text("You have no answer running in this channel, so the note was not shown.", true)),
  );
  const delegate = ports.delegate?.bind(ports);
  if (delegate) {
    server.registerTool(
      "delegate",
      {
        description:
          "Hand a request to another member of the Sidekicks channel (an agent listed by channel_members) and wait for its final answer, which this tool returns. The member answers in the channel as a turn of its own, which may take minutes.",
        inputSchema: { member: z.string().min(1).max(64), request: z.string().min(1).max(20_000) },
      },
      async ({ member, request }, extra) => {
        const token = extra._meta?.progressToken;
        let progress = 0;
        // A long wait reports progress (a client may reset its timeout on it); the SSE response keeps the line alive.
        const timer =
          token === undefined
            ? undefined
            : setInterval(() => {
                progress += 1;
                void extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress, message: `@${member} is answering` } }).catch(() => undefined);
              }, DELEGATE_PROGRESS_MS);
        try {
          const r = await delegate(scope.channelId, scope.agent, member, request, String(extra.requestId));
          return text(r.text, r.isError);
        } finally {
          if (timer) clearInterval(timer);
        }
      },
    );
  }
  if (emptyTool) server.registerTool("empty", { description: "Does nothing." }, () => text(""));
  return server;
}
