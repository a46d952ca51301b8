import { describe, expect, it } from 'vitest';
import type { NodeClaim } from '../../functions/core/nodeclaim/nodeclaim.js';
import { explain, runShippedScenario } from './scenario-runner.js';

describe('a static NodePool (Karpenter v1.8 replicas) in the simulated cloud', () => {
  it('keeps its count: scaled up and down with the scale subresource, an interrupted node replaced, never consolidated', async () => {
    let claims: NodeClaim[] = [];
    let status: { nodes?: number } | undefined;
    const result = await runShippedScenario('static-nodepool-scale', {
      inspect: async (cloud) => {
        claims = await cloud.stateStore.listNodeClaims();
        const pool = cloud.kube.store.get('karpenter.sh/v1', 'NodePool', 'fixed') as
          | { status?: { nodes?: number } }
          | undefined;
        status = pool?.status;
      },
    });
    expect(result.failures, explain(result)).toEqual([]);
    // Every claim is the static pool's: none was made for the pods.
    expect(claims.every((c) => c.nodePool === 'fixed' && c.static === true && c.pods.length === 0)).toBe(
      true,
    );
    // 2 at the start, 2 more on scaling to 4, 1 replacing the interrupted node.
    expect(claims.filter((c) => c.instance).length).toBe(5);
    const reasons = claims.filter((c) => c.state === 'Gone').map((c) => c.failure?.reason);
    expect(reasons.filter((r) => r === 'Overprovisioned').length).toBe(3);
    expect(reasons).not.toContain('Empty');
    expect(reasons).not.toContain('Underutilized');
    expect(claims.filter((c) => c.state !== 'Gone').length).toBe(1);
    expect(status?.nodes).toBe(1);
  }, 300_000);
});
