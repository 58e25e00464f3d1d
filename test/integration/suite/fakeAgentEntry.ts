import path from "node:path";

/**
 * A sidekicks.yaml entry (under `agents:`) for the scripted fake agent (test/fixtures/fake-agent.mjs), run by the
 * extension host's own Node (`ELECTRON_RUN_AS_NODE`), as YAML lines ending with an empty one.
 * @param extensionPath the extension's folder (the fixture is inside it)
 */
export function fakeAgentEntry(name: string, script: object, extensionPath: string): string[] {
  return [
    `  - name: ${name}`,
    `    command: ${JSON.stringify(process.execPath)}`,
    `    args: [${JSON.stringify(path.join(extensionPath, "test", "fixtures", "fake-agent.mjs"))}]`,
    "    env:",
    `      ELECTRON_RUN_AS_NODE: "1"`,
    `      FAKE_AGENT_SCRIPT: ${JSON.stringify(JSON.stringify(script))}`,
    "",
  ];
}
