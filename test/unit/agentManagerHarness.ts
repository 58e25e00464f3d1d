/**
 * Shared set-up of the agent manager tests: a manager over scripted fake agents (real subprocesses), a manual
 * clock, and an emitter that records events and lets a test wait for one.
 */
import type { AgentManagerOptions, SessionSink } from "../../src/agents/AgentManager";
import { AgentManager } from "../../src/agents/AgentManager";
import { ManualClock } from "../../src/agents/Clock";
import type { AgentLimits } from "../../src/agents/policy";
import type { AgentConfig } from "../../src/config/roster";
import type { Emitter, SidekicksEventName, SidekicksEvents } from "../../src/events/events";
import type { AgentState, AgentWait } from "../../src/shared/protocol";
import { FAKE_AGENT, until } from "./helpers";

/** Records events in order; {@link waitFor} resolves on a matching event, past or future. */
export class WaitingRecorder implements Emitter {
  readonly events: { name: SidekicksEventName; payload: unknown }[] = [];
  private waiters: { match: (name: SidekicksEventName, payload: unknown) => boolean; resolve: () => void }[] = [];

  emit<E extends SidekicksEventName>(name: E, payload: SidekicksEvents[E]): void {
    this.events.push({ name, payload });
    this.waiters = this.waiters.filter((w) => {
      if (!w.match(name, payload)) return true;
      w.resolve();
      return false;
    });
  }

  /** The states `agent` went through, in order. */
  states(agent: string): AgentState[] {
    return this.of("agent/state").filter((p) => p.agent === agent).map((p) => p.state);
  }

  /** Log lines about `agent`. */
  logs(agent: string): string[] {
    return this.of("agent/log").filter((p) => p.agent === agent).map((p) => p.line);
  }

  of<E extends SidekicksEventName>(name: E): SidekicksEvents[E][] {
    return this.events.filter((e) => e.name === name).map((e) => e.payload as SidekicksEvents[E]);
  }

  /**
   * Resolves with the first `agent/waiting` of `agent` (past or future) that says it waits for `waiting` (issue 18).
   * Safety net 15 s, as {@link waitForState}.
   */
  waitForWait(agent: string, waiting: AgentWait): Promise<void> {
    const seen = () => this.of("agent/waiting").some((p) => p.agent === agent && p.waiting === waiting);
    if (seen()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${agent} never waited for ${waiting}; states: ${this.states(agent).join(" → ")}`)), 15_000);
      this.waiters.push({
        match: (name, payload) => name === "agent/waiting" && (payload as { agent: string }).agent === agent && (payload as { waiting?: string }).waiting === waiting,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }

  /**
   * Resolves once `agent` enters `state` for the `nth` time (1-based, counting past events). A safety net rejects
   * after 15 s so a broken manager fails the test instead of hanging it; no assertion depends on that time.
   */
  waitForState(agent: string, state: AgentState, nth = 1): Promise<void> {
    const count = () => this.states(agent).filter((s) => s === state).length;
    if (count() >= nth) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${agent} never reached ${state} #${nth}; states: ${this.states(agent).join(" → ")}`)), 15_000);
      this.waiters.push({
        match: (name, payload) => name === "agent/state" && (payload as { agent: string }).agent === agent && count() >= nth,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }
}

/** A roster entry running the fake agent with `script` (see test/fixtures/fake-agent.mjs). */
export function fakeAgent(name: string, script: object = {}, env: Record<string, string> = {}): AgentConfig {
  return { name, command: process.execPath, args: [FAKE_AGENT], env: { FAKE_AGENT_SCRIPT: JSON.stringify(script), ...env } };
}

/** A sink that collects the text an agent streams. */
export function textSink(): SessionSink & { text: () => string } {
  let text = "";
  return {
    onUpdate: (u) => {
      if (u.kind === "text") text += u.text;
    },
    onPermissionRequest: async () => ({ outcome: "cancelled" }),
    text: () => text,
  };
}

/** A manager with a manual clock and a waiting recorder; `limits` default to 4 agents and 10 min idle. */
export function harness(limits?: Partial<AgentLimits>, extra: Partial<AgentManagerOptions> = {}) {
  const events = new WaitingRecorder();
  const clock = new ManualClock();
  const manager = new AgentManager(events, {
    launch: { workspaceFolder: process.cwd(), nodePath: process.execPath, demoAgentPath: "", env: process.env },
    clock,
    limits: { maxRunningAgents: 4, idleTimeoutMs: 600_000, ...limits },
    ...extra,
  });
  return { events, clock, manager };
}

/** True while a process (or, with a negative id, a process group) exists: `kill(pid, 0)` does not fail with ESRCH. */
export function exists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

/** Waits until `pid` (or group `-pgid`) is gone: a killed process may stay a zombie for a moment. Safety net 5 s. */
export async function gone(pid: number): Promise<boolean> {
  await until(() => !exists(pid), 5_000);
  return !exists(pid);
}
