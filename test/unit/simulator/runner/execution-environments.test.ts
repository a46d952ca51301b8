import type { Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { ExecutionEnvironments } from '../../../../functions/simulator/runner/execution-environments.js';
import type { RunnerEvent } from '../../../../functions/simulator/runner/lambda-runner.js';

const event = {} as RunnerEvent;
const context = {} as Context;

/** A deferred result an invocation waits for. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const wait = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { wait, open };
}

describe('ExecutionEnvironments', () => {
  it('runs concurrent invocations in environments of their own and reuses a free one', async () => {
    const served: number[] = [];
    const gates = [gate(), gate(), gate()];
    let call = 0;
    const environments = new ExecutionEnvironments((index) => async () => {
      served.push(index);
      await gates[call++]?.wait;
      return index;
    });
    const first = environments.handler(event, context);
    const second = environments.handler(event, context);
    expect(environments.count).toBe(2);
    gates[0].open();
    expect(await first).toBe(0);
    // Environment 0 is free again: the next invocation runs there, not in a third one.
    const third = environments.handler(event, context);
    expect(environments.count).toBe(2);
    gates[1].open();
    gates[2].open();
    expect(await Promise.all([second, third])).toEqual([1, 0]);
    expect(served).toEqual([0, 1, 0]);
  });

  it('takes the lowest-numbered free environment, whatever order the others ended in', async () => {
    // Each invocation waits on the gate its event carries.
    const environments = new ExecutionEnvironments((index) => async (e) => {
      await (e as unknown as { wait: Promise<void> }).wait;
      return index;
    });
    const run = (g: ReturnType<typeof gate>) =>
      environments.handler(g as unknown as RunnerEvent, context) as Promise<number>;
    const gates = [gate(), gate(), gate()];
    const running = gates.map(run);
    gates[2].open();
    expect(await running[2]).toBe(2);
    gates[0].open();
    expect(await running[0]).toBe(0);
    // 0 and 2 are free, 1 is busy: the next invocation goes to 0, the one after it to 2.
    const next = [gate(), gate()];
    const again = next.map(run);
    for (const g of [...next, gates[1]]) g.open();
    expect(await Promise.all(again)).toEqual([0, 2]);
    expect(await running[1]).toBe(1);
    expect(environments.count).toBe(3);
  });

  it('frees the environment of an invocation that failed', async () => {
    let fail = true;
    const environments = new ExecutionEnvironments((index) => async () => {
      if (fail) throw new Error(`environment ${index} failed`);
      return index;
    });
    await expect(environments.handler(event, context)).rejects.toThrow('environment 0 failed');
    fail = false;
    expect(await environments.handler(event, context)).toBe(0);
    expect(environments.count).toBe(1);
  });
});
