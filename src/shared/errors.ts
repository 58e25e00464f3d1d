/**
 * Typed domain errors with stable codes (STYLE.md, "Typed errors with codes"). Only `src/vscode/` and the webview
 * turn them into words for people; the domain compares `code`, never message text. Imports nothing.
 */

/** Every error code the domain raises. */
export type ErrorCode =
  | "agent/spawn" // the command could not be started (not found, not executable)
  | "agent/exited" // the process exited while we needed it
  | "agent/stopped" // Sidekicks stopped the process on purpose (Stop agent, Restart agent, shutdown)
  | "agent/protocol" // it did not speak ACP (no valid initialize reply, malformed answers)
  | "agent/request" // the agent answered a request with a JSON-RPC error
  | "agent/untrusted" // workspace not trusted: agents from its config never start
  | "agent/limit" // limits.maxRunningAgents reached and every running agent is busy
  | "agent/backoff" // the agent crashed repeatedly; a restart waits out its backoff
  | "agent/timeout" // the agent did not answer a request (or session/cancel) within its deadline (limits.requestTimeout, limits.cancelTimeout)
  | "agent/unsupported" // a runtime Sidekicks cannot run (sbx; the demo agent in a container), or session settings it cannot change
  | "config/missing"
  | "config/invalid"
  | "config/conflict" // the roster changed on disk since it was read: an edit is not saved over it
  | "channel/noRecipient" // a message nobody can take: empty, or no mention and no default agent
  | "channel/unknownMember" // @name is not a member of the channel
  | "channel/unknownCommand" // /cmd is not a command the addressed agent announced
  | "channel/notFound" // no channel with that name or id
  | "channel/exists" // a channel already has that name
  | "channel/busy" // a member is still answering in the channel (it cannot be deleted until stopped)
  | "channel/invalidName" // a channel name that is empty, too long, or has characters outside [a-z0-9_-]
  | "channel/attachment" // an attachment refused: outside the workspace, not found, an image too large or of a type not taken
  | "session/invalidChange" // a session setting (mode, config option, model) the agent's session does not offer
  | "turn/interrupted" // the answer was cut short by a reload or shutdown
  | "workspace/outside" // a path outside the agent's workspace roots (`..`, elsewhere, an escaping symlink) or not mapped into its container
  | "workspace/notFound" // a file or folder an agent asked for does not exist
  | "workspace/writeFailed" // an agent's write was not applied (the editor refused the edit, the path is a folder)
  | "workspace/notRegular" // an agent's read or write of something that is not a regular file (a FIFO, socket or device)
  | "workspace/tooLarge" // an agent's request over a size limit: the text one read may return, a path's depth or length
  | "worktree/unavailable" // an agent's git worktree cannot be made or used (git missing or too old, not a repository, no commits, a missing base, a branch checked out elsewhere, a locked or vanished worktree)
  | "worktree/dirty" // removing (or applying) an agent's worktree that holds uncommitted work, without the user's confirmation (or a commit first)
  | "worktree/applyRefused" // applying an agent's branch would touch the user's uncommitted work, or a merge or rebase is under way; or no shared commit with its base
  | "worktree/applyFailed" // git failed while applying an agent's branch or committing its work (no identity, a hook refused…)
  | "agent/requestLimit" // an agent over a per-agent limit of things held at once (terminals, pending permission requests)
  | "terminal/unavailable" // node-pty does not load on this platform: terminals are not offered
  | "terminal/unknown" // a terminal id that was never created here or was released
  | "webview/unknownRequest" // the webview asked for a method the protocol does not have (or a prototype name)
  | "webview/invalidRequest" // a webview request whose params its guard refuses (types, lengths, ids, enums)
  | "editor/cannotOpen" // a file, location, diff or link the view asked to open that cannot be: gone, outside the workspace, a refused link
  | "webview/refused" // a well-formed webview request for what its view cannot ask (another channel, a file outside, text it never showed)
  | "store/locked" // the history is open in another window
  | "store/corrupt" // written by a newer schema, a failed upgrade, or not open
  | "store/damaged" // LevelDB files damaged on disk (a read met corruption, or the repair of a copy failed; the original is kept aside)
  | "store/unavailable" // the folder cannot be opened: permissions, a read-only disk
  | "store/writeFailed" // a write failed (a full disk); every later write of this window is refused until it reloads
  | "store/staleAttempt"; // a write from an attempt that no longer owns its turn (fencing)

/** An error carrying a stable `code` and optional `detail` for people (such as an agent's stderr tail). */
export class SidekicksError extends Error {
  /**
   * @param code stable code the domain and tests compare against
   * @param message one sentence that says what happened and what to do
   * @param detail extra lines (stderr tail, offending stdout line), shown verbatim
   */
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly detail?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "SidekicksError";
  }
}

/** Returns `err` as a `SidekicksError`, wrapping anything else under `fallback`. */
export function asSidekicksError(err: unknown, fallback: ErrorCode): SidekicksError {
  if (err instanceof SidekicksError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new SidekicksError(fallback, message, undefined, { cause: err });
}
