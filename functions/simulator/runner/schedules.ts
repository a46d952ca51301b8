/**
 * EventBridge schedules on the virtual clock: a rate schedule fires every `rateMinutes` of
 * virtual time with the real "Scheduled Event" shape (source `aws.events`, the rule ARN in
 * `resources`, empty detail).
 */
import { randomUUID } from 'node:crypto';
import type { ScheduledEvent } from 'aws-lambda';
import type { TimerHandle, VirtualClock } from '../clock.js';

/** A rate schedule. */
export interface RateSchedule {
  /** Rule name, e.g. `joiner-sweep`. */
  readonly name: string;
  readonly rateMinutes: number;
}

/** The event a schedule delivers at virtual time `now`. */
export function scheduledEvent(
  ruleArn: string,
  region: string,
  account: string,
  now: number,
): ScheduledEvent {
  return {
    version: '0',
    id: randomUUID(),
    'detail-type': 'Scheduled Event',
    source: 'aws.events',
    account,
    time: new Date(now).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    region,
    resources: [ruleArn],
    detail: {},
  };
}

/** Fires `fire` every period of virtual time until cancelled. */
export class RecurringTimer {
  private handle?: TimerHandle;

  constructor(
    private readonly clock: VirtualClock,
    private readonly periodMs: number,
    private readonly fire: (now: number) => void,
  ) {
    if (!(periodMs > 0)) throw new Error(`schedule period must be positive, got ${periodMs} ms`);
  }

  start(): void {
    if (this.handle !== undefined) return;
    this.arm();
  }

  cancel(): void {
    if (this.handle !== undefined) this.clock.clearTimeout(this.handle);
    this.handle = undefined;
  }

  private arm(): void {
    this.handle = this.clock.setTimeout(() => {
      this.arm();
      this.fire(this.clock.now());
    }, this.periodMs);
  }
}
