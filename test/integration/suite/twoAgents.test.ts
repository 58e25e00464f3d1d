/**
 * Two agents in one channel (issue 4): a roster of two demo agents (`garfield` and `odie`, both
 * `command: sidekicks:demo`, two processes), one message in #general mentioning both, and both answers shown, each
 * under its own agent's name. Runs last; replaces the roster, and puts the previous one back afterwards.
 */
import * as vscode from "vscode";
import * as assert from "node:assert/strict";
import type { HostRequests } from "../../../src/shared/protocol";
import { poll } from "./poll";
import { screenshot } from "./harness";

interface AgentItem {
  label: string;
  tooltip: string;
  contextValue: string;
}

interface SidekicksTestApi {
  webview<M extends keyof HostRequests>(method: M, params: HostRequests[M][0]): Promise<HostRequests[M][1]>;
  agents(): AgentItem[];
}

/** One message of the history as the user sees it. */
interface ShownMessage {
  author: string | null;
  kind: string | null;
  status: string | null;
  to: string | null;
  body: string | null;
}

describe("two demo agents in one channel", () => {
  let api: SidekicksTestApi;
  let roster: vscode.Uri;
  let original: string;

  /** The message `k` places from the end of the open channel's history (1 = the last one). */
  const fromEnd = async (k: number): Promise<ShownMessage> => {
    const message = `.history > .message:nth-last-child(${k})`;
    const text = async (selector: string) => (await api.webview("test/text", { selector })).text;
    const attribute = async (name: string) => (await api.webview("test/attribute", { selector: message, name })).text;
    return {
      author: await text(`${message} .message-author`),
      kind: await attribute("data-author"),
      status: await attribute("data-status"),
      to: await text(`${message} .message-to`),
      body: await text(`${message} .message-body`),
    };
  };

  before(async () => {
    const extension = vscode.extensions.getExtension<{ testing?: SidekicksTestApi }>("sidekicks.sidekicks")!;
    api = (await extension.activate()).testing!;
    assert.ok(api, "the extension exports no test API");
    roster = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, "sidekicks.yaml");
    original = new TextDecoder().decode(await vscode.workspace.fs.readFile(roster));
  });

  after(async () => {
    if (original !== undefined) await vscode.workspace.fs.writeFile(roster, new TextEncoder().encode(original));
  });

  it("one message mentioning @garfield and @odie is answered by both, each answer under its agent's name", async () => {
    const twoDemos = [
      "# Two demo agents: two processes of the same offline program, each its own channel member.",
      "agents:",
      "  - name: garfield",
      "    command: sidekicks:demo",
      "  - name: odie",
      "    command: sidekicks:demo",
      "",
    ].join("\n");
    await vscode.workspace.fs.writeFile(roster, new TextEncoder().encode(twoDemos));
    await vscode.commands.executeCommand("sidekicks.focus");
    await poll("#general to show garfield and odie as members", async () => {
      const { text } = await api.webview("test/text", { selector: ".channel-header" });
      return text?.includes("#general") && text.includes("garfield") && text.includes("odie") ? text : undefined;
    });

    const question = "what is for lunch on Monday?";
    const { sent } = await api.webview("test/compose", { text: `@garfield @odie ${question}` });
    assert.equal(sent, true, "the composer did not send");

    // The user's message, then one answer from each agent (in either order), both finished.
    let last: ShownMessage[] = [];
    await poll(
      "both answers, finished",
      async () => {
        last = [await fromEnd(3), await fromEnd(2), await fromEnd(1)];
        const [user, ...answers] = last;
        const ready =
          user!.kind === "user" &&
          user!.body?.includes(question) &&
          answers.every((a) => a.kind === "agent" && a.status === "done" && a.body?.includes(question));
        return ready ? true : undefined;
      },
      45_000,
    ).catch((error: Error) => {
      throw new Error(`${error.message}; last messages: ${JSON.stringify(last)}`);
    });
    const [user, ...answers] = last;
    assert.match(user!.to ?? "", /@garfield @odie/, "the user message shows both recipients");
    assert.deepEqual(answers.map((a) => a.author).sort(), ["garfield", "odie"], "one answer from each agent, under its own name");
    for (const answer of answers) {
      // Each names itself: two answers saying "the demo agent" could not be told apart by what they say.
      assert.match(answer.body ?? "", new RegExp(`^Hello from ${answer.author}, a demo agent\\. You said:\\s+what is for lunch on Monday\\?`), `${answer.author}'s answer`);
    }

    // Two agents, two processes: each answer came from its own demo process.
    const items = api.agents();
    const pid = (name: string) => /pid (\d+)/.exec(items.find((i) => i.label === name)?.tooltip ?? "")?.[1];
    assert.ok(pid("garfield") && pid("odie"), `both agents run: ${JSON.stringify(items.map((i) => [i.label, i.tooltip]))}`);
    assert.notEqual(pid("garfield"), pid("odie"));

    // Room for both answers in the picture: the Agents view (checked above) makes way for the channel.
    await Promise.resolve(vscode.commands.executeCommand("sidekicks.agents.removeView")).catch(() => undefined);
    await screenshot("two-agents");
  });
});
