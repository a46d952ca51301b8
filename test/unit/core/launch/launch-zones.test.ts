import { describe, expect, it } from 'vitest';
import { launchZones, type ResolvedSubnet } from '../../../../functions/core/launch/launch-context.js';

const subnet = (subnetId: string, zone: string): ResolvedSubnet => ({ subnetId, zone, availableIps: 100 });

describe('launch zones of a resolved NodeClass', () => {
  it('are the zones of its subnets, sorted and distinct', () => {
    expect(
      launchZones({
        subnets: [subnet('s-3', 'us-west-2c'), subnet('s-1', 'us-west-2a'), subnet('s-2', 'us-west-2a')],
        multus: [],
      }),
    ).toEqual(['us-west-2a', 'us-west-2c']);
  });

  it('keep only the zones where every Multus interface has a subnet too', () => {
    expect(
      launchZones({
        subnets: [subnet('s-1', 'us-west-2a'), subnet('s-2', 'us-west-2b'), subnet('s-3', 'us-west-2c')],
        multus: [
          { subnets: [subnet('m-1', 'us-west-2a'), subnet('m-2', 'us-west-2b')] },
          { subnets: [subnet('m-3', 'us-west-2b'), subnet('m-4', 'us-west-2c')] },
        ],
      }),
    ).toEqual(['us-west-2b']);
  });

  it('are none when a Multus interface has no subnet in any zone of the node', () => {
    expect(launchZones({ subnets: [subnet('s-1', 'us-west-2a')], multus: [{ subnets: [] }] })).toEqual([]);
  });
});
