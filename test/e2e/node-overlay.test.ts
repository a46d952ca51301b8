import { describe, expect, it } from 'vitest';
import type { NodeClaim } from '../../functions/core/nodeclaim/nodeclaim.js';
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
  }, 300_000);
});
