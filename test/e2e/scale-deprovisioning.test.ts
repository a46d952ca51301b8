import { describe, expect, it } from 'vitest';
import { runScaled } from './scale-run.js';

// The deprovisioning half of Karpenter's scale suite (its AWS provider's
// test/suites/scale/deprovisioning_test.go) at a small size: the 200-node tests at 1/50 (4 nodes
// of 20 pods), the 20-node ones at 1/10 (2 nodes). Each scenario's own expectations are
// Karpenter's: how many nodes are removed, how many stay, every pod healthy, none lost, no orphan.
// `npm run bench:scale` runs them whole.
const CASES = [
  [
    'scale-consolidation-delete',
    0.02,
    'multi-node consolidation deletes 4/5 of the nodes after the pods shrink to 1/5',
  ],
  [
    'scale-consolidation-replace',
    0.1,
    'single-node consolidation replaces every 2xlarge node once the pool allows smaller ones',
  ],
  ['scale-emptiness', 0.02, 'WhenEmpty with consolidateAfter 0s deletes every empty node'],
  [
    'scale-expiration',
    0.1,
    'every node expires and is replaced through the second pool (the first held at zero limits)',
  ],
  ['scale-drift', 0.1, 'an AMI alias change drifts every node and each is replaced'],
  ['scale-interruption', 0.02, 'a scheduled-change event for every instance drains and replaces every node'],
] as const;

describe("Karpenter's scale suite, deprovisioning, small", () => {
  for (const [name, factor, what] of CASES) {
    it(`${name} at 1/${Math.round(1 / factor)}: ${what}; IAM enforced, no Lambda timeout`, async () => {
      const { scenario, result, row, explain } = await runScaled(name, factor);
      expect(result.failures, explain).toEqual([]);
      expect(scenario.expect?.nodesRemoved, 'the scenario counts the nodes it removes').toBeDefined();
      expect(result.summary.iam.denied).toEqual([]);
      expect(result.summary.podsLost).toBe(0);
      for (const f of row?.functions ?? []) expect(f.timedOut, `${f.name} timed out`).toBe(0);
    }, 300_000);
  }
});
