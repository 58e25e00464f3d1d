/**
 * The one source of truth for `sidekicks.yaml`: every key with its type, default, description and example.
 * `npm run gen:config` (scripts/gen-config.mjs) generates `schema/sidekicks.schema.json` (`buildSchema`) and
 * `docs/reference/configuration.md` (`renderReference`) from it; test/unit/configSpec.test.ts fails when either
 * file is stale, so nobody edits them by hand. `parseRoster` validates against the same schema.
 */
import * as l10n from "@vscode/l10n";

/** A JSON Schema (2020-12) fragment. `{ $section: id }` stands for the schema of the section `id`. */
export type JsonSchema = { [keyword: string]: unknown };

/** One key of a section. */
export interface KeySpec {
  key: string;
  /** The type in words, for the reference (`integer ≥ 1`, `list of strings`). */
  type: string;
  required?: boolean;
  /** The default as a JSON value: the schema's `default`, shown in the reference as YAML. */
  default?: unknown;
  /** The default in words when it is not a literal (`the agent's name`). */
  defaultText?: string;
  /** Markdown; the schema's `markdownDescription` (and `description`, without the Markdown). */
  description: string;
  /** YAML as written inside the section, e.g. `maxRunningAgents: 2`; the schema's `examples` take its value. */
  example: string;
  /** The value's schema (annotations are added by `buildSchema`). */
  schema: JsonSchema;
  /** Set while the key is validated but not acted on yet: what is missing, shown in the reference. Remove when done. */
  pending?: string;
}

/** A map of keys: the top level, `limits`, an agent, a channel… */
export interface SectionSpec {
  id: string;
  /** Where it is, as the reference's heading says it: `agents[]`, `agents[].runtime` (container). Empty: top level. */
  path: string;
  /** Names the shape in messages that list alternatives: `a map {type: container, container: <name>}`. */
  title?: string;
  /** Markdown paragraph under the heading. */
  intro: string;
  keys: KeySpec[];
  /** Referenced through `$defs` (and `$ref`) instead of inlined. */
  shared?: boolean;
  /**
   * Conditions on the section as a whole, merged into its schema (`if`/`then`/`else`): for rules between its keys that
   * both the schema and Sidekicks' validator state (a `not`'s branch gives its words in `description`).
   */
  schemaExtra?: JsonSchema;
}

/** A string pattern with the words validation uses for it. */
export interface PatternSpec {
  pattern: string;
  /** What a valid value is, after "must be": `a duration such as "30s", "10m" or "1h"`. */
  what: string;
  /** The message for a string that does not match. */
  invalid(value: string): string;
}

/** Named patterns; validation finds a pattern's words by its source text. */
export const PATTERNS = {
  agentName: {
    pattern: "^[A-Za-z](?:[A-Za-z0-9_-]{0,30}[A-Za-z0-9])?$",
    what: "a name such as \"claude\"",
    invalid: (v: string) => l10n.t('"{0}" is not a valid name: start with a letter, then letters, digits, "-" or "_", end with a letter or digit (at most 32)', v),
  },
  channelName: {
    pattern: "^[a-z0-9][a-z0-9_-]{0,63}$",
    what: "a channel name such as \"review\"",
    invalid: (v: string) => l10n.t('"{0}" is not a valid channel name: lowercase letters, digits, "-" or "_", starting with a letter or digit (at most 64)', v),
  },
  duration: {
    pattern: "^[1-9][0-9]{0,5}[smh]$",
    what: "a duration such as \"30s\", \"10m\" or \"1h\"",
    invalid: (v: string) => l10n.t('"{0}" is not a duration: write a whole number and a unit, such as "30s", "10m" or "1h"', v),
  },
  dayDuration: {
    // At most a day, in each unit (86400s, 1440m, 24h): the bound is in the pattern, so the schema and the validator judge alike.
    pattern: "^(?:(?:[1-9][0-9]{0,3}|[1-7][0-9]{4}|8[0-5][0-9]{3}|86[0-3][0-9]{2}|86400)s|(?:[1-9][0-9]{0,2}|1[0-3][0-9]{2}|14[0-3][0-9]|1440)m|(?:[1-9]|1[0-9]|2[0-4])h)$",
    what: "a duration of at most 24h such as \"30s\", \"10m\" or \"1h\"",
    invalid: (v: string) =>
      /^[1-9][0-9]{0,5}[smh]$/.test(v)
        ? l10n.t('"{0}" is longer than 24h', v)
        : l10n.t('"{0}" is not a duration: write a whole number and a unit, such as "30s", "10m" or "1h"', v),
  },
  icon: {
    pattern: "^(?:\\$\\([a-z0-9-]+\\)|[a-z0-9-]+|[^$\\s][^\\n]*\\.(?:svg|png))$",
    what: "a codicon name such as \"hubot\" or the path of an .svg or .png file",
    invalid: (v: string) => l10n.t('"{0}" is not an icon: write a codicon name such as "hubot" or "$(hubot)", or the path of an .svg or .png file relative to this file', v),
  },
  color: {
    pattern: "^(?:#[0-9a-fA-F]{6}|[A-Za-z][A-Za-z0-9]*(?:\\.[A-Za-z0-9]+)+)$",
    what: "a theme colour id such as \"charts.blue\" or a colour such as \"#3794ff\"",
    invalid: (v: string) => l10n.t('"{0}" is not a colour: write a theme colour id such as "charts.blue" or "terminal.ansiGreen", or #rrggbb such as "#3794ff"', v),
  },
  container: {
    pattern: "^[A-Za-z0-9][A-Za-z0-9_.-]*$",
    what: "a container name or ID",
    invalid: (v: string) => l10n.t('"{0}" is not a container name or ID (as "docker ps" shows it)', v),
  },
  absolutePath: {
    pattern: "^/",
    what: "an absolute path such as \"/workspace\"",
    invalid: (v: string) => l10n.t('"{0}" is not an absolute path inside the container, such as "/workspace"', v),
  },
  worktreeBranch: {
    pattern: "^[A-Za-z0-9{}_][A-Za-z0-9{}_./-]*$",
    what: "a branch name such as \"sidekicks/{agent}\"",
    invalid: (v: string) => l10n.t('"{0}" is not a branch name: letters, digits, "_", ".", "/", "-" and {agent}, such as "sidekicks/{agent}"', v),
  },
  agentWorktreeBranch: {
    pattern: "^(?!.*\\{channel\\})",
    what: "a branch name without {channel}",
    invalid: (v: string) => l10n.t('"{0}": {channel} belongs in a channel\'s worktree; write the branch name here', v),
  },
  channelWorktreeBranch: {
    pattern: "^(?=.*\\{agent\\})",
    what: "a branch name with {agent}, such as \"sidekicks/{channel}/{agent}\"",
    invalid: (v: string) => l10n.t('"{0}": write {agent} in the branch, so each member gets a branch of its own, such as "sidekicks/{channel}/{agent}"', v),
  },
  url: {
    pattern: "^https?://[^\\s]+$",
    what: "an http:// or https:// URL",
    invalid: (v: string) => l10n.t('"{0}" is not an http:// or https:// URL', v),
  },
} satisfies Record<string, PatternSpec>;

const str = (pattern?: PatternSpec): JsonSchema => (pattern ? { type: "string", pattern: pattern.pattern } : { type: "string", minLength: 1 });
const stringList: JsonSchema = { type: "array", items: { type: "string" } };
const section = (id: string): JsonSchema => ({ $section: id });
/** A map `NAME: value` or ACP's list `[{name, value}]` (env variables, HTTP headers). */
const nameValues = (what: string): JsonSchema => ({
  oneOf: [
    { title: `a map NAME: value`, type: "object", additionalProperties: { type: "string" } },
    {
      title: `a list of {name, value}`,
      type: "array",
      items: { type: "object", additionalProperties: false, required: ["name", "value"], properties: { name: { type: "string", minLength: 1, description: what }, value: { type: "string" } } },
    },
  ],
});
/** `true` (the defaults) or the keys of `agents[].workspace.worktree`. */
/** `true` (the defaults) or the keys of `agents[].workspace.worktree`, the branch also matching `branch` (a pattern). */
const worktreeSchema = (branch: PatternSpec): JsonSchema => ({
  oneOf: [{ title: "true", type: "boolean", const: true }, { title: "a map {base, branch, root}", type: "object", allOf: [section("worktree"), { type: "object", properties: { branch: str(branch) } }] }],
});
const substitution = "`${env:NAME}` (the editor's environment variable `NAME`, empty when unset) and `${workspaceFolder}` are substituted.";

/** The sections of `sidekicks.yaml`, top level first; the reference follows this order. */
export const CONFIG_SPEC: SectionSpec[] = [
  {
    id: "root",
    path: "",
    intro: "The file is a map with these keys. Only `agents` is required.",
    keys: [
      { key: "version", type: "`1`", default: 1, description: "Format version of this file. Only `1` exists; a later format will change it, so an older Sidekicks can say it does not understand the file.", example: "version: 1", schema: { const: 1 } },
      { key: "limits", type: "map", defaultText: "see [`limits`](#limits)", description: "Limits on the agent processes Sidekicks keeps running.", example: "limits:\n  maxRunningAgents: 2\n  idleTimeout: 30m", schema: section("limits") },
      { key: "defaults", type: "anything", defaultText: "none", description: "Not read by Sidekicks: a place for YAML anchors that agents merge with `<<: *name` (see [Anchors and merge keys](#anchors-and-merge-keys)).", example: "defaults: &defaults\n  env:\n    LOG: info", schema: {} },
      { key: "agents", type: "list of [agents](#agents)", required: true, description: "The agents you can @mention. Every agent is a member of `#general`.", example: "agents:\n  - name: demo\n    command: sidekicks:demo", schema: { type: "array", items: section("agent") } },
      { key: "channels", type: "list of [channels](#channels)", default: [], description: "Channels besides `#general`, each with its own members.", example: "channels:\n  - name: review\n    members: [claude, codex]", schema: { type: "array", items: section("channel") } },
      { key: "ui", type: "map", defaultText: "see [`ui`](#ui)", description: "Preferences for the Sidekicks view.", example: "ui:\n  defaultChannel: review", schema: section("ui") },
    ],
  },
  {
    id: "limits",
    path: "limits",
    intro: "How many agent processes run, for how long they may sit idle, and how long Sidekicks waits for an agent's answers.",
    keys: [
      { key: "maxRunningAgents", type: "integer ≥ 1", default: 4, description: "How many agent processes may run at once. When one more is needed, Sidekicks first stops the least recently used *idle* agent; when every running agent is busy, it refuses and says so.", example: "maxRunningAgents: 2", schema: { type: "integer", minimum: 1 } },
      { key: "idleTimeout", type: "duration", default: "10m", description: "How long an agent may stay idle (no turn running) before its process is stopped; it starts again when next addressed. A whole number and a unit: `s` (seconds), `m` (minutes) or `h` (hours); at most `24h`.", example: "idleTimeout: 30m", schema: str(PATTERNS.dayDuration) },
      { key: "requestTimeout", type: "duration", default: "60s", description: "How long Sidekicks waits for an agent to answer a request — starting or loading a session (`session/new`, `session/load`), changing a session setting (`session/set_mode`, `session/set_config_option`, `session/set_model`), signing in (`authenticate`, which always gets at least `5m`) — before it gives up and says which request did not answer. A turn itself (`session/prompt`) has no deadline. Same format as `idleTimeout`; at most `24h`.", example: "requestTimeout: 2m", schema: str(PATTERNS.dayDuration) },
      { key: "cancelTimeout", type: "duration", default: "10s", description: "After Stop (`session/cancel`), how long Sidekicks waits for the agent to end its turn. Past it the turn is ended as cancelled with a note saying the agent did not stop, and whatever the agent still sends for it is ignored. Same format as `idleTimeout`; at most `24h`.", example: "cancelTimeout: 30s", schema: str(PATTERNS.dayDuration) },
    ],
  },
  {
    id: "agent",
    path: "agents[]",
    shared: true,
    intro: "One ACP agent: a program that speaks the Agent Client Protocol on stdio.",
    keys: [
      { key: "name", type: "string", required: true, description: "The mention name: `@name` in a message. A letter, then letters, digits, `-` or `_`, ending with a letter or digit; at most 32 characters. Unique among agents, ignoring case (`Claude` and `claude` clash).", example: "name: claude", schema: str(PATTERNS.agentName) },
      { key: "title", type: "string", defaultText: "the name", description: "The name people read in the view and in pickers.", example: "title: Claude Code", schema: str(), pending: "the views do not show titles yet." },
      { key: "icon", type: "string", default: "hubot", description: "The agent's picture: a [codicon](https://code.visualstudio.com/api/references/icons-in-labels#icon-listing) name, written `hubot` or `$(hubot)`, or the path of an `.svg` or `.png` file relative to this file (it contains a `.` and ends in `.svg` or `.png`). The channel view shows it before the agent's name on its messages, in the agent's `color`.", example: "icon: $(sparkle)", schema: str(PATTERNS.icon) },
      { key: "color", type: "string", defaultText: "a colour of the theme's chart palette, chosen from the name", description: "The colour of the agent's name on its messages: a [theme colour id](https://code.visualstudio.com/api/references/theme-color) such as `charts.blue`, `charts.green` or `terminal.ansiMagenta` (it follows the theme), or a fixed colour `#rrggbb`.", example: "color: charts.purple", schema: str(PATTERNS.color) },
      { key: "description", type: "string", defaultText: "none", description: "One line on what the agent is for, shown in pickers.", example: "description: Reviews diffs and explains failures", schema: { type: "string" }, pending: "pickers do not show descriptions yet." },
      { key: "command", type: "string", required: true, description: "The program, found on the `PATH` as in a terminal: `npx`, `codex-acp`, `gemini`… `sidekicks:demo` runs the offline demo agent bundled with the extension. " + substitution, example: "command: npx", schema: str() },
      { key: "args", type: "list of strings", default: [], description: "Arguments, one per item, passed as they are: no shell, so no quoting, globbing or `~`. " + substitution, example: 'args: ["-y", "@agentclientprotocol/claude-agent-acp"]', schema: stringList },
      { key: "env", type: "map of strings", default: {}, description: "Extra environment variables, merged over the editor's own. Values are strings: quote numbers (`\"1\"`). " + substitution, example: "env:\n  ANTHROPIC_API_KEY: ${env:ANTHROPIC_API_KEY}", schema: { type: "object", additionalProperties: { type: "string" } } },
      {
        key: "workspace",
        type: "string \\| map",
        defaultText: "the workspace folder (or a worktree, when a channel it is in has [`worktree`](#channels))",
        description: "The folder the agent works in (its session `cwd`), relative to this file or absolute. Or a map `worktree:` (keys in [`agents[].workspace.worktree`](#agentsworkspaceworktree)): the agent works in a git worktree of its own, on a branch of its own, outside your folder, so agents working side by side never write to your files or each other's.",
        example: "workspace:\n  worktree:\n    base: main\n    branch: sidekicks/{agent}",
        schema: { oneOf: [{ title: "a folder", type: "string", minLength: 1 }, section("workspaceMap")] },
      },
      {
        key: "runtime",
        type: "`local` \\| `sbx` \\| map",
        default: "local",
        description: "Where the agent process runs. `local`: on this machine (with Remote-SSH, Dev Containers or Codespaces, the remote side, next to the code). A map with `type: container`: inside a running container through `docker exec -i` (keys in [`agents[].runtime` (container)](#agentsruntime-container)): only the agent's own `env` goes into the container; its session folder is `workdir` (else the container's working directory); the files it reads and writes are container paths, mapped to this machine through the container's bind mounts and confined to them; its terminals run in the container (`docker exec -it`). A container that is missing or stopped is said so when the agent starts. `sbx`: accepted so files shared with the Sidekicks desktop app stay valid, but an agent with `runtime: sbx` does not start in VS Code: starting it fails with a \"not supported\" error.",
        example: "runtime:\n  type: container\n  container: devbox\n  workdir: /workspace",
        schema: { oneOf: [{ title: `"local", "sbx"`, type: "string", enum: ["local", "sbx"] }, section("runtimeContainer")] },
      },
      {
        key: "permissions",
        type: "`ask` \\| `allow-reads` \\| `allow-all`",
        default: "ask",
        description: "How the agent's permission requests (ACP `session/request_permission`) are answered. `ask`: you choose each time among the agent's options. `allow-reads`: a request for a tool call of kind `read`, `search` or `think` is allowed automatically; the others are asked. `allow-all`: every request is allowed automatically. An automatic answer only ever selects the agent's one-time option (`allow_once`), never its \"always\" option (which would make the agent remember a rule of its own); when the agent offers no one-time option, you are asked. The card says what answered. Choosing one of the agent's options, \"always\" ones included, answers that request only: Sidekicks remembers nothing for it. Sidekicks' own rules come from **Always allow this request** / **Always reject this request** on a card, and match only that agent's requests with the same tool kind, exactly the same title and the same files (`Sidekicks: Remembered permissions…` lists and forgets them; [ADR 0005](../adr/0005-narrow-permission-rules.md)). A rule answers before the policy. **This answers requests automatically; it is not a safety classifier.** It trusts the tool kind and title the agent declares, never looks at what the tool will do, and cannot stop an agent that acts without asking.",
        example: "permissions: allow-reads",
        schema: { type: "string", enum: ["ask", "allow-reads", "allow-all"] },
      },
      { key: "mcpServers", type: "list of MCP servers", default: [], description: "MCP servers the agent should connect to, given to it in ACP `session/new`: a program on stdio ([keys](#agentsmcpservers-stdio)) or a URL with `type: http` or `type: sse` ([keys](#agentsmcpservers-http-sse)). Whether a transport works is up to the agent (it announces `mcpCapabilities`).", example: "mcpServers:\n  - name: files\n    command: npx\n    args: [\"-y\", \"@modelcontextprotocol/server-filesystem\", \".\"]", schema: { type: "array", items: { oneOf: [section("mcpStdio"), section("mcpHttp")] } } },
      { key: "sidekicksTools", type: "boolean", default: true, description: "Whether the agent's sessions get Sidekicks' own MCP server (named `sidekicks`, on the loopback, a token per session) beside `mcpServers`: the tools `skill_read` and `skill_reference` for its [skills](#agents), `channel_recent_messages`, `channel_members`, `post_progress` and `delegate(member, request)` (hands work to another member of the channel and returns its final answer; the hop limit and loop guard of mentions apply). Only agents that announce MCP over HTTP (`mcpCapabilities.http`) and run on this machine (not in a container `runtime`) get it. `false` leaves it out.", example: "sidekicksTools: false", schema: { type: "boolean" } },
      { key: "skills", type: "list of folders", default: [], description: "Skills attached to the agent: folders holding a `SKILL.md` that starts with YAML front matter (`name`, `version`, `description`) and reference files beside it. A path relative to the workspace folder, `~/…` in your home folder, or absolute. The skills' names and descriptions go before the first prompt of each session; the agent reads a skill with the `skill_read` tool (needs `sidekicksTools`). A skill that cannot be read is listed in the Problems panel and left out.", example: "skills: [skills/release-notes, ~/skills/code-review]", schema: stringList },
    ],
  },
  {
    id: "runtimeContainer",
    path: "agents[].runtime (container)",
    title: "a map {type: container, container: <name>}",
    intro: "An agent that runs inside a running container, started with `docker exec -i`. Before it starts, Sidekicks checks that the container runs (`docker inspect`); the paths the agent names inside the container's bind mounts are mapped to the host's folders and confined like a local agent's, and its terminals run in the container. The variables an agent asks for in a terminal go into the container only (as `docker exec --env=NAME=value`), never into the environment of the `docker` client on this machine. The built-in demo agent cannot run in a container.",
    keys: [
      { key: "type", type: "`container`", required: true, description: "Says this is a container runtime.", example: "type: container", schema: { const: "container" } },
      { key: "container", type: "string", required: true, description: "Name or ID of a running container, as `docker ps` shows it.", example: "container: devbox", schema: str(PATTERNS.container) },
      { key: "user", type: "string", defaultText: "the container's user", description: "User the agent runs as inside the container (`docker exec --user`): a name or `uid:gid`.", example: "user: node", schema: str() },
      { key: "workdir", type: "string", defaultText: "the container's working directory", description: "Absolute folder inside the container the agent works in (its session `cwd`).", example: "workdir: /workspace", schema: str(PATTERNS.absolutePath) },
    ],
  },
  {
    id: "workspaceMap",
    path: "agents[].workspace (worktree)",
    title: "a map {worktree: …}",
    intro: "A workspace that is a git worktree of the repository holding the workspace folder.",
    keys: [
      { key: "worktree", type: "`true` \\| map", required: true, description: "The agent's worktree: `true` for the defaults, or a map with the keys of [`agents[].workspace.worktree`](#agentsworkspaceworktree).", example: "worktree:\n  base: main", schema: worktreeSchema(PATTERNS.agentWorktreeBranch) },
    ],
  },
  {
    id: "worktree",
    path: "agents[].workspace.worktree",
    title: "a map {base, branch, root}",
    intro:
      "A git worktree per agent (`git worktree add`), made at the agent's first start in `<root>/<agent>` from the git repository that holds the workspace folder, and kept across reloads: the agent's files, terminals, watchers and checkpoints act there, confined to it. When the workspace folder is a subfolder of the repository, the agent works in the same subfolder of its worktree. **Sidekicks: Review Agent Worktree Changes** (Agents view context menu, palette) shows the branch's changes against its base, from their merge-base, committed and uncommitted (the title says which), in the multi-file diff editor. **Sidekicks: Apply Agent Worktree…** brings them into your current branch in your checkout: *Merge* (`git merge --no-ff`), *Squash* (`git merge --squash`, the changes left staged for you to commit), *Rebase, then fast-forward* (the agent's branch rebased on yours in its worktree, then `git merge --ff-only`), or *Leave as a branch* (copies `git push -u origin <branch>`, changes nothing). It refuses first, before git runs and before anything is committed, while the agent answers, when your checkout has staged changes or uncommitted ones in files the branch (or the agent's uncommitted work) changes, or while a merge or rebase is under way; then it offers to commit the agent's uncommitted work on its branch (a message you can edit). On conflicts git's conflict state stays, the conflicted files open in VS Code's merge editor (the merge-base's, your branch's and the agent's texts, your file as the result), and the message names the command that aborts: `git merge --abort` (merge), `git reset --merge` (squash), `git rebase --abort` in the agent's worktree (rebase). **Sidekicks: Compare Agent Worktrees…** shows two agents' attempts side by side in the multi-file diff editor: every file either changed, as it is in one worktree and in the other, where they differ. **Sidekicks: Remove Agent Worktree** removes it (asking first when it holds uncommitted changes; the branch is kept). Needs git 2.5 or later. With `runtime: container`, the worktree must lie under one of the container's bind mounts, since a running container cannot gain mounts (the default root, beside the repository, is usually not mounted: set `root` to a folder that is): the agent then works in its worktree's folder as the container names it (so an agent with a worktree takes no `workdir`: its start says so), its files confined to the worktree; otherwise its start fails, naming the folder to mount, before any worktree is made. Git run inside the container needs the repository mounted at the same path too (a worktree's `.git` file names it by its path on this machine).",
    keys: [
      { key: "base", type: "string", defaultText: "the repository's current branch (`HEAD`)", description: "The commit the agent's branch starts from when it is made: a branch, tag or commit. The Agents view shows how far the agent's branch is ahead of and behind it.", example: "base: main", schema: str() },
      { key: "branch", type: "string", default: "sidekicks/{agent}", description: "The agent's branch. `{agent}` is replaced by the agent's name, `{channel}` by the channel's name (for a channel's `worktree`). An existing branch is reused when no other worktree has it checked out.", example: "branch: sidekicks/{agent}", schema: str(PATTERNS.worktreeBranch) },
      { key: "root", type: "string", defaultText: "`.sidekicks-worktrees/<repository folder name>` beside the repository", description: "The folder the worktrees go in, one subfolder per agent; relative to this file or absolute. It must be outside the repository.", example: "root: ../worktrees", schema: str() },
    ],
  },
  {
    id: "mcpStdio",
    path: "agents[].mcpServers[] (stdio)",
    title: "a stdio server {name, command}",
    intro: "An MCP server the agent starts itself and talks to on stdio (ACP `McpServerStdio`).",
    keys: [
      { key: "type", type: "`stdio`", default: "stdio", description: "May be left out: a server without `type` is a stdio server.", example: "type: stdio", schema: { type: "string", enum: ["stdio"] } },
      { key: "name", type: "string", required: true, description: "The name the agent knows the server by; unique among this agent's servers.", example: "name: files", schema: str() },
      { key: "command", type: "string", required: true, description: "The server program; the agent starts it, found on its `PATH`.", example: "command: npx", schema: str() },
      { key: "args", type: "list of strings", default: [], description: "Its arguments, one per item.", example: 'args: ["-y", "@modelcontextprotocol/server-filesystem", "."]', schema: stringList },
      { key: "env", type: "map of strings, or list of `{name, value}`", default: {}, description: "Environment variables for the server: a map `NAME: value`, or ACP's own list of `{name, value}`. Passed to the agent as written (no `${env:…}` substitution).", example: "env:\n  LOG_LEVEL: debug", schema: nameValues("variable name") },
    ],
  },
  {
    id: "mcpHttp",
    path: "agents[].mcpServers[] (http, sse)",
    title: "an http or sse server {type, name, url}",
    intro: "An MCP server the agent reaches at a URL (ACP `McpServerHttp`, `McpServerSse`).",
    keys: [
      { key: "type", type: "`http` \\| `sse`", required: true, description: "The transport: `http` (streamable HTTP) or `sse` (server-sent events, older).", example: "type: http", schema: { type: "string", enum: ["http", "sse"] } },
      { key: "name", type: "string", required: true, description: "The name the agent knows the server by; unique among this agent's servers.", example: "name: docs", schema: str() },
      { key: "url", type: "string", required: true, description: "The server's `http://` or `https://` URL.", example: "url: https://mcp.example.com/mcp", schema: str(PATTERNS.url) },
      { key: "headers", type: "map of strings, or list of `{name, value}`", default: {}, description: "HTTP headers sent with every request: a map `Name: value`, or ACP's own list of `{name, value}`. Passed to the agent as written (no `${env:…}` substitution).", example: "headers:\n  Authorization: Bearer abc123", schema: nameValues("header name") },
    ],
  },
  {
    id: "channel",
    path: "channels[]",
    shared: true,
    intro: "A channel with its own members. A direct conversation with one agent needs no entry here.",
    // `members` is required, except for `general` (every agent), which must not list them: one rule both judges apply.
    schemaExtra: {
      if: { properties: { name: { const: "general" } }, required: ["name"] },
      then: { not: { properties: { members: true }, required: ["members"] }, description: "\"general\" has every agent as a member: leave out members (its description and moderator apply)" },
      else: { properties: { members: true }, required: ["members"] },
    },
    keys: [
      { key: "name", type: "string", required: true, description: "Shown as `#name`: lowercase letters, digits, `-` or `_`, starting with a letter or digit; at most 64 characters. Unique. `general` is built in and has every agent as a member: declare it (without `members`) to give it a `description` or a `moderator`.", example: "name: review", schema: str(PATTERNS.channelName) },
      { key: "description", type: "string", defaultText: "none", description: "What the channel is for, shown at its top.", example: "description: Two reviewers and a referee", schema: { type: "string" } },
      { key: "members", type: "list of agent names", defaultText: "required, except for `general` (every agent, never listed)", description: "The agents in the channel, by `name` (at least one; each once). Required for every channel but `general`, whose members are every agent of the roster and are never listed.", example: "members: [claude, codex, gemini]", schema: { type: "array", minItems: 1, items: { type: "string" } } },
      { key: "worktree", type: "`true` \\| map", defaultText: "none", description: "Gives every member that has no `workspace` of its own a git worktree of its own, with the keys of [`agents[].workspace.worktree`](#agentsworkspaceworktree) (`{channel}` in `branch` is this channel's name). An agent can get a worktree from one channel only.", example: "worktree:\n  branch: sidekicks/{channel}/{agent}", schema: worktreeSchema(PATTERNS.channelWorktreeBranch) },
      { key: "moderator", type: "agent name", defaultText: "none", description: "A member woken once every turn of a round has settled, to sum up or decide (a panel). Must be one of `members`. The moderator's turn gets the round's answers as channel context, after a note \"Round complete\" in the channel; a round addressed to the moderator alone wakes nothing.", example: "moderator: gemini", schema: { type: "string" } },
      { key: "skills", type: "list of folders", default: [], description: "Skills attached to every member in this channel, after the member's own `skills` (same form; a skill name already attached to the agent keeps the agent's).", example: "skills: [skills/review-checklist]", schema: stringList },
    ],
  },
  {
    id: "ui",
    path: "ui",
    intro: "Preferences for the Sidekicks view.",
    keys: [
      { key: "defaultChannel", type: "channel name", default: "general", description: "The channel the view opens first: `general` or the `name` of an entry of `channels`.", example: "defaultChannel: review", schema: { type: "string", minLength: 1 }, pending: "the view opens `#general` today." },
    ],
  },
];

/** A complete file using most keys: shown in the reference and checked by the tests to be valid. */
export const FULL_EXAMPLE = `version: 1
limits:
  maxRunningAgents: 3
  idleTimeout: 15m
  requestTimeout: 2m            # how long session/new and the like may take
  cancelTimeout: 30s            # how long Stop waits for the agent to end its turn

defaults: &defaults           # not read by Sidekicks: a home for anchors
  permissions: allow-reads
  icon: $(sparkle)

agents:
  - name: demo
    command: sidekicks:demo   # offline, no account
  - name: claude
    <<: *defaults
    title: Claude Code
    color: charts.orange
    command: npx
    args: ["-y", "@agentclientprotocol/claude-agent-acp"]
    env:
      ANTHROPIC_API_KEY: \${env:ANTHROPIC_API_KEY}
    mcpServers:
      - name: docs
        type: http
        url: https://mcp.example.com/mcp
  - name: codex
    <<: *defaults
    command: npx
    args: ["-y", "@agentclientprotocol/codex-acp"]
    workspace: ../service
  - name: gemini
    command: gemini
    args: ["--acp"]
    runtime:
      type: container
      container: devbox
      workdir: /workspace

channels:
  - name: review
    description: Two reviewers and a referee
    members: [claude, codex, gemini]
    moderator: gemini

ui:
  defaultChannel: review
`;

/** Invalid snippets whose real messages the reference lists (rendered by running validation on them). */
export const MESSAGE_SAMPLES: string[] = [
  "agents:\n  - name: demo\n    comand: sidekicks:demo\n",
  "agents:\n  - name: 9lives\n    command: x\n",
  "agents:\n  - name: claude\n    command: x\n  - name: Claude\n    command: y\n",
  "agents:\n  - name: claude\n    command: x\n    permissions: allow-al\n",
  "limits:\n  idleTimeout: 10 minutes\nagents: []\n",
  "agents:\n  - name: claude\n    command: x\nchannels:\n  - name: review\n    members: [claud]\n",
  "agents:\n  - name: a\n    command: x\n  - name: b\n    command: y\nchannels:\n  - name: review\n    members: [a]\n    moderator: b\n",
];
