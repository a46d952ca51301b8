import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { optimumCost } from '../../bench/lib/milp-optimum.js';
import { repackProblem } from '../../bench/lib/repack-problem.js';
import { loadFiles } from '../../functions/adapters/files/load-files.js';
import { bundledCatalog } from '../../functions/core/catalog/bundled.js';
import { schedulingPools } from '../../functions/core/scheduling/prepare.js';
import { schedule } from '../../functions/core/scheduling/schedule.js';
import { explain, runShippedScenario } from './scenario-runner.js';

const example = (file: string) =>
  fileURLToPath(new URL(`../../examples/consolidation-scale/${file}`, import.meta.url));

/** The cheapest fleet for the pods left after the scale-in (the example's replica counts): MILP re-pack by requests (a lower bound of any valid packing). */
async function optimumOfRemaining() {
  const config = await loadFiles([example('nodepool.yaml'), example('workloads.yaml')]);
  const remaining = config.workloads.pods;
  const pools = schedulingPools(config.nodePools, config.nodeClasses, bundledCatalog);
  const repack = schedule({
    pods: remaining,
    nodes: [],
    inFlight: [],
    daemonSets: [],
    persistentVolumes: [],
    persistentVolumeClaims: [],
    pools,
  });
  const repackCost = repack.nodeClaims.reduce((s, c) => s + (c.instanceTypeOptions[0]?.price ?? 0), 0);
  const { types, shapes } = repackProblem(remaining, pools);
  const milp = await optimumCost(types, shapes, repackCost, 20);
  return { pods: remaining.length, repackCost, milp };
}

describe('consolidation at scale', () => {
  it('a mixed deployment set on about 30 nodes scaled back to 25%: within 1.05 x the optimum with the default budget, no PDB violation, nothing lost', async () => {
    const result = await runShippedScenario('consolidation-at-scale');
    expect(result.failures, explain(result)).toEqual([]);
    const { pods, milp, repackCost } = await optimumOfRemaining();
    expect(result.summary.pods.total).toBe(pods);
    const removals = result.summary.nodePools.default?.removals ?? [];
    expect(removals.length).toBeGreaterThan(10);
    // The default budget (10%) was never exceeded.
    const peak = result.summary.nodePools.default?.maxDisrupting ?? 0;
    expect(peak).toBeLessThanOrEqual(Math.ceil(0.1 * (removals.length + result.summary.nodes.length)));
    expect(result.log.some((l) => l.includes('disrupting node(s) via'))).toBe(true);
    const ratio = result.summary.hourlyCost / milp.cost;
    // The numbers, for the README's table (a run prints them; the bar below is the check).
    console.info(
      `consolidation-at-scale: $${result.summary.hourlyCost.toFixed(3)}/h, ${(ratio).toFixed(3)} x the MILP ${milp.method} $${milp.cost.toFixed(3)}/h, ${removals.length} removals`,
    );
    expect(
      ratio,
      `cluster $${result.summary.hourlyCost.toFixed(3)}/h, MILP ${milp.method} $${milp.cost.toFixed(3)}/h, scheduler re-pack $${repackCost.toFixed(3)}/h`,
      // Back to 1.05: earlier, about half of the runs ended one move short (1.11 x). Since the search
      // also tries exchanges (two nodes re-packed into two cheaper ones), four runs in a row on a
      // machine at load 20-27 ended at $0.805/h, 1.025 x.
    ).toBeLessThanOrEqual(1.05);
  }, 600_000);
});
