import { describe, expect, it } from 'vitest';
import { explain, runShippedScenario } from './scenario-runner.js';

describe('scale-in scenarios: expiration, drift with budgets and do-not-disrupt, budget windows', () => {
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

  it("seed 003's budgets: no disruption from Sunday 08:00 for 165 h keeps the scaled-in nodes, and says why", async () => {
    const result = await runShippedScenario('seed-003-consolidation-budget');
    expect(result.failures, explain(result)).toEqual([]);
    expect(result.summary.nodePools.default?.removals).toEqual([]);
    expect(result.log.some((l) => l.includes('no allowed disruptions due to budget'))).toBe(true);
  }, 120_000);
});
