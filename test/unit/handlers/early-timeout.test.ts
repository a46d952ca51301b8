import type { Context } from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';
import { TIMEOUT_EARLY_MS, withEarlyTimeout } from '../../../functions/handlers/runtime/early-timeout.js';
import { lambdaHandler } from '../../../functions/handlers/runtime/lambda.js';
import { RUNTIME_TIMERS, type RuntimeTimers } from '../../../functions/shared/runtime-timers.js';

/** Timers that fire only when told to, recording what was armed and cleared. */
function manualTimers() {
  const armed = new Map<number, { fn: () => void; delayMs: number }>();
  let next = 1;
  const timers: RuntimeTimers = {
    setTimeout: (fn, delayMs) => {
      armed.set(next, { fn, delayMs });
      return next++;
    },
    clearTimeout: (handle) => void armed.delete(handle as number),
    now: () => 0,
    sleep: () => Promise.resolve(),
  };
  return { timers, armed };
}

const contextWith = (remainingMs: number, timers?: RuntimeTimers): Context =>
  ({
    awsRequestId: 'req-1',
    functionName: 'joiner-test',
    getRemainingTimeInMillis: () => remainingMs,
    ...(timers ? { [RUNTIME_TIMERS]: timers } : {}),
  }) as unknown as Context;

describe('early timeout', () => {
  it("arms the context runtime's timer for the remaining time less the margin and fails the invocation when it fires", async () => {
    const { timers, armed } = manualTimers();
    const handler = lambdaHandler(() => new Promise<string>(() => undefined));
    const result = handler({}, contextWith(12_000, timers));
    // Armed once middy's before-middlewares ran.
    await vi.waitFor(() => expect(armed.size).toBe(1));
    expect([...armed.values()].map((t) => t.delayMs)).toEqual([12_000 - TIMEOUT_EARLY_MS]);
    for (const t of armed.values()) t.fn();
    await expect(result).rejects.toMatchObject({ name: 'TimeoutError' });
  });

  it('never fires on a wall-time timer when the context carries its own timers (the virtual clock)', async () => {
    const { timers, armed } = manualTimers();
    // 30 wall ms left by the context's own clock... which does not move here: 60 wall ms later
    // the invocation is still running and ends with its result.
    const handler = lambdaHandler(async () => {
      await new Promise((resolve) => setTimeout(resolve, 60));
      return 'done';
    });
    await expect(handler({}, contextWith(30, timers))).resolves.toBe('done');
    expect(armed.size).toBe(0);
  });

  it('uses wall time for a context without runtime timers (AWS), and none without a deadline', async () => {
    const slow = withEarlyTimeout(
      () => new Promise<string>((resolve) => setTimeout(() => resolve('late'), 500)),
    );
    await expect(slow({}, contextWith(20))).rejects.toMatchObject({ name: 'TimeoutError' });
    const fast = withEarlyTimeout(async () => 'ok');
    await expect(fast({}, contextWith(20))).resolves.toBe('ok');
    await expect(fast({}, { awsRequestId: 'no-deadline' } as Context)).resolves.toBe('ok');
  });

  it('passes a handler failure through and clears the timer', async () => {
    const { timers, armed } = manualTimers();
    const failing = lambdaHandler(async () => {
      throw new Error('broken');
    });
    await expect(failing({}, contextWith(1_000, timers))).rejects.toThrow('broken');
    expect(armed.size).toBe(0);
  });
});
