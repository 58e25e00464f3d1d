/**
 * The Sidekicks MCP server (issue 22; ADR 0008): what Sidekicks hands each agent session in ACP `session/new`, beside
 * the roster's own `mcpServers`, so the agent can read its skills and the channel through tools (`tools.ts`).
 *
 * One loopback listener (`127.0.0.1`, an ephemeral port, started on first use) serves every session; each session has
 * its own URL path and bearer token (256 random bits), checked on every request before anything is parsed, so one
 * session can neither reach another's channel nor be reached by another local program. The transport is the MCP
 * SDK's Streamable HTTP, stateless: each POST gets its own `McpServer` scoped to the session (a session re-opened on a
 * new agent process gets a new token; the old one stops working).
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { McpServerConfig } from "../config/roster";
import { isSkill, loadSkill, skillFolder, type Skill, type SkillProblem } from "./skills";
import { buildServer, type ToolPorts } from "./tools";

export type { ToolPorts } from "./tools";

/** The name the agent knows Sidekicks' server by: its tools are `mcp__sidekicks__skill_read` and so on in Claude Code. */
export const SIDEKICKS_SERVER_NAME = "sidekicks";

/** One agent's session in one channel, as the server scopes it. */
export interface SessionScope {
  channelId: string;
  agent: string;
  /** The roster's skill entries for this agent here (`agents[].skills`, then `channels[].skills`), as written. */
  skills: string[];
  /** What relative skill paths are relative to. */
  workspaceFolder: string;
}

/** What {@link SidekicksMcpServer.open} gives back for one session. */
export interface OpenedSession {
  /** The entry to add to `session/new`'s `mcpServers` (ACP `McpServerHttp`). */
  server: Extract<McpServerConfig, { url: string }>;
  /** The usable skills, in roster order (first of a name wins). */
  skills: Skill[];
  /** Skills that could not be read: for the Problems panel and the log, never a failed turn. */
  problems: SkillProblem[];
}

interface Registered {
  scope: SessionScope;
  token: Buffer;
  skills: Skill[];
}

/** Options of {@link SidekicksMcpServer}. */
export interface McpServerOptions {
  /** Also serve a tool `empty` that does nothing (the bench's baseline, `mcp.toolCallOverheadMs`). Default false. */
  emptyTool?: boolean;
}

/** The loopback MCP server of one store's channels (see the file's comment). */
export class SidekicksMcpServer {
  private listener: http.Server | undefined;
  private starting: Promise<number> | undefined;
  /** By URL path id. */
  private readonly sessions = new Map<string, Registered>();
  /** `agent\0channelId` → path id, so a session opened again replaces (and revokes) the previous one. */
  private readonly byScope = new Map<string, string>();

  constructor(
    private readonly ports: ToolPorts,
    private readonly options: McpServerOptions = {},
  ) {}

  /**
   * Registers a session of `scope.agent` in `scope.channelId` (revoking the one registered before for that pair),
   * reads its skills, and returns the `mcpServers` entry that reaches it. Starts the listener on first use.
   * @throws Error when the loopback listener cannot be started
   */
  async open(scope: SessionScope): Promise<OpenedSession> {
    const port = await this.start();
    const { skills, problems } = await this.loadSkills(scope);
    const id = randomBytes(12).toString("hex");
    const token = randomBytes(32);
    const key = `${scope.agent}\0${scope.channelId}`;
    const previous = this.byScope.get(key);
    if (previous) this.sessions.delete(previous);
    this.sessions.set(id, { scope, token, skills });
    this.byScope.set(key, id);
    return {
      server: { type: "http", name: SIDEKICKS_SERVER_NAME, url: `http://127.0.0.1:${port}/mcp/${id}`, headers: [{ name: "Authorization", value: `Bearer ${token.toString("base64url")}` }] },
      skills,
      problems,
    };
  }

  /**
   * Reads again the skills of the session registered for `agent` in `channelId` (a turn about to prompt): the ones
   * now, and the ones known before (at the session's start or its previous turn). Undefined when none is registered.
   */
  async refresh(channelId: string, agent: string): Promise<{ before: Skill[]; skills: Skill[] } | undefined> {
    const id = this.byScope.get(`${agent}\0${channelId}`);
    const registered = id ? this.sessions.get(id) : undefined;
    if (!registered) return undefined;
    const before = registered.skills;
    const { skills } = await this.loadSkills(registered.scope);
    registered.skills = skills;
    return { before, skills };
  }

  /** Stops the listener and forgets every session (their tokens no longer work). */
  async stop(): Promise<void> {
    this.sessions.clear();
    this.byScope.clear();
    const listener = this.listener;
    this.listener = undefined;
    this.starting = undefined;
    if (listener) {
      const closed = new Promise<void>((resolve) => listener.close(() => resolve()));
      // A response still streaming (a `delegate` call) would hold the listener open.
      listener.closeAllConnections();
      await closed;
    }
  }

  /** The skills the roster entries of `scope` name: read now, the first of each name kept, problems apart. */
  async loadSkills(scope: Pick<SessionScope, "skills" | "workspaceFolder">): Promise<{ skills: Skill[]; problems: SkillProblem[] }> {
    const skills: Skill[] = [];
    const problems: SkillProblem[] = [];
    for (const entry of scope.skills) {
      const loaded = await loadSkill(skillFolder(entry, scope.workspaceFolder), entry);
      if (!isSkill(loaded)) problems.push(loaded);
      else if (!skills.some((s) => s.name === loaded.name)) skills.push(loaded);
    }
    return { skills, problems };
  }

  private start(): Promise<number> {
    this.starting ??= new Promise<number>((resolve, reject) => {
      const listener = http.createServer((req, res) => void this.serve(req, res));
      listener.once("error", reject);
      listener.listen(0, "127.0.0.1", () => {
        listener.off("error", reject);
        this.listener = listener;
        resolve((listener.address() as AddressInfo).port);
      });
    });
    return this.starting;
  }

  private async serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const match = /^\/mcp\/([0-9a-f]{24})$/.exec(new URL(req.url ?? "/", "http://127.0.0.1").pathname);
    const registered = match ? this.sessions.get(match[1]!) : undefined;
    if (!registered || !tokenMatches(req.headers.authorization, registered.token)) {
      res.writeHead(401, { "content-type": "application/json", "www-authenticate": "Bearer" }).end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: "Unauthorized" }, id: null }));
      req.resume();
      return;
    }
    if (req.method !== "POST") {
      // Stateless: no stream of server-initiated messages (GET) and no session to end (DELETE).
      res.writeHead(405, { allow: "POST" }).end();
      req.resume();
      return;
    }
    const body = await readJson(req);
    if ("error" in body) {
      res.writeHead(body.status, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32700, message: body.error }, id: null }));
      return;
    }
    const server = buildServer(registered.scope, () => this.liveSkills(registered), this.ports, this.options.emptyTool === true);
    // A `delegate` call waits for a whole agent turn: its answer streams (SSE, headers at once, keep-alive comments
    // every 15 s) so no HTTP client gives up on a silent line; the other tools answer one JSON body.
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: !callsDelegate(body.value) });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, body.value);
    } catch (err) {
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32603, message: (err as Error).message }, id: null }));
    }
  }

  /** The session's skills as they are on disk now (a skill edited since the session opened is read afresh). */
  private async liveSkills(registered: Registered): Promise<Skill[]> {
    const { skills } = await this.loadSkills(registered.scope);
    return skills;
  }
}

/** Constant-time check of `Authorization: Bearer <token>` (base64url of `expected`). */
function tokenMatches(header: string | undefined, expected: Buffer): boolean {
  const m = /^Bearer ([A-Za-z0-9_-]+)$/.exec(header ?? "");
  if (!m) return false;
  const given = Buffer.from(m[1]!, "base64url");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Largest request body accepted, in bytes (a `delegate` request is at most 20 000 characters). */
const MAX_BODY_BYTES = 1024 * 1024;

/** Reads a request's JSON body (the transport is handed it parsed), or why it cannot be. */
async function readJson(req: http.IncomingMessage): Promise<{ value: unknown } | { error: string; status: number }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return { error: `Request body over ${MAX_BODY_BYTES} bytes`, status: 413 };
    chunks.push(chunk as Buffer);
  }
  try {
    return { value: JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown };
  } catch {
    return { error: "Parse error: the body is not JSON", status: 400 };
  }
}

/** Whether a JSON-RPC message (or batch) calls the `delegate` tool. */
function callsDelegate(body: unknown): boolean {
  const one = (m: unknown): boolean => typeof m === "object" && m !== null && (m as { method?: unknown }).method === "tools/call" && (m as { params?: { name?: unknown } }).params?.name === "delegate";
  return Array.isArray(body) ? body.some(one) : one(body);
}
