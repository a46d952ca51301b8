import { describe, expect, it } from 'vitest';
import type { NodeClaim } from '../../functions/core/nodeclaim/nodeclaim.js';
import { renderReport } from '../../functions/simulator/report/html-report.js';
import { formatSummary } from '../../functions/simulator/scenario/format-summary.js';
import { explain, runShippedScenario } from './scenario-runner.js';

describe('NodeOverlay in the simulated cloud', () => {
  it('a Savings-Plan discount on m5 moves a c6a.large node to m5.large through consolidation, and new nodes are m5.large', async () => {
    let claims: NodeClaim[] = [];
    let overlay: { status?: { conditions?: { type: string; status: string }[] } } | undefined;
    const result = await runShippedScenario('node-overlay-savings-plan', {
      inspect: async (cloud) => {
        claims = await cloud.stateStore.listNodeClaims();
        overlay = cloud.kube.store.get(
          'karpenter.sh/v1alpha1',
          'NodeOverlay',
          'savings-plan-m5',
        ) as typeof overlay;
      },
    });
    expect(result.failures, explain(result)).toEqual([]);
    const launched = claims.filter((c) => c.instance).map((c) => c.instance?.instanceType);
    expect(launched).toContain('c6a.large');
    expect(launched.filter((t) => t === 'm5.large').length).toBeGreaterThanOrEqual(2);
    const conditions = Object.fromEntries((overlay?.status?.conditions ?? []).map((c) => [c.type, c.status]));
    expect(conditions).toEqual({ ValidationSucceeded: 'True', Ready: 'True' });
    // Cost reports show the price joiner decided with (m5.large at -40%), and say an overlay set it.
    for (const n of result.summary.nodes) {
      expect(n).toMatchObject({
        instanceType: 'm5.large',
        hourlyPrice: 0.0576,
        listPrice: 0.096,
        priceOverlaid: true,
      });
    }
    expect(result.summary.hourlyCost).toBe(0.1152);
    expect(result.summary.listHourlyCost).toBe(0.192);
    const text = formatSummary(result);
    expect(text).toContain('$0.0576/h (NodeOverlay price; list $0.0960/h)');
    expect(text).toContain('hourly cost: $0.1152 (NodeOverlay prices; list prices $0.1920)');
    expect(renderReport(result, { seed: 1 })).toContain('$0.0576/h (NodeOverlay price; list $0.0960/h)');
    const move = result.log.find((l) => l.includes('disrupting node(s) via replace'));
    expect(move, explain(result)).toContain('c6a.large');
    expect(move).toContain('-> $0.0576/h');
    expect(move).toContain('NodeOverlay prices: the replacement');
    // The cost chart counts the m5.large nodes at the overlaid price too.
    expect(result.trace.timeline.at(-1)?.hourlyCost).toBe(0.1152);
  }, 300_000);
});
