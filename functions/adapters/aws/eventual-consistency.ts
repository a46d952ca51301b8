/**
 * EC2 is eventually consistent: a Describe call right after the call that created a resource
 * (CreateFleet, CreateLaunchTemplate) may not see it yet and answers `...NotFound` or an empty
 * list. Karpenter waits and asks again; so does joiner, a bounded number of times with a growing
 * delay, through an injected sleep (the simulated cloud's clock in tests).
 */

/** Waits `ms` milliseconds. */
export type Sleep = (ms: number) => Promise<void>;

/** Sleeps on the wall clock. */
export const wallSleep: Sleep = (ms) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Delays between tries after a create: 0.2 s doubling to 3.2 s, about 6 s in all, which covers
 * the propagation delays EC2 documents ("typically a few seconds") inside a launch's time budget.
 */
export const CONSISTENCY_DELAYS_MS: readonly number[] = [200, 400, 800, 1600, 3200];

/** Error codes EC2 answers for a resource a Describe (or a call naming it) does not see yet. */
const NOT_FOUND_CODES = new Set([
  'InvalidInstanceID.NotFound',
  'InvalidLaunchTemplateName.NotFoundException',
  'InvalidLaunchTemplateId.NotFound',
  'InvalidLaunchTemplateId.NotFoundException',
]);

/** Whether `error` is EC2 not seeing a resource (yet). */
export function isNotFoundYet(error: unknown): boolean {
  return NOT_FOUND_CODES.has((error as { name?: string } | undefined)?.name ?? '');
}

/**
 * Calls `read` until it returns a value `seen` accepts, sleeping {@link CONSISTENCY_DELAYS_MS}
 * between tries; a not-found error counts as "not seen". Returns the last value (possibly not
 * seen) once the delays are used up; other errors propagate at once.
 */
export async function untilVisible<T>(
  read: () => Promise<T>,
  seen: (value: T) => boolean,
  sleep: Sleep,
  delays: readonly number[] = CONSISTENCY_DELAYS_MS,
): Promise<T | undefined> {
  let last: T | undefined;
  for (let i = 0; ; i++) {
    try {
      last = await read();
      if (seen(last)) return last;
    } catch (error) {
      if (!isNotFoundYet(error)) throw error;
      last = undefined;
    }
    const delay = delays[i];
    if (delay === undefined) return last;
    await sleep(delay);
  }
}
