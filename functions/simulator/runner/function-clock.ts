/**
 * The clock the simulated cloud gives joiner's functions: its virtual time, and waits (the AWS
 * SDK's retry backoff) on the virtual clock while the simulation runs by itself — so a throttled
 * call is retried after virtual time in which EC2's buckets refill, whatever the host's load —
 * or on the wall clock when a test moves time by hand (a virtual wait would wait for the test).
 */
import type { Clock } from '../../core/ports/clock.js';
import type { VirtualClock } from '../clock.js';
import { delay } from '../faults.js';

const clocks = new WeakMap<VirtualClock, Clock>();

/** The functions' clock over `clock` (one per virtual clock). */
export function functionClock(clock: VirtualClock): Clock {
  let made = clocks.get(clock);
  if (!made) {
    made = {
      now: () => clock.now(),
      wait: (ms) => (clock.autoSpeed !== undefined ? clock.sleep(ms) : delay(ms)),
    };
    clocks.set(clock, made);
  }
  return made;
}
