import { describe, expect, it } from 'vitest';
import { lazyPort } from '../../../functions/handlers/runtime/lazy-port.js';

interface Port {
  send(value: number): Promise<number>;
  count(): Promise<number>;
  prepare?(): Promise<void>;
}

function counter(): Port {
  let sent = 0;
  return {
    send: async (value) => {
      sent += value;
      return sent;
    },
    count: async () => sent,
  };
}

describe('lazyPort', () => {
  it('builds nothing until a method is called, then builds once and forwards every call', async () => {
    let builds = 0;
    const port = lazyPort(async () => {
      builds++;
      return counter();
    });
    expect(builds).toBe(0);
    const [a, b] = await Promise.all([port.send(2), port.send(3)]);
    expect([a, b].sort()).toEqual([2, 5]);
    expect(await port.count()).toBe(5);
    expect(builds).toBe(1);
    expect(port.send).toBe(port.send);
  });

  it('is not a thenable, so awaiting it gives the port and builds nothing', async () => {
    let builds = 0;
    const port = lazyPort(async () => {
      builds++;
      return counter();
    });
    expect(await Promise.resolve(port)).toBe(port);
    expect(builds).toBe(0);
  });

  it('resolves an optional method the implementation lacks to undefined', async () => {
    const port = lazyPort(async () => counter());
    await expect(port.prepare?.()).resolves.toBeUndefined();
  });

  it('passes the arguments and keeps `this` of the implementation', async () => {
    class Impl implements Port {
      private total = 10;
      async send(value: number) {
        this.total += value;
        return this.total;
      }
      async count() {
        return this.total;
      }
    }
    const port = lazyPort<Port>(async () => new Impl());
    expect(await port.send(5)).toBe(15);
  });

  it('builds again after a failed build', async () => {
    let builds = 0;
    const port = lazyPort(async () => {
      builds++;
      if (builds === 1) throw new Error('the adapter failed to load');
      return counter();
    });
    await expect(port.send(1)).rejects.toThrow('the adapter failed to load');
    expect(await port.send(1)).toBe(1);
    expect(builds).toBe(2);
  });
});
