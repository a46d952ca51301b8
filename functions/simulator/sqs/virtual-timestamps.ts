/**
 * SQS's message timestamps on the simulated cloud's clock. fauxqs stamps a message's
 * `SentTimestamp` with the wall time it was sent; joiner reads it (the provisioner measures its
 * batch window from the send times of the batch's messages) and compares it with the time it runs
 * on, which in a simulation is the virtual clock. So while that clock runs by itself (auto mode),
 * this hook records the virtual time each message is sent at (from the SendMessage and
 * SendMessageBatch answers) and puts it in the `SentTimestamp` of the messages ReceiveMessage
 * returns; with a manual clock the wall stamps stay (the handlers run on wall time then).
 */
import type { buildApp } from 'fauxqs';

/** A fauxqs server. */
type FauxqsApp = ReturnType<typeof buildApp>;

/** The clock the stamps come from. */
export interface StampClock {
  now(): number;
  /** Defined while the clock runs by itself (then handlers run on it). */
  readonly autoSpeed?: number;
}

/** Send times kept (the oldest are forgotten first; a message received later keeps fauxqs' stamp). */
const KEPT = 100_000;

interface Answer {
  MessageId?: string;
  Successful?: Array<{ MessageId?: string }>;
  Messages?: Array<{ MessageId?: string; Attributes?: Record<string, string> }>;
}

/** Adds the hook to `app` (a fauxqs server). */
export function stampVirtualSendTimes(app: FauxqsApp, clock: StampClock): void {
  const sent = new Map<string, number>();
  const remember = (id: string | undefined, at: number): void => {
    if (!id) return;
    sent.set(id, at);
    if (sent.size > KEPT) sent.delete(sent.keys().next().value as string);
  };
  app.addHook('onSend', async (request, reply, payload) => {
    if (clock.autoSpeed === undefined || reply.statusCode !== 200 || typeof payload !== 'string')
      return payload;
    const call = String(request.headers['x-amz-target'] ?? '').split('.')[1];
    if (call !== 'SendMessage' && call !== 'SendMessageBatch' && call !== 'ReceiveMessage') return payload;
    let answer: Answer;
    try {
      answer = JSON.parse(payload) as Answer;
    } catch {
      return payload;
    }
    if (call === 'SendMessage') remember(answer.MessageId, clock.now());
    else if (call === 'SendMessageBatch')
      for (const entry of answer.Successful ?? []) remember(entry.MessageId, clock.now());
    else {
      let changed = false;
      for (const message of answer.Messages ?? []) {
        const at = message.MessageId ? sent.get(message.MessageId) : undefined;
        if (at === undefined || !message.Attributes?.SentTimestamp) continue;
        message.Attributes.SentTimestamp = String(at);
        changed = true;
      }
      if (changed) return JSON.stringify(answer);
    }
    return payload;
  });
}
