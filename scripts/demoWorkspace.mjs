// @ts-check
// The demo workspace `npm start` opens (.demo/workspace): a roster of two offline demo agents (so one can delegate to
// the other), a README saying what to try, and demo-notes.md for "@demo edit a file" to change. Types:
// demoWorkspace.d.mts; tested in test/unit/startArgs.test.ts.
import fs from "node:fs";
import path from "node:path";

/** The demo roster: two processes of the bundled demo agent, each its own channel member. */
export const DEMO_ROSTER = `# Sidekicks demo roster: two offline demo agents (the same bundled program, two processes) that need no account.
# In #general try "@demo edit a file" (its answer lists the file it changed, with a diff) and
# "@demo delegate to odie" (demo hands your request to odie, who answers in a turn of its own).
agents:
  - name: demo
    command: sidekicks:demo
  - name: odie
    command: sidekicks:demo
`;

const DEMO_README = `# Sidekicks demo workspace

Created by \`npm start\`. Open the Sidekicks view in the activity bar and write in #general, for example:

    @demo hello
    @demo edit a file
    @demo delegate to odie
    @demo delegate to odie: edit a file

\`demo\` and \`odie\` are the bundled offline demo agent (\`command: sidekicks:demo\` in sidekicks.yaml): they need no
account and no network. "edit a file" changes demo-notes.md (the answer lists the file it changed, with its diff);
"delegate to odie" makes demo's answer mention @odie, and odie takes the request over. \`@demo /help\` lists the rest.
Add real ACP agents (Claude Code, Codex, Gemini CLI, …) to sidekicks.yaml to talk to them here too.
`;

/** The file "@demo edit a file" changes (src/demo-agent/fileEdit.ts: each edit counts up and adds a line). */
export const DEMO_NOTES = `# Demo notes

A file for the demo agents to change: send "@demo edit a file" in #general, and its answer lists this file as
changed, with a diff.

Edits so far: 0
`;

/**
 * What earlier versions of `npm start` wrote, file by file: a file still holding exactly one of these was never
 * edited by its user, and is brought up to date; any other text is the user's, and kept.
 * @type {Record<string, string[]>}
 */
const EARLIER = {
  "sidekicks.yaml": [
    `# Sidekicks demo roster: an offline demo agent that needs no account.
agents:
  - name: demo
    command: sidekicks:demo
`,
  ],
  "README.md": [
    `# Sidekicks demo workspace

Created by \`npm start\`. Open the Sidekicks view in the activity bar and write in #general, for example:

    @demo hello

\`demo\` is the bundled offline demo agent (\`command: sidekicks:demo\` in sidekicks.yaml): it needs no account and
no network. Add real ACP agents (Claude Code, Codex, Gemini CLI, …) to sidekicks.yaml to talk to them here too.
`,
  ],
};

/**
 * Writes the demo workspace's files into `folder` (created if needed) when missing, or when they still hold what an
 * earlier `npm start` wrote; a file its user changed is left as it is, so edits survive the next `npm start`.
 *
 * @returns the names of the files written
 * @type {typeof import("./demoWorkspace.mjs").createDemoWorkspace}
 */
export function createDemoWorkspace(folder) {
  fs.mkdirSync(folder, { recursive: true });
  const written = [];
  for (const [name, text] of /** @type {const} */ ([["sidekicks.yaml", DEMO_ROSTER], ["README.md", DEMO_README], ["demo-notes.md", DEMO_NOTES]])) {
    const file = path.join(folder, name);
    const now = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : undefined;
    if (now !== undefined && !(EARLIER[name] ?? []).includes(now)) continue;
    fs.writeFileSync(file, text);
    written.push(name);
  }
  return written;
}
