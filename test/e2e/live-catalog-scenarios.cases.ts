import { describe, expect, it } from 'vitest';
import type { Catalog } from '../../functions/core/model/instance-type.js';
import type { NodeClaim } from '../../functions/core/nodeclaim/nodeclaim.js';
import { explain, runShippedScenario } from './scenario-runner.js';

function priceIn(catalog: Catalog, type: string, zone: string, capacityType: string): number | undefined {
  return catalog.instanceTypes
    .find((t) => t.name === type)
    ?.offerings.find((o) => o.zone === zone && o.capacityType === capacityType)?.price;
}

describe('the live instance catalog in simulated regions', () => {
  it('ap-southeast-2: plans only the types offered there, in its zones, at its prices; a spot price change reaches the plans within the refresh interval', async () => {
    let claims: NodeClaim[] = [];
    let catalog: Catalog | undefined;
    const result = await runShippedScenario('region-ap-southeast-2', {
      inspect: async (cloud) => {
        claims = await cloud.stateStore.listNodeClaims();
        catalog = cloud.catalog;
      },
    });
    expect(result.failures, explain(result)).toEqual([]);
    expect(claims.length).toBeGreaterThanOrEqual(2);
    const options = claims.flatMap((c) => c.options);
    expect(options.length).toBeGreaterThan(0);
    for (const o of options) {
      expect(o.zone).toMatch(/^ap-southeast-2[abc]$/);
      expect(o.instanceType.startsWith('c6a.'), `${o.instanceType} is not offered in ap-southeast-2`).toBe(
        false,
      );
      expect(o.price, `${o.instanceType} ${o.zone}`).toBe(
        priceIn(catalog as Catalog, o.instanceType, o.zone, o.capacityType),
      );
    }
    expect(result.log.some((l) => l.includes('using the bundled instance catalog'))).toBe(false);
  }, 90_000);
});
