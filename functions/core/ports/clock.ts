/**
 * The time source of the core. Handlers pass the wall clock; the simulated cloud passes its
 * virtual clock, so minutes of timers run in milliseconds in tests.
 */
export interface Clock {
  /** Current time in epoch milliseconds. */
  now(): number;
}

/** The wall clock. */
export const systemClock: Clock = { now: () => Date.now() };
