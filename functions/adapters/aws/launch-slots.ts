/**
 * joiner's pacing of its own launches: at most a few launches (CreateFleet and the calls that
 * follow it) are in flight from one function instance at a time, the others wait their turn in
 * order. A 500-node scale-up then neither queues hundreds of requests behind the SDK's 50 sockets
 * nor bursts through EC2's mutating-action bucket (50 requests, 5 a second) in one go: each launch
 * takes about as long as the bucket needs to refill, so the calls arrive near its sustained rate,
 * and the few that are throttled are retried by the SDK with backoff.
 */
import { Semaphore } from '../../shared/semaphore.js';

/** Launches in flight at once per function instance, by default. */
export const DEFAULT_LAUNCH_CONCURRENCY = 10;

/** The launch slots of one function instance: the shared FIFO semaphore, sized for launches. */
export class LaunchSlots extends Semaphore {
  constructor(size: number = DEFAULT_LAUNCH_CONCURRENCY) {
    super(size, 'launch concurrency');
  }
}
