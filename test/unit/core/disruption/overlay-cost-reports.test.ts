import { describe, expect, it } from 'vitest';
import { computePlan, formatPlanTable } from '../../../../bin/commands/plan.js';
import type { Candidate } from '../../../../functions/core/disruption/consolidation/candidates.js';
import { describe as describeMove } from '../../../../functions/core/disruption/consolidation/consolidation-round.js';
import type { ConsolidationMove } from '../../../../functions/core/disruption/consolidation/plan-consolidation.js';
import type { PlannedNodeClaim } from '../../../../functions/core/scheduling/types.js';

function candidate(name: string, type: string, price: number, priceOverlaid = false): Candidate {
  return {
    claim: { id: `c-${name}`, instance: { instanceType: type, capacityType: 'on-demand' } },
    node: { metadata: { name } },
    pods: [{}],
    price,
    ...(priceOverlaid ? { priceOverlaid: true } : {}),
  } as unknown as Candidate;
}

describe('consolidation messages name the prices they were decided with', () => {
  it('a replace: the nodes’ price, the replacement’s, the savings, and what a NodeOverlay priced', () => {
    const replacement = {
      instanceTypeOptions: [
        {
          instanceType: 'm5.large',
          zone: 'us-west-2a',
          capacityType: 'on-demand',
          price: 0.0576,
          priceOverlaid: true,
        },
      ],
    } as unknown as PlannedNodeClaim;
    const move: ConsolidationMove = {
      method: 'replace',
      candidates: [candidate('ip-a', 'c6a.large', 0.0765)],
      replacement,
      savings: 0.0189,
    };
    expect(describeMove(move)).toBe(
      'disrupting node(s) via replace, terminating 1 node(s) (1 pods) ip-a/c6a.large/on-demand and replacing with on-demand node from types m5.large ($0.0765/h -> $0.0576/h, saves $0.0189/h; NodeOverlay prices: the replacement)',
    );
  });

  it('a delete of a node an overlay priced says so; list-priced moves name no overlay', () => {
    const move: ConsolidationMove = {
      method: 'delete',
      candidates: [candidate('ip-a', 'm5.large', 0.0576, true), candidate('ip-b', 'c5.large', 0.085)],
      savings: 0.1426,
    };
    expect(describeMove(move)).toMatch(/ \(\$0\.1426\/h, saves \$0\.1426\/h; NodeOverlay prices: ip-a\)$/);
    const plain = { ...move, candidates: [candidate('ip-b', 'c5.large', 0.085)], savings: 0.085 };
    expect(describeMove(plain)).toMatch(/ip-b\/c5\.large\/on-demand \(\$0\.0850\/h, saves \$0\.0850\/h\)$/);
  });
});

describe('joiner plan with a NodeOverlay', () => {
  it('prices claims at the overlaid price, marks them, and gives the list-price total beside it', async () => {
    const files = ['nodepool.yaml', 'nodeoverlay.yaml', 'workloads.yaml'].map(
      (f) => `examples/node-overlay/${f}`,
    );
    const out = await computePlan(files);
    expect(out.nodeClaims[0].instanceTypeOptions[0]).toMatchObject({
      instanceType: 'm5.large',
      price: 0.0576,
      priceOverlaid: true,
    });
    expect(out.summary).toMatchObject({ hourlyCost: 0.0576, listHourlyCost: 0.096 });
    expect(Object.values(out.listPrices ?? {})).toEqual([0.096]);
    const text = formatPlanTable(out);
    expect(text).toContain('$0.0576 (overlay)');
    expect(text).toContain('hourly cost of new nodes: $0.0576 (NodeOverlay prices; list prices $0.0960)');
    const plain = await computePlan(files.filter((f) => !f.includes('nodeoverlay')));
    expect(plain.summary.listHourlyCost).toBeUndefined();
    expect(formatPlanTable(plain)).not.toContain('overlay');
  });
});
