import { describe, expect, it } from 'vitest';
import { explain, runShippedScenario } from './scenario-runner.js';

describe('scenario topology-keys: anti-affinity and spread on instance-type keys, in the simulated cloud', () => {
  it('one guard replica per architecture (the third pending), buffer replicas two spot and two on-demand', async () => {
    const result = await runShippedScenario('topology-keys');
    expect(result.failures, explain(result)).toEqual([]);
    const families = new Set(result.summary.nodes.map((n) => n.instanceType.split('.')[0]));
    expect(families, explain(result)).toEqual(new Set(['m5', 'm6g']));
    const byCapacityType = new Map<string, number>();
    for (const n of result.summary.nodes)
      byCapacityType.set(n.capacityType, (byCapacityType.get(n.capacityType) ?? 0) + n.pods);
    // 2 buffer replicas on each capacity type; the two guard replicas add to one or both.
    expect(Math.min(...byCapacityType.values()), explain(result)).toBeGreaterThanOrEqual(2);
    expect([...byCapacityType.keys()].sort()).toEqual(['on-demand', 'spot']);
  }, 180_000);
});
