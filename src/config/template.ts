/**
 * The commented `sidekicks.yaml` that `Sidekicks: Create config` writes: the offline demo agent, enabled, and
 * examples for real agents, commented out (they need an account). Keep in step with
 * docs/reference/configuration.md.
 */
export const CONFIG_TEMPLATE = `# Sidekicks roster: the ACP agents you can @mention in channels.
# Every key: docs/reference/configuration.md in the Sidekicks repository, and hovers if the YAML extension is installed.
# Each agent joins #general. Write "@name your request" in the Sidekicks view.
version: 1
agents:
  # An offline demo agent bundled with the extension: no account needed.
  # Try "@demo hello", "@demo show a tool call", "@demo ask permission".
  - name: demo
    command: sidekicks:demo

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
`;
