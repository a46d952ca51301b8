import { describe, expect, it } from 'vitest';
import { runScaled } from './scale-run.js';

/**
 * The deprovisioning half of Karpenter's scale suite (its AWS provider's
 * test/suites/scale/deprovisioning_test.go) at a small size: the 200-node tests at 1/50 (4 nodes
 * of 20 pods), the 20-node ones at 1/10 (2 nodes). Each scenario's own expectations are
 * Karpenter's: how many nodes are removed, how many stay, every pod healthy, none lost, no orphan.
 * `npm run bench:scale` runs them whole. The cases run as two test files
 * (scale-deprovisioning.test.ts, scale-deprovisioning-lifecycle.test.ts), so that no one file
 * holds a worker for most of the suite.
 */
export type DeprovisioningCase = readonly [name: string, factor: number, what: string];

/** Registers each case's test: its scenario at its factor passes with IAM enforced, nothing lost, no Lambda timeout. */
export function deprovisioningCases(title: string, cases: readonly DeprovisioningCase[]): void {
  describe(title, () => {
    for (const [name, factor, what] of cases) {
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
}
