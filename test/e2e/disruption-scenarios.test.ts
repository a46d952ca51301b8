import { describe, expect, it } from 'vitest';
import { explain, runShippedScenario } from './scenario-runner.js';

describe('scale-in scenarios: expiration, drift with budgets and do-not-disrupt, NodePool deletion', () => {
  it('seed 001: the expired node is replaced first and drained through its PDB (minAvailable 2)', async () => {
    const result = await runShippedScenario('seed-001-expiry');
    expect(result.failures, explain(result)).toEqual([]);
    const [removal, ...more] = result.summary.nodePools.default?.removals ?? [];
    expect(more).toEqual([]);
    expect(removal?.disruptedAtMs).toBeDefined();
    expect(result.log.some((l) => l.includes('"reason":"expired"'))).toBe(true);
    expect(result.summary.pdbViolations).toBe(0);
    expect(result.summary.podsLost).toBe(0);
  }, 120_000);

  it('seed 003: a new AMI drifts the web nodes, replaced one at a time; the do-not-disrupt pod never moves', async () => {
    const result = await runShippedScenario('seed-003-drift-budgets');
    expect(result.failures, explain(result)).toEqual([]);
    const pool = result.summary.nodePools.default;
    expect(pool?.removals).toHaveLength(3);
    expect(pool?.maxDisrupting).toBe(1);
    expect(result.log.some((l) => l.includes('AMIDrifted'))).toBe(true);
    expect(result.log.some((l) => l.includes('has do-not-disrupt annotation'))).toBe(true);
  }, 120_000);

  it('consolidation: scaled from 20 to 3 replicas, empty nodes go and the last one is replaced by a cheaper one', async () => {
    const result = await runShippedScenario('consolidation-scale-in');
    expect(result.failures, explain(result)).toEqual([]);
    expect(
      result.log.some((l) => l.includes('disrupting node(s) via replace, terminating 1 node(s) (3 pods)')),
    ).toBe(true);
    expect(result.summary.nodes.map((n) => n.instanceType)).toEqual(['c5.xlarge']);
    expect(result.summary.hourlyCost).toBeLessThan(0.2);
  }, 120_000);

  it("seed 003's budgets: no disruption from Sunday 08:00 for 165 h keeps the scaled-in nodes, and says why", async () => {
    const result = await runShippedScenario('seed-003-consolidation-budget');
    expect(result.failures, explain(result)).toEqual([]);
    expect(result.summary.nodePools.default?.removals).toEqual([]);
    expect(result.log.some((l) => l.includes('no allowed disruptions due to budget'))).toBe(true);
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
