/** Explains why agents cannot run when the roster file is missing, invalid or untrusted. */
import "@vscode-elements/elements/dist/vscode-button/index.js";
import type { ConfigStatus } from "../../src/protocol";
import type { HostCommand } from "../channelStore";

/** Nothing when the config is `ok`; otherwise a banner with what is wrong and the button that fixes it. */
export function ConfigBanner(props: { config: ConfigStatus | undefined; error: string | undefined; run: (command: HostCommand) => void }) {
  const { config, error, run } = props;
  if (!config || config.state === "ok") return null;
  return (
    <section class={`config-banner state-${config.state}`} aria-label="Configuration">
      {config.state === "missing" && (
        <>
          <p class="banner-title">No sidekicks.yaml yet</p>
          <p>Create one to declare the agents of this workspace.</p>
          <vscode-button class="banner-action" onClick={() => run("createConfig")}>
            Create config
          </vscode-button>
        </>
      )}
      {config.state === "invalid" && (
        <>
          <p class="banner-title">{fileName(config.path)} has problems</p>
          <p>Until it is fixed, Sidekicks keeps using the last valid version (if there was one).</p>
          <ul class="config-problems">
            {config.problems.map((problem, i) => (
              <li key={i} title={problem}>
                {problem.startsWith(config.path) ? fileName(config.path) + problem.slice(config.path.length) : problem}
              </li>
            ))}
          </ul>
          <vscode-button class="banner-action" onClick={() => run("openConfig")}>
            Open config
          </vscode-button>
        </>
      )}
      {config.state === "untrusted" && (
        <>
          <p class="banner-title">Workspace not trusted</p>
          <p>
            Agents declared in this workspace's sidekicks.yaml don't start in an untrusted workspace. History stays
            readable; trust the workspace to run agents.
          </p>
          <vscode-button class="banner-action" onClick={() => run("manageTrust")}>
            Manage Workspace Trust
          </vscode-button>
        </>
      )}
      {error && <p class="banner-error">{error}</p>}
    </section>
  );
}

/** The last segment of a path (either separator). */
function fileName(path: string): string {
  return path.split(/[\\/]/).pop() || path;
}
