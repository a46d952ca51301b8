import { describe, expect, it } from 'vitest';
import { limitBreaches } from '../../bench/lib/scale-row.js';
import { runScaled } from './scale-run.js';

// Karpenter's scale suite at a fiftieth of its size (the benchmark, `npm run bench:scale`, runs
// the whole 500 nodes): the same workload, NodePool and expectations, through joiner's handlers
// and the simulated cloud with the account's IAM enforced.
describe("Karpenter's scale suite, small", () => {
  it('node-dense: 10 one-pod nodes (hostname anti-affinity), the NodePool applied 20 s after the pods; no Lambda timeout or failure, every function within its timeout and memory', async () => {
    const { result, row, explain } = await runScaled('scale-node-dense', 0.02);
    expect(result.failures, explain).toEqual([]);
    expect(result.summary.pods).toEqual({ total: 10, running: 10, pending: 0 });
    expect(result.summary.nodes.map((n) => n.pods)).toEqual(Array(10).fill(1));
    expect(result.summary.iam.enforced).toBe(true);
    expect(row?.nodesLaunched).toBe(10);
    for (const f of row?.functions ?? []) expect(f.timedOut, `${f.name} timed out`).toBe(0);
    expect(limitBreaches(row?.functions ?? [])).toEqual([]);
    // One CreateFleet per node: no launch was retried or doubled.
    expect(row?.ec2Calls.find(([call]) => call === 'CreateFleet')?.[1]).toBe(10);
  }, 120_000);

  for (const [name, factor] of [
    ['scale-pod-dense', 1 / 30],
    ['scale-consolidation-empty', 0.02],
  ] as const) {
    it(`${name} at 1/${Math.round(1 / factor)} of its size: its own expectations hold with IAM enforced, no Lambda timeout, every function within its limits`, async () => {
      const { result, row, explain } = await runScaled(name, factor);
      expect(result.failures, explain).toEqual([]);
      expect(result.summary.iam.denied).toEqual([]);
      expect(row?.nodesLaunched).toBeGreaterThan(0);
      for (const f of row?.functions ?? []) expect(f.timedOut, `${f.name} timed out`).toBe(0);
      expect(limitBreaches(row?.functions ?? [])).toEqual([]);
      if (name === 'scale-pod-dense') {
        // The webhook hears of each pod once, when it is first marked Unschedulable, not again at
        // each of the scheduler's rewrites of its message as nodes join (the rest are node and
        // configuration events).
        const webhook = row?.functions.find((f) => f.name === 'webhook')?.invocations ?? 0;
        expect(webhook).toBeGreaterThanOrEqual(result.summary.pods.total);
        expect(webhook).toBeLessThan(result.summary.pods.total + 20);
      }
    }, 300_000);
  }
});
