import { describe, expect, it } from 'vitest';
import { explain, runShippedScenario } from './scenario-runner.js';

describe('scale-in scenarios: consolidation, deleted nodes and NodeClaims, NodePool deletion', () => {
  it('consolidation: scaled from 20 to 3 replicas, empty nodes go and the last one is replaced by a cheaper one', async () => {
    const result = await runShippedScenario('consolidation-scale-in');
    expect(result.failures, explain(result)).toEqual([]);
    expect(
      result.log.some((l) => l.includes('disrupting node(s) via replace, terminating 1 node(s) (3 pods)')),
    ).toBe(true);
    expect(result.summary.nodes.map((n) => n.instanceType)).toEqual(['c5.xlarge']);
    expect(result.summary.hourlyCost).toBeLessThan(0.2);
  }, 120_000);

  it('kubectl delete node / nodeclaim: each drain launches exactly one replacement, no extra node', async () => {
    const result = await runShippedScenario('node-deletion');
    expect(result.failures, explain(result)).toEqual([]);
    const pool = result.summary.nodePools.c5;
    // Three nodes, then one replacement per deleted node: the evicted pods' new incarnations land on
    // the replacement instead of getting a node of their own.
    expect(pool?.nodesSeen).toBe(5);
    expect(pool?.removals).toHaveLength(2);
    expect(result.log.filter((l) => l.includes('created nodeclaim'))).toHaveLength(5);
    expect(result.log.some((l) => l.includes('pod(s) fit on in-flight nodeclaim'))).toBe(true);
  }, 180_000);

  it('a deleted NodePool: its nodes drain onto the remaining NodePool, PDB respected', async () => {
    const result = await runShippedScenario('nodepool-deletion');
    expect(result.failures, explain(result)).toEqual([]);
    expect(result.summary.nodePools.spot?.removals).toHaveLength(2);
    expect(result.summary.nodes.every((n) => n.nodePool === 'on-demand')).toBe(true);
    expect(result.log.some((l) => l.includes('"reason":"deleted nodepool"'))).toBe(true);
  }, 120_000);
});
