import * as l10n from "@vscode/l10n";
import path from "node:path";
import { SidekicksError } from "../shared/errors";

/** Where the roster is looked for in a workspace folder when `sidekicks.configPath` is empty, in order. */
export const DEFAULT_CONFIG_FILES = ["sidekicks.yaml", ".vscode/sidekicks.yaml"] as const;

/** What deciding the roster's location needs to know; the editor side fills it in (no `vscode` here). */
export interface ConfigLocationInput {
  /** Absolute path of the first workspace folder, if one is open. */
  folder?: string;
  /** The `sidekicks.configPath` setting as written (may be empty). */
  setting?: string;
  /** The user's home folder, for a setting starting with `~/`. */
  home?: string;
  /** Whether a file exists (absolute path). */
  exists(file: string): boolean;
}

/** The roster's absolute path and why it was chosen. */
export interface ConfigLocation {
  file: string;
  /** `setting`: from `sidekicks.configPath`; `found`: an existing default file; `default`: where Create config writes. */
  source: "setting" | "found" | "default";
}

/**
 * Decides which file is the roster: the setting `sidekicks.configPath` when set (absolute, `~/…`, or relative to
 * the folder; `${workspaceFolder}` expanded), else the first of `DEFAULT_CONFIG_FILES` that exists in the folder,
 * else `sidekicks.yaml` in the folder (where `Sidekicks: Create config` writes).
 *
 * @throws SidekicksError `config/missing` when no folder is open and the setting does not name an absolute path
 */
export function resolveConfigLocation(input: ConfigLocationInput): ConfigLocation {
  const { folder } = input;
  let setting = input.setting?.trim() ?? "";
  if (setting) {
    if (setting.includes("${workspaceFolder}")) {
      if (!folder) throw noFolder(l10n.t("sidekicks.configPath uses {0}, but no folder is open.", "${workspaceFolder}"));
      setting = setting.replace(/\$\{workspaceFolder\}/g, folder);
    }
    if ((setting === "~" || setting.startsWith("~/")) && input.home) setting = path.join(input.home, setting.slice(1));
    if (path.isAbsolute(setting)) return { file: path.normalize(setting), source: "setting" };
    if (!folder) throw noFolder(l10n.t('sidekicks.configPath is relative ("{0}"), but no folder is open: open one, or make the path absolute.', setting));
    return { file: path.resolve(folder, setting), source: "setting" };
  }
  if (!folder) throw noFolder(l10n.t("Open a folder first: Sidekicks keeps its roster (sidekicks.yaml) in the workspace."));
  for (const candidate of DEFAULT_CONFIG_FILES) {
    const file = path.join(folder, candidate);
    if (input.exists(file)) return { file, source: "found" };
  }
  return { file: path.join(folder, DEFAULT_CONFIG_FILES[0]), source: "default" };
}

function noFolder(message: string): SidekicksError {
  return new SidekicksError("config/missing", message);
}
