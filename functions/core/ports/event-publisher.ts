/** One compact event for joiner's bus (EventBridge `DetailType` + JSON `Detail`). */
export interface JoinerEvent {
  /** E.g. `PodUnschedulable`, `NodeRegistered`, `NodeReady`, `PodReady`, `PodGone`. */
  readonly detailType: string;
  readonly detail: Readonly<Record<string, unknown>>;
  /** Event time in epoch milliseconds; defaults to the publisher's clock. */
  readonly time?: number;
}

/**
 * Publishes events to joiner's bus. Implementations send at most 10 entries per call and retry
 * failed entries; they throw only when entries still fail after the retries.
 */
export interface EventPublisher {
  publish(events: readonly JoinerEvent[]): Promise<void>;
}

/**
 * Schedules a precise wake-up for a nodeclaim timer (an SQS message with `DelaySeconds` <= 900).
 * DynamoDB stays the truth: a lost wake-up is caught by the 1-minute sweep.
 */
export interface TimerScheduler {
  schedule(nodeClaimId: string, dueAt: number): Promise<void>;
}
