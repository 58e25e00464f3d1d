/**
 * mcp.toolCallOverheadMs — what a Sidekicks MCP tool costs an agent beyond MCP itself (issue 22): the round trip of
 * `channel_recent_messages(limit 20)` (the latest 20 of 200 stored messages, read from LevelDB and formatted) minus the
 * round trip of the `empty` tool (nothing done) on the same server, through the MCP SDK's own client over loopback
 * Streamable HTTP, in the same run. Also `mcp.skillReadMs` (`skill_read` of a small skill, its folder read afresh),
 * and the empty call itself (`mcp.emptyToolCallMs`: MCP, HTTP, the token check, an `McpServer` per request).
 * Medians of alternating rounds after a warm-up.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { monotonicFactory } from "ulid";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { composeChannels } from "../src/app/compose";
import type { AgentSource } from "../src/channels/AgentSource";
import { EventBus } from "../src/events/events";
import type { MessageRecord } from "../src/store/records";
import { Store } from "../src/store/Store";
import { tempDir } from "../test/unit/helpers";
import { median } from "./stats";

const ROUNDS = Number(process.env.BENCH_MCP_ROUNDS ?? 200);
const noAgents: AgentSource = { names: () => ["a"], state: () => "stopped", session: () => Promise.reject(new Error("no agents in this bench")) };
const round2 = (x: number): number => Math.round(x * 100) / 100;

/** Runs the benchmark in a temp store and workspace; see the file comment. */
export async function mcpFigures(): Promise<Record<string, number>> {
  const { dir, cleanup } = tempDir("sidekicks-bench-mcp-");
  const store = await Store.open(path.join(dir, "store"));
  const skill = path.join(dir, "skills", "notes");
  mkdirSync(skill, { recursive: true });
  writeFileSync(path.join(skill, "SKILL.md"), `---\nname: notes\nversion: 1\ndescription: Writes notes\n---\n${"Write short notes. ".repeat(50)}\n`);
  const channels = composeChannels({ store, agents: noAgents, emitter: new EventBus(), mcp: { emptyTool: true } });
  try {
    const general = await channels.directory.syncGeneral(["a"]);
    const ulid = monotonicFactory();
    const messages: MessageRecord[] = Array.from({ length: 200 }, (_, i) => ({ version: 1, id: ulid(1_700_000_000_000 + i), channelId: general.id, author: i % 2 ? { kind: "agent", agentName: "a" } : { kind: "user" }, parts: [{ type: "text", text: `message ${i} `.repeat(20) }], createdAt: 1_700_000_000_000 + i }));
    await store.commit({ messages });
    const opened = await channels.tools.server.open({ channelId: general.id, agent: "a", skills: ["skills/notes"], workspaceFolder: dir });
    const headers = Object.fromEntries(opened.server.headers.map((h) => [h.name, h.value]));
    const client = new Client({ name: "bench", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(opened.server.url), { requestInit: { headers } }));
    const time = async (name: string, args: Record<string, unknown>): Promise<number> => {
      const t0 = performance.now();
      const r = await client.callTool({ name, arguments: args });
      const ms = performance.now() - t0;
      if (r.isError) throw new Error(`${name} failed: ${JSON.stringify(r.content)}`);
      return ms;
    };
    for (let i = 0; i < 20; i++) {
      await time("empty", {});
      await time("channel_recent_messages", { limit: 20 });
      await time("skill_read", { name: "notes" });
    }
    const empty: number[] = [];
    const recent: number[] = [];
    const read: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      empty.push(await time("empty", {}));
      recent.push(await time("channel_recent_messages", { limit: 20 }));
      read.push(await time("skill_read", { name: "notes" }));
    }
    await client.close();
    return {
      "mcp.emptyToolCallMs": round2(median(empty)),
      "mcp.recentMessagesCallMs": round2(median(recent)),
      "mcp.toolCallOverheadMs": round2(median(recent) - median(empty)),
      "mcp.skillReadMs": round2(median(read)),
    };
  } finally {
    await channels.close();
    await store.close();
    cleanup();
  }
}

if (require.main === module) {
  void mcpFigures().then((figures) => console.log(JSON.stringify(figures, null, 2)));
}
