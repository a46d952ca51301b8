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

  it('seed 002: inflate on spot; after a spot interruption the pods run on a replacement node, no orphan', async () => {
    const result = await runShippedScenario('seed-002-inflate-spot');
    expect(result.failures, explain(result)).toEqual([]);
    expect(result.log.some((l) => l.includes('spot-interruption for instance'))).toBe(true);
    const [node] = result.summary.nodes;
    expect(node.capacityType).toBe('spot');
    expect(node.pods).toBe(4);
    expect(result.summary.orphanedInstances).toBe(0);
  }, 90_000);

  it('seed 004: two provisioners give 3 x c5.2xlarge spot packed 7/7/6 and one on-demand m5.large for the add-on', async () => {
    const result = await runShippedScenario('seed-004-two-provisioners');
    expect(result.failures, explain(result)).toEqual([]);
    const addons = result.summary.nodes.filter((n) => n.nodePool === 'addons-ondemand');
    expect(addons.map((n) => [n.instanceType, n.capacityType, n.pods])).toEqual([
      ['m5.large', 'on-demand', 1],
    ]);
    expect(result.summary.latency.unschedulableToLaunchMs.samples).toBeGreaterThan(0);
  }, 90_000);
});
