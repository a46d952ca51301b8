/**
 * One SQS event source mapping: polls a queue like Lambda's pollers do and hands batches to the
 * function. It gathers up to `batchSize` messages, or what arrived within the batching window
 * (which starts with the first message), runs at most `maxConcurrency` invocations at once, and
 * deletes only the messages the invocation did not report as failed. Failed messages stay
 * invisible until their visibility timeout ends, then come back; SQS moves them to the DLQ after
 * `maxReceiveCount` receives.
 *
 * Time: with a clock in auto mode (a simulation), the batching window and the visibility timeout of
 * failed messages run on the virtual clock (a message is received with the longest visibility and
 * made visible again when its virtual timeout ends), and handing a batch to the function takes the
 * modeled poll latency. With a manual clock they run on wall time, as fauxqs implements them.
 */
import {
  ChangeMessageVisibilityBatchCommand,
  DeleteMessageBatchCommand,
  type Message,
  ReceiveMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSRecord } from 'aws-lambda';
import type { EventSourceSpec } from '../../shared/event-sources.js';
import type { VirtualClock } from '../clock.js';
import type { ApiLatency } from '../latency/api-latency.js';
import { toSqsRecord } from './sqs-records.js';

/** What an invocation reports back: the ids of failed messages, or `all`. */
export type BatchOutcome = { readonly failed: ReadonlySet<string> } | 'all';

/** Options of a {@link QueuePoller}. */
export interface QueuePollerOptions {
  readonly sqs: SQSClient;
  readonly source: EventSourceSpec;
  readonly queueUrl: string;
  readonly queueArn: string;
  readonly region: string;
  /** Runs the function on a batch. Never rejects. */
  readonly invoke: (records: SQSRecord[]) => Promise<BatchOutcome>;
  /** Batching window in wall milliseconds (the spec's seconds, possibly scaled). */
  readonly batchingWindowMs: number;
  /** Visibility timeout requested on receive, in seconds; the queue's own when undefined. */
  readonly visibilityTimeoutSeconds?: number;
  /** Long-poll wait of an idle poller, in seconds (bounds how long stop() may take). */
  readonly pollWaitSeconds: number;
  /** Receive or delete errors (the poller backs off and continues). */
  readonly onError: (error: unknown) => void;
  /** The simulation's clock: in auto mode, windows and visibility run on it (see above). */
  readonly clock?: VirtualClock;
  /** Modeled latency of handing a batch to the function. */
  readonly latency?: ApiLatency;
}

/** SQS's longest visibility timeout: virtual visibility holds messages this long on fauxqs. */
const MAX_VISIBILITY_SECONDS = 43_200;

const RECEIVE_LIMIT = 10;

/** Polls one queue for one function until stopped. */
export class QueuePoller {
  private running = false;
  private loop?: Promise<void>;
  private readonly abort = new AbortController();
  private readonly inFlight = new Set<Promise<void>>();
  private slotWaiter?: () => void;
  /** Resolves when the clock switches to auto mode (one wait per poller, not one per batch). */
  private autoStarted?: Promise<void>;

  constructor(private readonly options: QueuePollerOptions) {}

  /** Starts polling. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Stops polling (aborting a pending long poll) and waits for running invocations. */
  async stop(): Promise<void> {
    this.running = false;
    this.abort.abort();
    this.slotWaiter?.();
    await this.loop;
    await Promise.all([...this.inFlight]);
  }

  /** Resolves when no invocation is running. */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  private async run(): Promise<void> {
    while (this.running) {
      if (this.inFlight.size >= this.options.source.maxConcurrency) {
        await new Promise<void>((resolve) => {
          this.slotWaiter = resolve;
        });
        continue;
      }
      const batch = await this.gather();
      if (batch.length === 0 || !this.running) continue;
      const task = this.process(batch).finally(() => {
        this.inFlight.delete(task);
        this.slotWaiter?.();
      });
      this.inFlight.add(task);
    }
  }

  /** One batch: a long poll for the first messages, then the batching window. */
  private async gather(): Promise<Message[]> {
    const { batchSize } = this.options.source;
    const batch = await this.receive(Math.min(RECEIVE_LIMIT, batchSize), this.options.pollWaitSeconds);
    if (batch.length === 0) return batch;
    if (!this.virtualClock() && (await this.wallWindow(batch)) === 'closed') return batch;
    const clock = this.virtualClock();
    if (!clock) return batch;
    // The window starts with the first message (or, for messages gathered before the simulation
    // started, at its start); what is visible when it ends joins the batch.
    if (this.options.batchingWindowMs > 0 && batch.length < batchSize)
      await clock.sleep(this.options.batchingWindowMs);
    while (this.running && batch.length < batchSize) {
      const more = await this.receive(Math.min(RECEIVE_LIMIT, batchSize - batch.length), 0);
      batch.push(...more);
      if (more.length === 0) break;
    }
    await this.options.latency?.wait('lambda', 'SqsPoll');
    return batch;
  }

  /**
   * The batching window on wall time (a manual clock, as fauxqs runs it), adding to `batch` what
   * arrives. When the clock switches to auto mode meanwhile, the rest of the window is left to the
   * virtual clock (`switched`), so the first batch of a simulation does not depend on the host.
   */
  private async wallWindow(batch: Message[]): Promise<'closed' | 'switched'> {
    const { batchSize } = this.options.source;
    this.autoStarted ??= this.options.clock?.whenAuto();
    const auto = this.autoStarted;
    const windowEnd = Date.now() + this.options.batchingWindowMs;
    while (this.running && batch.length < batchSize) {
      if (this.virtualClock()) return 'switched';
      const remaining = windowEnd - Date.now();
      if (remaining <= 0) break;
      const more = await this.receive(Math.min(RECEIVE_LIMIT, batchSize - batch.length), 0);
      batch.push(...more);
      if (more.length === 0) await Promise.race([sleep(Math.min(remaining, 20)), auto]);
    }
    return this.virtualClock() ? 'switched' : 'closed';
  }

  /** The clock when it runs by itself (then windows and visibility are virtual). */
  private virtualClock(): VirtualClock | undefined {
    const clock = this.options.clock;
    return clock?.autoSpeed !== undefined ? clock : undefined;
  }

  private async receive(max: number, waitSeconds: number): Promise<Message[]> {
    const virtual = this.virtualClock() !== undefined;
    try {
      const out = await this.options.sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: this.options.queueUrl,
          MaxNumberOfMessages: max,
          WaitTimeSeconds: waitSeconds,
          VisibilityTimeout: virtual ? MAX_VISIBILITY_SECONDS : this.options.visibilityTimeoutSeconds,
          MessageSystemAttributeNames: ['All'],
          MessageAttributeNames: ['All'],
        }),
        { abortSignal: this.abort.signal },
      );
      return out.Messages ?? [];
    } catch (error) {
      if (!this.running) return [];
      this.options.onError(error);
      await sleep(100);
      return [];
    }
  }

  /**
   * Failed messages come back when their visibility timeout ends: with a virtual clock, this
   * poller makes them visible again at that virtual time (on fauxqs they were received with the
   * longest visibility); otherwise fauxqs does it in wall time.
   */
  private retryLater(failed: readonly SQSRecord[]): void {
    const clock = this.virtualClock();
    if (!clock || failed.length === 0) return;
    const seconds = this.options.visibilityTimeoutSeconds ?? 30;
    clock.setTimeout(() => {
      for (let i = 0; i < failed.length; i += RECEIVE_LIMIT) {
        const chunk = failed.slice(i, i + RECEIVE_LIMIT);
        this.options.sqs
          .send(
            new ChangeMessageVisibilityBatchCommand({
              QueueUrl: this.options.queueUrl,
              Entries: chunk.map((r, n) => ({
                Id: String(n),
                ReceiptHandle: r.receiptHandle,
                VisibilityTimeout: 0,
              })),
            }),
          )
          .catch((error) => this.options.onError(error));
      }
    }, seconds * 1000);
  }

  private async process(batch: Message[]): Promise<void> {
    const { queueArn, region } = this.options;
    const records = batch.map((message) => toSqsRecord(message, { queueArn, region }));
    const outcome = await this.options.invoke(records);
    this.retryLater(outcome === 'all' ? records : records.filter((r) => outcome.failed.has(r.messageId)));
    if (outcome === 'all') return;
    const done = records.filter((record) => !outcome.failed.has(record.messageId));
    for (let i = 0; i < done.length; i += RECEIVE_LIMIT) {
      const chunk = done.slice(i, i + RECEIVE_LIMIT);
      try {
        await this.options.sqs.send(
          new DeleteMessageBatchCommand({
            QueueUrl: this.options.queueUrl,
            Entries: chunk.map((record, n) => ({ Id: String(n), ReceiptHandle: record.receiptHandle })),
          }),
        );
      } catch (error) {
        this.options.onError(error);
      }
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
