/**
 * The time source of the core. Handlers pass the wall clock; the simulated cloud passes its
 * virtual clock, so minutes of timers run in milliseconds in tests.
 */
export interface Clock {
  /** Current time in epoch milliseconds. */
  now(): number;
  /**
   * Waits `ms` on this clock (the backoff before an AWS call is retried). Absent: the wall clock.
   * The simulated cloud's clock waits virtual time while the simulation runs.
   */
  wait?(ms: number): Promise<void>;
  /**
   * A float in [0, 1) for the jitter of that backoff. Absent: `Math.random` (real randomness, as
   * in Lambda). The simulated cloud draws it from the run's seed, so a throttled call is retried
   * after the same virtual wait on every run of a scenario and seed.
   */
  random?(): number;
}

/** The wall clock. */
export const systemClock: Clock = { now: () => Date.now() };
