/** The zone-ID label on joiner's nodes and in-flight claims: from the option the claim launched. */
import { describe, expect, it } from 'vitest';
import { claimNodeLabels } from '../../../../functions/core/lifecycle/node-labels.js';
import type { NodeClaim } from '../../../../functions/core/nodeclaim/nodeclaim.js';
import { inFlightView } from '../../../../functions/core/provisioning/in-flight.js';
import { pendingClaim } from './fakes.js';

const ZONE_ID = 'topology.k8s.aws/zone-id';

function launchedIn(zone: string, withIds: boolean): NodeClaim {
  const claim = pendingClaim('default-1', 0, []);
  const options = ['us-west-2a', 'us-west-2b'].map((z, i) => ({
    instanceType: 'c5.large',
    zone: z,
    ...(withIds ? { zoneId: `usw2-az${i + 1}` } : {}),
    capacityType: 'spot' as const,
    price: 0.03,
  }));
  return {
    ...claim,
    options,
    state: 'Launched',
    instance: {
      instanceId: 'i-0123456789abcdef0',
      instanceType: 'c5.large',
      zone,
      capacityType: 'spot',
      providerId: `aws:///${zone}/i-0123456789abcdef0`,
    },
  } as NodeClaim;
}

describe('the zone-ID label of a launched claim', () => {
  it("is the launched zone's ID on the node and on the in-flight claim", () => {
    const claim = launchedIn('us-west-2b', true);
    expect(claimNodeLabels(claim)[ZONE_ID]).toBe('usw2-az2');
    const view = inFlightView([claim], [], []);
    expect(view.inFlight[0].labels[ZONE_ID]).toBe('usw2-az2');
  });

  it('is absent when the options carry no zone IDs (never a guess)', () => {
    const claim = launchedIn('us-west-2b', false);
    expect(claimNodeLabels(claim)).not.toHaveProperty(ZONE_ID);
  });
});
