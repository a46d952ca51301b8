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
    // The scale to 4 reaches the webhook as the scale subresource and wakes the provisioner at once:
    // both launches come within seconds of virtual time, not at the next minute sweep.
    const scaledAt = result.trace.steps.find((s) => /kubectl/.test(s.label))?.at;
    expect(scaledAt, result.trace.steps.map((s) => s.label).join('\n')).toBeDefined();
    const launches = result.trace.actions.filter((a) => a.kind === 'launch' && a.at >= (scaledAt ?? 0));
    const delays = launches.slice(0, 2).map((a) => a.at - (scaledAt ?? 0));
    console.log('launches after kubectl scale nodepool fixed --replicas=4 (virtual ms):', delays);
    expect(delays).toHaveLength(2);
    expect(Math.max(...delays)).toBeLessThan(15_000);
    // ...and not woken by the sweep's static-pool check.
    const sweepWakes = result.log.filter((l) => {
      if (!l.includes('lack nodes, waking the provisioner')) return false;
      const at = Date.parse(l.slice(0, 24));
      return at >= (scaledAt ?? 0) && at <= (scaledAt ?? 0) + Math.max(...delays);
    });
    expect(sweepWakes).toEqual([]);
  }, 300_000);
});
