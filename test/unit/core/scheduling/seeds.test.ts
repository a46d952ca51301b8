import { describe, expect, it } from 'vitest';
import { computePlan } from '../../../../bin/commands/plan.js';
import { loadFiles } from '../../../../functions/adapters/files/load-files.js';
import { bundledCatalog } from '../../../../functions/core/catalog/bundled.js';
import { resolveInstanceTypes } from '../../../../functions/core/catalog/resolve.js';

const ZONE = 'topology.kubernetes.io/zone';

describe('seed scenarios', () => {
  it('seed 004: the add-on gets one on-demand m5.large, 20 x 1 CPU pods get 3 x c5.2xlarge spot (7/7/6)', async () => {
    const plan = await computePlan(['examples/seed-004']);
    expect(plan.unschedulable).toEqual([]);
    const addons = plan.nodeClaims.filter((c) => c.nodePool === 'addons-ondemand');
    expect(addons).toHaveLength(1);
    expect(addons[0].instanceTypeOptions[0]).toMatchObject({
      instanceType: 'm5.large',
      capacityType: 'on-demand',
    });
    expect(addons[0].taints).toEqual([{ key: 'opsguru.io/addons', effect: 'NoSchedule' }]);
    const general = plan.nodeClaims.filter((c) => c.nodePool === 'spot-general');
    expect(general.map((c) => c.instanceTypeOptions[0].instanceType)).toEqual([
      'c5.2xlarge',
      'c5.2xlarge',
      'c5.2xlarge',
    ]);
    expect(general.every((c) => c.instanceTypeOptions[0].capacityType === 'spot')).toBe(true);
    expect(general.map((c) => c.pods.length)).toEqual([7, 7, 6]);
    expect(plan.summary).toMatchObject({ pods: 21, nodeClaims: 4 });
  });

  it('seed 001: three 1-CPU pods on one on-demand arm64 node in us-west-2a of the allowed types', async () => {
    const plan = await computePlan(['examples/seed-001']);
    expect(plan.unschedulable).toEqual([]);
    expect(plan.nodeClaims).toHaveLength(1);
    const [claim] = plan.nodeClaims;
    expect(claim.pods).toHaveLength(3);
    for (const o of claim.instanceTypeOptions) {
      expect(['t4g.2xlarge', 'r6gd.xlarge']).toContain(o.instanceType);
      expect(o).toMatchObject({ capacityType: 'on-demand', zone: 'us-west-2a' });
    }
  });

  it('seed 002: four 1-CPU inflate pods on spot', async () => {
    const plan = await computePlan(['examples/seed-002']);
    expect(plan.unschedulable).toEqual([]);
    expect(plan.nodeClaims.flatMap((c) => c.pods)).toHaveLength(4);
    expect(plan.nodeClaims.every((c) => c.instanceTypeOptions[0].capacityType === 'spot')).toBe(true);
  });

  it('seed 003: the zone spread lands in three zones; GPU pool stays free of untolerating pods', async () => {
    const plan = await computePlan(['examples/seed-003']);
    const spread = plan.nodeClaims.filter((c) => c.pods.some((p) => p.includes('spread-across-az-1')));
    expect(new Set(spread.map((c) => c.labels[ZONE])).size).toBe(3);
    for (const c of plan.nodeClaims) expect(c.taints.some((t) => t.key === 'nvidia.com/gpu')).toBe(false);
  });

  it('seed 000: Multus pods schedule on the karpenter-node pool with the startup taint, max pods reduced', async () => {
    const plan = await computePlan(['examples/seed-000']);
    expect(plan.unschedulable).toEqual([]);
    expect(plan.nodeClaims.length).toBeGreaterThan(0);
    for (const c of plan.nodeClaims) {
      expect(c.labels.nodegroup).toBe('karpenter-node');
      expect(c.startupTaints.length).toBeGreaterThan(0);
    }
    const loaded = await loadFiles(['examples/seed-000']);
    const multus = loaded.nodeClasses.find((n) => n.multusInterfaces.length > 0);
    expect(multus).toBeDefined();
    const type = plan.nodeClaims[0].instanceTypeOptions[0].instanceType;
    const withMultus = resolveInstanceTypes(bundledCatalog, multus).find((t) => t.name === type)!;
    const without = resolveInstanceTypes(bundledCatalog, undefined).find((t) => t.name === type)!;
    expect(withMultus.allocatable.pods).toBeLessThan(without.allocatable.pods);
  });
});
