/** Explains why agents cannot run when the roster file is missing, invalid or untrusted. */
import * as l10n from "@vscode/l10n";
import "@vscode-elements/elements/dist/vscode-button/index.js";
import { useState } from "preact/hooks";
import type { ConfigStatus } from "../../src/shared/protocol";
import type { HostCommand } from "../channelStore";

/**
 * The problem lists the user collapsed in this webview's session (by their text): the banner stays a one-line bar
 * for them across channel switches, and opens again when the problems change.
 */
const collapsedProblems = new Set<string>();

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
      {config.state === "invalid" && <InvalidConfig config={config} run={run} />}
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

/**
 * A broken roster, compact enough for a narrow sidebar: a title row with `Open config` and a collapse toggle, then the
 * first problem and an "N more" button that lists the others. Collapsed, only the title row is left.
 */
function InvalidConfig({ config, run }: { config: ConfigStatus; run: (command: HostCommand) => void }) {
  const key = config.problems.join("\n");
  const [collapsed, setCollapsed] = useState(() => collapsedProblems.has(key));
  const [all, setAll] = useState(false);
  const isCollapsed = collapsed && collapsedProblems.has(key);
  const toggle = () => {
    if (isCollapsed) collapsedProblems.delete(key);
    else collapsedProblems.add(key);
    setCollapsed(!isCollapsed);
  };
  const shown = all ? config.problems : config.problems.slice(0, 1);
  const more = config.problems.length - shown.length;
  const name = fileName(config.path);
  return (
    <>
      <div class="banner-row">
        <button
          type="button"
          class="banner-toggle"
          aria-expanded={!isCollapsed}
          aria-controls="config-problems"
          title={isCollapsed ? l10n.t("Show the problems") : l10n.t("Hide the problems")}
          onClick={toggle}
        >
          <span class="banner-chevron" aria-hidden="true">
            {isCollapsed ? "▸" : "▾"}
          </span>
          <span class="banner-title">{config.problems.length === 1 ? l10n.t("{0} has a problem", name) : l10n.t("{0} has {1} problems", name, config.problems.length)}</span>
        </button>
        <vscode-button class="banner-action" onClick={() => run("openConfig")}>
          {l10n.t("Open config")}
        </vscode-button>
      </div>
      {!isCollapsed && (
        <div id="config-problems">
          <ul class={`config-problems${more > 0 ? " first" : ""}`}>
            {shown.map((problem, i) => (
              <li key={i} title={problem}>
                {problem.startsWith(config.path) ? name + problem.slice(config.path.length) : problem}
              </li>
            ))}
          </ul>
          {more > 0 && (
            <button type="button" class="banner-more" aria-controls="config-problems" onClick={() => setAll(true)}>
              {l10n.t("{0} more", more)}
            </button>
          )}
          {more === 0 && <p class="banner-note">{l10n.t("Until it is fixed, Sidekicks keeps using the last valid version (if there was one).")}</p>}
        </div>
      )}
    </>
  );
}

/** The last segment of a path (either separator). */
function fileName(path: string): string {
  return path.split(/[\\/]/).pop() || path;
}
