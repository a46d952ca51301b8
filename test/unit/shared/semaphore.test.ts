import { describe, expect, it } from 'vitest';
import { Semaphore } from '../../../functions/shared/semaphore.js';

describe('Semaphore', () => {
  it('hands a freed slot to the longest waiter, so holders never exceed the limit', async () => {
    const semaphore = new Semaphore(1);
    const order: string[] = [];
    let release: () => void = () => {};
    const first = semaphore.run(
      () =>
        new Promise<void>((resolve) => {
          order.push('first');
          release = resolve;
        }),
    );
    const second = semaphore.run(async () => order.push('second'));
    const third = semaphore.run(async () => order.push('third'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(['first']);
    expect([semaphore.inFlight, semaphore.queued]).toEqual([1, 2]);
    release();
    await Promise.all([first, second, third]);
    expect(order).toEqual(['first', 'second', 'third']);
    expect([semaphore.inFlight, semaphore.queued]).toEqual([0, 0]);
  });

  it('names what its limit is when the limit is bad', () => {
    expect(() => new Semaphore(1.5, 'reserved concurrency of provisioner')).toThrow(
      'reserved concurrency of provisioner must be an integer >= 1, got 1.5',
    );
    expect(() => new Semaphore(0)).toThrow('semaphore limit must be an integer >= 1, got 0');
  });
});
