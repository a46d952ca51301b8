import {
  EventBridgeClient,
  PutEventsCommand,
  type PutEventsRequestEntry,
  type PutEventsResultEntry,
} from '@aws-sdk/client-eventbridge';
import type { Clock } from '../../core/ports/clock.js';
import type { EventPublisher, JoinerEvent } from '../../core/ports/event-publisher.js';
import { JOINER_EVENT_SOURCE } from '../../shared/event-rules.js';
import { CACHED_MIDDLEWARE, leanSdkClient } from './lean-client.js';

/** PutEvents accepts at most 10 entries per call. */
export const PUT_EVENTS_MAX_ENTRIES = 10;

/** The one call the publisher makes (an EventBridgeClient satisfies it). */
export interface PutEventsApi {
  send(command: PutEventsCommand): Promise<{ FailedEntryCount?: number; Entries?: PutEventsResultEntry[] }>;
}

/** Where and how the publisher sends events. */
export interface EventBridgePublisherOptions {
  readonly busName: string;
  readonly clock: Clock;
  /** Entry `Source` (default `joiner`). */
  readonly source?: string;
  /** Attempts for entries PutEvents reports as failed (default 4). */
  readonly maxAttempts?: number;
  /** First backoff in ms, doubled per attempt (default 50). */
  readonly baseDelayMs?: number;
  /** How to wait between attempts (tests pass an instant sleep). */
  readonly sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Publishes joiner events on its bus with PutEvents: at most 10 entries per call; entries the
 * service reports as failed are retried with exponential backoff; what still fails after the
 * last attempt is thrown, naming each failed entry and its error code.
 */
export class EventBridgePublisher implements EventPublisher {
  constructor(
    private readonly api: PutEventsApi,
    private readonly options: EventBridgePublisherOptions,
  ) {}

  async publish(events: readonly JoinerEvent[]): Promise<void> {
    const entries = events.map((event) => this.entry(event));
    const failures: string[] = [];
    for (let i = 0; i < entries.length; i += PUT_EVENTS_MAX_ENTRIES) {
      failures.push(...(await this.putWithRetries(entries.slice(i, i + PUT_EVENTS_MAX_ENTRIES))));
    }
    if (failures.length > 0) {
      throw new Error(
        `PutEvents to bus ${this.options.busName} failed for ${failures.length} of ${entries.length} event(s): ${failures.join('; ')}`,
      );
    }
  }

  private entry(event: JoinerEvent): PutEventsRequestEntry {
    return {
      EventBusName: this.options.busName,
      Source: this.options.source ?? JOINER_EVENT_SOURCE,
      DetailType: event.detailType,
      Detail: JSON.stringify(event.detail),
      Time: new Date(event.time ?? this.options.clock.now()),
    };
  }

  /** Sends `batch`, retrying failed entries; returns descriptions of the entries that never made it. */
  private async putWithRetries(batch: PutEventsRequestEntry[]): Promise<string[]> {
    const maxAttempts = this.options.maxAttempts ?? 4;
    const sleep = this.options.sleep ?? defaultSleep;
    let pending = batch;
    let results: PutEventsResultEntry[] = [];
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      if (attempt > 1) await sleep((this.options.baseDelayMs ?? 50) * 2 ** (attempt - 2));
      const output = await this.api.send(new PutEventsCommand({ Entries: pending }));
      results = output.Entries ?? [];
      if (!output.FailedEntryCount) return [];
      const next = pending.filter((_, i) => results[i]?.ErrorCode);
      results = results.filter((r) => r.ErrorCode);
      pending = next;
    }
    return pending.map((entry, i) => describeFailure(entry, results[i]));
  }
}

function describeFailure(entry: PutEventsRequestEntry, result: PutEventsResultEntry | undefined): string {
  const code = result?.ErrorCode ?? 'unknown error';
  const message = result?.ErrorMessage ? ` (${result.ErrorMessage})` : '';
  return `${entry.DetailType} ${entry.Detail}: ${code}${message}`;
}

/** Connection options of the EventBridge client. */
export interface EventBridgeClientOptions {
  readonly region: string;
  /** Endpoint override (the simulated cloud). */
  readonly endpoint?: string;
  /** Static credentials (the simulated cloud); the default chain otherwise. */
  readonly credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
}

/** An EventBridge client with the SDK's standard retries for throttled or failed calls. */
export function createEventBridgeClient(options: EventBridgeClientOptions): EventBridgeClient {
  return leanSdkClient(
    new EventBridgeClient({
      ...CACHED_MIDDLEWARE,
      region: options.region,
      maxAttempts: 4,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      ...(options.credentials ? { credentials: options.credentials } : {}),
    }),
  );
}
