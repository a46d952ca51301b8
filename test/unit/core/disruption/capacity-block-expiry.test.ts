import { describe, expect, it } from 'vitest';
import { capacityBlockExpiry } from '../../../../functions/core/disruption/capacity-block-expiry.js';
import type { NodeClaim } from '../../../../functions/core/nodeclaim/nodeclaim.js';
import { runSweep } from '../../../../functions/core/sweep/run-sweep.js';
import { harness, runningClaim } from '../lifecycle/harness.js';

const MIN = 60_000;

/** The claim's instance as launched into a reservation of `type` ending at `end`. */
function inReservation(claim: NodeClaim, type: 'default' | 'capacity-block', end?: number): NodeClaim {
  if (!claim.instance) throw new Error('claim has no instance');
  return {
    ...claim,
    instance: {
      ...claim.instance,
      capacityType: 'reserved',
      reservationId: 'cr-0123456789abcdef0',
      reservationType: type,
      ...(end === undefined ? {} : { reservationEndTime: end }),
    },
  };
}

describe('Capacity Blocks ending (Karpenter capacityreservation.expiration)', () => {
  it('a block node is due exactly 40 minutes before the block ends, not a moment earlier', () => {
    const h = harness({ consolidateAfterMs: null });
    const now = h.clock.now();
    const claim = runningClaim(h, 'gpu-a', 'ip-a');
    expect(
      capacityBlockExpiry(inReservation(claim, 'capacity-block', now + 40 * MIN + 1), now),
    ).toBeUndefined();
    expect(capacityBlockExpiry(inReservation(claim, 'capacity-block', now + 40 * MIN), now)).toMatch(
      /^capacity block cr-0123456789abcdef0 ends at .*: NodeClaim deleted 40 minutes before its end$/,
    );
  });

  it('an ODCR with an end date, and an instance outside reservations, are never drained for it', () => {
    const h = harness({ consolidateAfterMs: null });
    const now = h.clock.now();
    const claim = runningClaim(h, 'web-a', 'ip-a');
    expect(capacityBlockExpiry(inReservation(claim, 'default', now + MIN), now)).toBeUndefined();
    expect(capacityBlockExpiry(claim, now)).toBeUndefined();
    expect(capacityBlockExpiry(inReservation(claim, 'capacity-block'), now)).toBeUndefined();
  });

  it('the sweep drains an ending block node as a deleted NodeClaim: forcefully, whatever the budget, and terminates it', async () => {
    const h = harness({ consolidateAfterMs: null, budgets: [{ nodes: { count: 0 } }] });
    const now = h.clock.now();
    h.store.put(inReservation(runningClaim(h, 'gpu-a', 'ip-a'), 'capacity-block', now + 30 * MIN));
    h.store.put(inReservation(runningClaim(h, 'gpu-b', 'ip-b'), 'capacity-block', now + 2 * 60 * MIN));
    const outcome = await runSweep(h.sweep);
    expect(outcome.disruption.started).toEqual([
      { nodeClaim: 'gpu-a', nodePool: 'default', cause: 'deleted' },
    ]);
    expect(h.cloud.terminated).toEqual(['i-gpu-a']);
    const claim = h.store.claims.get('gpu-a');
    expect(claim?.failure?.reason).toBe('Deleted');
    expect(claim?.failure?.message).toMatch(/^capacity block cr-0123456789abcdef0 ends at /);
    expect(h.store.claims.get('gpu-b')?.state).toBe('Initialized');
  });
});
