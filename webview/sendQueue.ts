import type { AttachmentRequest } from "../src/shared/protocol";

/**
 * The user's messages leave in the order they pressed Enter (issue 15, item 4). Each send waits for the host's answer
 * to the one before it: the host routes a message without a mention to the agent addressed last, so the second of two
 * quick messages must not be routed before the first is admitted. The channel is the one the message was written in,
 * fixed at Enter, even if the view has moved to another channel by the time it goes.
 */
export class SendQueue {
  private tail: Promise<unknown> = Promise.resolve();

  /** `sendTo` sends one message (`channel/send`) and resolves whether the host accepted it; it never rejects. */
  constructor(private readonly sendTo: (channelId: string | undefined, text: string, editOf: string | undefined, attachments: readonly AttachmentRequest[], undoAnswers: boolean) => Promise<boolean>) {}

  /**
   * Queues `text` for `channelId` (undefined: no channel was open; `editOf`: the user message it was edited from;
   * `attachments`: what goes with it; `undoAnswers`: undo the files the edited message's answers changed first);
   * resolves whether the host accepted it.
   */
  send(channelId: string | undefined, text: string, editOf?: string, attachments: readonly AttachmentRequest[] = [], undoAnswers = false): Promise<boolean> {
    const sent = this.tail.then(() => this.sendTo(channelId, text, editOf, attachments, undoAnswers));
    this.tail = sent.catch(() => undefined);
    return sent;
  }
}
