import { describe, expect, it } from 'vitest';
import { EventLimiter } from '../../../../functions/adapters/kube/event-limiter.js';
import type { ClusterEvent } from '../../../../functions/core/ports/cluster-api.js';

const event = (name: string, message = 'Pod should schedule on: nodeclaim/a'): ClusterEvent => ({
  involvedObject: { kind: 'Pod', name, namespace: 'default' },
  type: 'Normal',
  reason: 'Nominated',
  message,
});

describe('EventLimiter', () => {
  it('writes an identical event once per dedupe window', () => {
    let now = 0;
    const limiter = new EventLimiter({ now: () => now }, { dedupeMs: 120_000, burst: 100, perSecond: 10 });
    expect(limiter.admit([event('a'), event('a'), event('b')])).toEqual([event('a'), event('b')]);
    now = 60_000;
    expect(limiter.admit([event('a'), event('a', 'Pod should schedule on: node/n1')])).toEqual([
      event('a', 'Pod should schedule on: node/n1'),
    ]);
    now = 180_001;
    expect(limiter.admit([event('a')])).toEqual([event('a')]);
    expect(limiter.takeDropped()).toBe(2);
    expect(limiter.takeDropped()).toBe(0);
  });

  it('caps the rate with a token bucket that refills over time', () => {
    let now = 0;
    const limiter = new EventLimiter({ now: () => now }, { dedupeMs: 0, burst: 3, perSecond: 1 });
    const burst = Array.from({ length: 5 }, (_, i) => event(`p${i}`));
    expect(limiter.admit(burst)).toHaveLength(3);
    now = 2_000;
    expect(limiter.admit(burst)).toHaveLength(2);
    expect(limiter.takeDropped()).toBe(5);
  });
});
