import { describe, expect, it } from 'vitest';
import { runScaled } from './scale-run.js';

// EC2's token buckets at a size that a 10-node scale-up overruns: CreateFleet (a mutating action,
// 50 tokens and 5 a second by default) gets 2 tokens and one every 2 s, CreateTags 3 and one a
// second. joiner paces its launches and the SDK retries the throttled calls: every pod gets a node,
// no claim fails or launches twice.
describe('a scale-up against a small EC2 throttling bucket', () => {
  it('launches one node per pod with throttled calls retried, none failed, none doubled', async () => {
    const { result, row, explain } = await runScaled('scale-node-dense', 0.02, (scenario) => ({
      ...scenario,
      account: {
        ...scenario.account,
        ec2Throttling: {
          actions: {
            CreateFleet: { capacity: 2, refillPerSecond: 0.5 },
            CreateTags: { capacity: 3, refillPerSecond: 1 },
          },
        },
      },
    }));
    expect(result.failures, explain).toEqual([]);
    expect(result.summary.pods).toEqual({ total: 10, running: 10, pending: 0 });
    expect(result.summary.nodes.map((n) => n.pods)).toEqual(Array(10).fill(1));
    // Ten instances in all: no claim launched twice.
    expect(row?.nodesLaunched, explain).toBe(10);
    const throttled = new Map(row?.ec2Throttled ?? []);
    expect(throttled.get('CreateFleet') ?? 0, explain).toBeGreaterThan(0);
    // Every CreateFleet sent was either throttled or launched one node.
    const createFleet = new Map(row?.ec2Calls ?? []).get('CreateFleet') ?? 0;
    expect(createFleet - (throttled.get('CreateFleet') ?? 0)).toBe(10);
    for (const f of row?.functions ?? []) expect(f.timedOut, `${f.name} timed out`).toBe(0);
    expect(explain).not.toMatch(/failed launching nodeclaim/);
  }, 300_000);
});
