import * as l10n from "@vscode/l10n";
import { SidekicksError } from "../shared/errors";
import type { AuthMethodInfo, AuthRequired } from "./types";

/**
 * A request the agent refused with "authentication required" (JSON-RPC -32000). Code `agent/request`, like any
 * error answer; {@link auth} says how the user can sign in, so the editor layer can offer it without parsing text.
 */
export class AuthRequiredError extends SidekicksError {
  constructor(
    readonly auth: AuthRequired,
    message: string,
    detail?: string,
    options?: { cause?: unknown },
  ) {
    super("agent/request", message, detail, options);
    this.name = "AuthRequiredError";
  }
}

/** An environment variable named in prose, such as "Requires setting the `CODEX_API_KEY` environment variable". */
const ENV_VAR_IN_TEXT = /`?\b([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\b`?\s+(?:environment|env)\s+var/;

/**
 * Reads the `authMethods` of an `initialize` result into {@link AuthMethodInfo}s. The input is the raw JSON: the
 * SDK's types know `agent` and `terminal` methods only, so the draft `env_var` method (`vars: [{name}]`, or the
 * older `varName`) is read here too. Entries that are not objects with a string `id` and `name` are skipped.
 *
 * @param raw the `authMethods` value as received (anything)
 */
export function parseAuthMethods(raw: unknown): AuthMethodInfo[] {
  if (!Array.isArray(raw)) return [];
  const methods: AuthMethodInfo[] = [];
  for (const item of raw as unknown[]) {
    if (!isRecord(item) || typeof item.id !== "string" || typeof item.name !== "string") continue;
    const base = { id: item.id, name: item.name, description: typeof item.description === "string" ? item.description : undefined };
    if (item.type === "terminal") {
      methods.push({ kind: "terminal", ...base, args: stringArray(item.args), env: stringRecord(item.env) });
    } else if (item.type === "env_var") {
      const vars = Array.isArray(item.vars)
        ? (item.vars as unknown[]).map((v) => (isRecord(v) && typeof v.name === "string" ? v.name : undefined)).filter((v): v is string => !!v)
        : typeof item.varName === "string"
          ? [item.varName]
          : [];
      methods.push({ kind: "envVar", ...base, vars, link: typeof item.link === "string" ? item.link : undefined });
    } else {
      const named = ENV_VAR_IN_TEXT.exec(base.description ?? "")?.[1];
      methods.push(named ? { kind: "envVar", ...base, vars: [named] } : { kind: "agent", ...base });
    }
  }
  return methods;
}

/** One line per method for people: `Log in with Claude (run "claude-agent-acp --login" in a terminal)`. */
export function describeAuthMethod(method: AuthMethodInfo): string {
  switch (method.kind) {
    case "terminal":
      return l10n.t("{0} (a login in a terminal)", method.name);
    case "envVar":
      return method.vars.length > 0 ? l10n.t("{0} (set {1})", method.name, method.vars.join(", ")) : method.name;
    default:
      return method.name;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function stringArray(value: unknown): string[] {
  return Array.isArray(value) ? (value as unknown[]).filter((v): v is string => typeof v === "string") : [];
}

function stringRecord(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (isRecord(value)) for (const [k, v] of Object.entries(value)) if (typeof v === "string") out[k] = v;
  return out;
}
