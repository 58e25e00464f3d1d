/** Explains why agents cannot run when the roster file is missing, invalid or untrusted. */
import * as l10n from "@vscode/l10n";
import "@vscode-elements/elements/dist/vscode-button/index.js";
import type { ConfigStatus } from "../../src/protocol";
import type { HostCommand } from "../channelStore";

/** Nothing when the config is `ok`; otherwise a banner with what is wrong and the button that fixes it. */
export function ConfigBanner(props: { config: ConfigStatus | undefined; error: string | undefined; run: (command: HostCommand) => void }) {
  const { config, error, run } = props;
  if (!config || config.state === "ok") return null;
  return (
    <section class={`config-banner state-${config.state}`} aria-label={l10n.t("Configuration")}>
      {config.state === "missing" && (
        <>
          <p class="banner-title">{l10n.t("No sidekicks.yaml yet")}</p>
          <p>{l10n.t("Create one to declare the agents of this workspace.")}</p>
          <vscode-button class="banner-action" onClick={() => run("createConfig")}>
            {l10n.t("Create config")}
          </vscode-button>
        </>
      )}
      {config.state === "invalid" && (
        <>
          <p class="banner-title">{l10n.t("{0} has problems", fileName(config.path))}</p>
          <p>{l10n.t("Until it is fixed, Sidekicks keeps using the last valid version (if there was one).")}</p>
          <ul class="config-problems">
            {config.problems.map((problem, i) => (
              <li key={i} title={problem}>
                {problem.startsWith(config.path) ? fileName(config.path) + problem.slice(config.path.length) : problem}
              </li>
            ))}
          </ul>
          <vscode-button class="banner-action" onClick={() => run("openConfig")}>
            {l10n.t("Open config")}
          </vscode-button>
        </>
      )}
      {config.state === "untrusted" && (
        <>
          <p class="banner-title">{l10n.t("Workspace not trusted")}</p>
          <p>
            {l10n.t(
              "Agents declared in this workspace's sidekicks.yaml don't start in an untrusted workspace. History stays readable; trust the workspace to run agents.",
            )}
          </p>
          <vscode-button class="banner-action" onClick={() => run("manageTrust")}>
            {l10n.t("Manage Workspace Trust")}
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
