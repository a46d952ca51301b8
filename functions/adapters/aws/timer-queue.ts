import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { Clock } from '../../core/ports/clock.js';
import type { TimerScheduler } from '../../core/ports/event-publisher.js';
import { CACHED_MIDDLEWARE, leanSdkClient } from './lean-client.js';

/** SQS caps DelaySeconds at 15 minutes. */
export const MAX_DELAY_SECONDS = 900;

/** The body of a timer wake-up message on the timers queue. */
export interface TimerMessage {
  readonly nodeClaimId: string;
  /** Epoch milliseconds when the timer is due. */
  readonly dueAt: number;
}

/** The one call the scheduler makes (an SQSClient satisfies it). */
export interface SendMessageApi {
  send(command: SendMessageCommand): Promise<unknown>;
}

/**
 * Schedules nodeclaim wake-ups as delayed SQS messages. A timer further away than 15 minutes is
 * sent with the maximum delay: the disruption function finds it is not due yet, and the sweep
 * (DynamoDB is the truth) fires it when it is.
 */
export class SqsTimerScheduler implements TimerScheduler {
  constructor(
    private readonly api: SendMessageApi,
    private readonly queueUrl: string,
    private readonly clock: Clock,
  ) {}

  async schedule(nodeClaimId: string, dueAt: number): Promise<void> {
    if (!nodeClaimId) throw new Error('timer schedule: nodeClaimId is empty');
    if (!Number.isFinite(dueAt))
      throw new Error(`timer schedule of ${nodeClaimId}: dueAt ${dueAt} is not a time`);
    const body: TimerMessage = { nodeClaimId, dueAt };
    await this.api.send(
      new SendMessageCommand({
        QueueUrl: this.queueUrl,
        MessageBody: JSON.stringify(body),
        DelaySeconds: delaySeconds(dueAt, this.clock.now()),
      }),
    );
  }
}

/** Seconds from `now` until `dueAt`, rounded up, within SQS's 0..900. */
export function delaySeconds(dueAt: number, now: number): number {
  return Math.min(MAX_DELAY_SECONDS, Math.max(0, Math.ceil((dueAt - now) / 1000)));
}

/** Connection options of the SQS client. */
export interface SqsClientOptions {
  readonly region: string;
  readonly endpoint?: string;
  /** Static credentials (the simulated cloud); the default chain otherwise. */
  readonly credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
}

/** An SQS client (endpoint override for the simulated cloud). */
export function createSqsClient(options: SqsClientOptions): SQSClient {
  return leanSdkClient(
    new SQSClient({
      ...CACHED_MIDDLEWARE,
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      ...(options.credentials ? { credentials: options.credentials } : {}),
    }),
  );
}
