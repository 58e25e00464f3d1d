/**
 * The commented `sidekicks.yaml` that `Sidekicks: Create config` writes: the offline demo agent, enabled, and
 * examples for real agents, limits and a channel, commented out (the agents need an account). Valid as written,
 * and valid with every commented example uncommented (test/unit/roster.test.ts checks both). Keys:
 * docs/reference/configuration.md.
 */
export const CONFIG_TEMPLATE = `# Sidekicks roster: the ACP agents you can @mention in channels.
# Every key: docs/reference/configuration.md in the Sidekicks repository, and hovers if the YAML extension is installed.
# Each agent joins #general. Write "@name your request" in the Sidekicks view.
version: 1

# How many agent processes may run at once, and how long one may sit idle before it is stopped:
# limits:
#   maxRunningAgents: 4
#   idleTimeout: 10m

agents:
  # An offline demo agent bundled with the extension: no account needed.
  # Try "@demo hello", "@demo show a tool call", "@demo show code", "@demo ask permission",
  # "@demo edit a file" (it changes demo-notes.md: its answer lists the file, with a diff).
  - name: demo
    command: sidekicks:demo

  # A second demo agent, so the first can hand work on: "@demo delegate to odie" (delegation).
  # - name: odie
  #   command: sidekicks:demo

  # Claude Code through its ACP adapter (needs Node.js and a Claude login or ANTHROPIC_API_KEY):
  # - name: claude
  #   command: npx
  #   args: ["-y", "@agentclientprotocol/claude-agent-acp"]
  #   env:
  #     ANTHROPIC_API_KEY: \${env:ANTHROPIC_API_KEY}

  # Codex through its ACP adapter (needs a ChatGPT login or OPENAI_API_KEY):
  # - name: codex
  #   command: npx
  #   args: ["-y", "@agentclientprotocol/codex-acp"]

  # Gemini CLI, which speaks ACP itself:
  # - name: gemini
  #   command: gemini
  #   args: ["--acp"]

# Channels besides #general, with their own members; a moderator sums up once every member has answered:
# channels:
#   - name: review
#     description: Two reviewers and a referee
#     members: [claude, codex, gemini]
#     moderator: gemini
`;
