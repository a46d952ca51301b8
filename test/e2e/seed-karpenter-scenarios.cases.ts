import { describe, expect, it } from 'vitest';
import { explain, runShippedScenario } from './scenario-runner.js';

describe('seed scenarios of the Karpenter articles, run by joiner', () => {
  it('seed 001: layered constraints give one on-demand arm64 r6gd.xlarge in us-west-2a for the inflate pods', async () => {
    const result = await runShippedScenario('seed-001-layered-constraints');
    expect(result.failures, explain(result)).toEqual([]);
    expect(result.summary.nodes.map((n) => [n.instanceType, n.capacityType, n.zone, n.pods])).toEqual([
      ['r6gd.xlarge', 'on-demand', 'us-west-2a', 3],
    ]);
  }, 90_000);

  it('seed 002: a spot interruption moves the pods to a replacement first, through their PDB; scaled to 0, the node goes', async () => {
    const result = await runShippedScenario('seed-002-inflate-spot');
    expect(result.failures, explain(result)).toEqual([]);
    expect(result.log.some((l) => l.includes('spot-interruption for instance'))).toBe(true);
    // The replacement was launched before any eviction of the interrupted node.
    const launchedAt = result.log.findIndex(
      (l) => l.includes('launched nodeclaim') && l.includes(' disruption '),
    );
    const evictedAt = result.log.findIndex((l) => l.includes('evicted pod(s)'));
    expect(launchedAt, explain(result)).toBeGreaterThan(-1);
    expect(evictedAt).toBeGreaterThan(launchedAt);
    expect(result.summary.pdbViolations).toBe(0);
    expect(result.log.some((l) => l.includes('"reason":"empty"'))).toBe(true);
    expect(result.summary.nodes).toEqual([]);
    expect(result.summary.orphanedInstances).toBe(0);
  }, 120_000);

  it('seed 004: two provisioners give 3 x c5.2xlarge spot packed 7/7/6 and one on-demand m5.large for the add-on; scaled to 0, all go', async () => {
    const result = await runShippedScenario('seed-004-two-provisioners');
    // The packing is checked by the scenario's own expect step, before the scale-in.
    expect(result.failures, explain(result)).toEqual([]);
    expect(result.summary.latency.unschedulableToLaunchMs.samples).toBeGreaterThan(0);
    // Scaled to zero, ttlSecondsAfterEmpty removes all four nodes.
    expect(result.summary.nodePools['spot-general']?.removals).toHaveLength(3);
    expect(result.summary.nodePools['addons-ondemand']?.removals).toHaveLength(1);
  }, 120_000);
});
