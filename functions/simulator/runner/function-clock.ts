/**
 * The clock the simulated cloud gives joiner's functions: its virtual time, and waits (the AWS
 * SDK's retry backoff) on the virtual clock while the simulation runs by itself — so a throttled
 * call is retried after virtual time in which EC2's buckets refill, whatever the host's load —
 * or on the wall clock when a test moves time by hand (a virtual wait would wait for the test).
 * The backoff's jitter comes from `random` (the cloud's latency model draws it from the run's
 * seed, see ApiLatency.retryJitter), not from `Math.random`, so the wait is the same on every run.
 */
import type { Clock } from '../../core/ports/clock.js';
import type { VirtualClock } from '../clock.js';
import { delay } from '../faults.js';

/** The functions' clock over `clock`; `random` is the jitter source of the SDK's retry backoff. */
export function functionClock(clock: VirtualClock, random?: () => number): Clock {
  return {
    now: () => clock.now(),
    wait: (ms) => (clock.autoSpeed !== undefined ? clock.sleep(ms) : delay(ms)),
    ...(random ? { random } : {}),
  };
}
