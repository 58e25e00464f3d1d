import type { Readable, Writable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import type { AnyMessage, Stream } from "@agentclientprotocol/sdk";

/** Largest stdout line accepted as one JSON-RPC message, in bytes (characters, approximately); the SDK's default. */
export const MAX_LINE_CHARS = 32 * 1024 * 1024;

/** Terminal escape sequences some shells and wrappers print before a JSON line (field case 6's OSC title prefix). */
const LEADING_ESCAPES = /^(?:\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b\[[0-9;?]*[ -/]*[@-~])+/;

/**
 * The first `max` characters of `text` as a string of their own. A plain `slice` of a long string is a view that
 * keeps the whole original alive in V8, so a kept 300-character quote of a rejected 32 MB line would hold 32 MB (issue
 * 17); the UTF-16 round trip copies the code units exactly (lone surrogates included).
 */
export function detachedPrefix(text: string, max: number): string {
  if (text.length <= max) return text.length > 4096 ? Buffer.from(text, "utf16le").toString("utf16le") : text;
  return Buffer.from(text.slice(0, max), "utf16le").toString("utf16le") + "…";
}

/** What the stream reports about lines it could not deliver. */
export interface StdioStreamHooks {
  /** A stdout line that is not a JSON-RPC object (a banner, a log line, a truncated message). */
  onDroppedLine(line: string, reason: "not-json" | "too-long"): void;
  /**
   * Decides, per message, in the order the agent wrote them, whether it goes on to the SDK (false: dropped here, such
   * as the replayed history of a `session/load`). Cheaper than another stream stage on every message.
   */
  keep?(message: AnyMessage): boolean;
  /** Sees each message Sidekicks sends, before it is written (so before the agent can answer it). */
  onSend?(message: AnyMessage): void;
}

/**
 * Builds the SDK's message `Stream` over an agent's stdio, newline-delimited JSON in both directions (ACP transport).
 *
 * Differs from the SDK's `ndJsonStream` at the trust boundary: a stdout line that is not a JSON object is reported
 * through `hooks.onDroppedLine` (the SDK drops it silently and answers the agent with a parse error), and leading
 * terminal escape sequences are stripped before parsing. The readable side closes when stdout ends.
 *
 * @param stdout the agent's stdout (bytes)
 * @param stdin the agent's stdin (bytes); a write after it closed (EPIPE after exit) is dropped (see `write`)
 */
export function stdioStream(stdout: Readable, stdin: Writable, hooks: StdioStreamHooks): Stream {
  const decoder = new StringDecoder("utf8");
  let pending: string[] = [];
  let pendingChars = 0;
  let overflow = false;

  const readable = new ReadableStream<AnyMessage>({
    start(controller) {
      const deliver = (raw: string): void => {
        const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
        if (line.trim() === "") return;
        const text = line.charCodeAt(0) === 0x1b ? line.replace(LEADING_ESCAPES, "") : line;
        if (text.charCodeAt(0) === 0x7b /* { */) {
          try {
            const message: unknown = JSON.parse(text);
            if (message !== null && typeof message === "object" && !Array.isArray(message)) {
              if (!hooks.keep || hooks.keep(message as AnyMessage)) controller.enqueue(message as AnyMessage);
              return;
            }
          } catch {
            // fall through: reported below
          }
        }
        hooks.onDroppedLine(line, "not-json");
      };
      const push = (chunk: string): void => {
        let start = 0;
        let newline = chunk.indexOf("\n");
        while (newline !== -1) {
          const piece = chunk.slice(start, newline);
          if (overflow) {
            hooks.onDroppedLine(pending.join(""), "too-long");
            overflow = false;
          } else if (pending.length > 0) {
            pending.push(piece);
            deliver(pending.join(""));
          } else {
            deliver(piece);
          }
          pending = [];
          pendingChars = 0;
          start = newline + 1;
          newline = chunk.indexOf("\n", start);
        }
        if (start < chunk.length) {
          const rest = chunk.slice(start);
          if (!overflow) {
            pendingChars += rest.length;
            if (pendingChars > MAX_LINE_CHARS) {
              overflow = true;
              pending = [detachedPrefix(pending.join(""), 200)];
            } else {
              pending.push(rest);
            }
          }
        }
      };
      stdout.on("data", (chunk: Buffer) => push(decoder.write(chunk)));
      stdout.on("end", () => {
        push(decoder.end());
        if (pending.length > 0 && !overflow) deliver(pending.join(""));
        pending = [];
        // Closed one turn of the event loop later: the SDK aborts every message it has not finished handling when
        // the stream closes, so the last updates an agent wrote before it died would be dropped (issue 17, found by
        // the fuzz suite: 3 of 10,000 streams ending in an exit or a kill). Its handlers run in microtasks.
        setImmediate(() => {
          try {
            controller.close();
          } catch {
            // already cancelled
          }
        });
      });
      stdout.on("error", (err) => {
        try {
          controller.error(err);
        } catch {
          // already closed
        }
      });
    },
    cancel() {
      stdout.destroy();
    },
  });

  stdin.on("error", () => {
    // EPIPE after the agent exited: surfaced through the process exit, not as an uncaught error.
  });
  const writable = new WritableStream<AnyMessage>({
    // A write to an agent that has gone (EPIPE, stdin closed) is dropped, never an error: the SDK closes the whole
    // connection on a failed write and cancels the reading side, which would throw away what the agent wrote just
    // before it died (issue 17: the answer to a request it sent, then exited). The exit itself is what reports the
    // failure: every request Sidekicks sends is raced against it (AcpClient).
    write(message) {
      hooks.onSend?.(message);
      return new Promise<void>((resolve) => {
        if (stdin.destroyed || !stdin.writable) {
          resolve();
          return;
        }
        stdin.write(JSON.stringify(message) + "\n", () => resolve());
      });
    },
  });
  return { readable, writable };
}
