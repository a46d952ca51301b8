import { describe, expect, it } from 'vitest';
import { loadDocuments } from '../../../../functions/core/model/config/load.js';
import type { NodeOverlay } from '../../../../functions/core/model/node-overlay.js';
import { adjustedPrice } from '../../../../functions/core/model/node-overlay.js';
import { applyNodeOverlays } from '../../../../functions/core/scheduling/node-overlays.js';
import { schedule } from '../../../../functions/core/scheduling/schedule.js';
import { nodeOverlayStatus } from '../../../../functions/core/status/nodeoverlay-status.js';
import { nodePool } from '../../../builders/config.js';
import { pod } from '../../../builders/workloads.js';
import { input, instanceType, pool } from './fixtures.js';

const ON_DEMAND = { key: 'karpenter.sh/capacity-type', operator: 'In' as const, values: ['on-demand'] };

function overlay(name: string, o: Partial<NodeOverlay> = {}): NodeOverlay {
  return {
    name,
    source: { file: 'test', index: 0, apiVersion: 'karpenter.sh/v1alpha1', kind: 'NodeOverlay', name },
    requirements: [],
    capacity: {},
    weight: 0,
    ...o,
  };
}

const family = (values: string[]) => ({
  key: 'karpenter.k8s.aws/instance-family',
  operator: 'In' as const,
  values,
});

function types() {
  return [instanceType('c.large', 2, 4, 0.085), instanceType('m.large', 2, 8, 0.096)];
}

function priceOf(pools: ReturnType<typeof applyNodeOverlays>['pools'], type: string, ct = 'on-demand') {
  const t = pools[0].instanceTypes.find((i) => i.name === type);
  return t?.offerings.find((o) => o.zone === 'zone-a' && o.capacityType === ct)?.price;
}

describe('NodeOverlay prices', () => {
  it('applies price, signed adjustments and percentages as Karpenter does (never below 0)', () => {
    expect(adjustedPrice(0.1, { kind: 'set', value: 0.02 })).toBe(0.02);
    expect(adjustedPrice(0.1, { kind: 'add', value: -0.03 })).toBeCloseTo(0.07);
    expect(adjustedPrice(0.1, { kind: 'add', value: -1 })).toBe(0);
    expect(adjustedPrice(0.1, { kind: 'percent', value: -40 })).toBeCloseTo(0.06);
    expect(adjustedPrice(0.1, { kind: 'percent', value: 10 })).toBeCloseTo(0.11);
  });

  it('changes only the offerings its requirements select (family and capacity type)', () => {
    const o = overlay('sp', {
      requirements: [family(['m']), ON_DEMAND],
      price: { kind: 'percent', value: -50 },
    });
    const { pools, outcomes } = applyNodeOverlays([pool(nodePool(), types())], [o]);
    expect(priceOf(pools, 'm.large')).toBeCloseTo(0.048);
    expect(priceOf(pools, 'm.large', 'spot')).toBeCloseTo(0.096 * 0.4);
    expect(priceOf(pools, 'c.large')).toBeCloseTo(0.085);
    expect(outcomes).toEqual([{ overlay: o, applied: 1 }]);
  });

  it('matches the NodePool name and template labels', () => {
    const o = overlay('team', {
      requirements: [{ key: 'team', operator: 'In', values: ['ml'] }],
      price: { kind: 'set', value: 0.01 },
    });
    const ml = pool(nodePool({ name: 'ml', labels: { team: 'ml' } }), types());
    const web = pool(nodePool({ name: 'web' }), types());
    const { pools } = applyNodeOverlays([web, ml], [o]);
    expect(pools[0]).toBe(web);
    expect(pools[1].instanceTypes.every((t) => t.offerings.every((x) => x.price === 0.01))).toBe(true);
    const byName = overlay('by-pool', {
      requirements: [{ key: 'karpenter.sh/nodepool', operator: 'In', values: ['web'] }],
      price: { kind: 'set', value: 0.02 },
    });
    const again = applyNodeOverlays([web, ml], [byName]).pools;
    expect(again[0].instanceTypes[0].offerings[0].price).toBe(0.02);
    expect(again[1]).toBe(ml);
  });

  it('lets the heavier overlay win and reports a same-weight conflict, applying the loser nowhere', () => {
    const heavy = overlay('heavy', {
      weight: 20,
      requirements: [family(['m'])],
      price: { kind: 'set', value: 0.01 },
    });
    const light = overlay('light', {
      weight: 10,
      requirements: [family(['m', 'c'])],
      price: { kind: 'set', value: 0.02 },
    });
    const { pools, outcomes } = applyNodeOverlays([pool(nodePool(), types())], [light, heavy]);
    expect(priceOf(pools, 'm.large')).toBe(0.01);
    expect(priceOf(pools, 'c.large')).toBe(0.02);
    expect(outcomes.map((o) => [o.overlay.name, o.conflict])).toEqual([
      ['heavy', undefined],
      ['light', undefined],
    ]);

    const a = overlay('a', { weight: 5, requirements: [family(['m'])], price: { kind: 'set', value: 0.03 } });
    const b = overlay('b', {
      weight: 5,
      requirements: [family(['m', 'c'])],
      price: { kind: 'set', value: 0.04 },
    });
    const clash = applyNodeOverlays([pool(nodePool(), types())], [a, b]);
    // Equal weights: the name later in the alphabet goes first and wins; the other conflicts.
    expect(clash.outcomes[0].overlay.name).toBe('b');
    expect(clash.outcomes[0].conflict).toBeUndefined();
    expect(clash.outcomes[1].overlay.name).toBe('a');
    expect(clash.outcomes[1].conflict).toMatch(/NodeOverlay b of the same weight \(5\)/);
    expect(priceOf(clash.pools, 'm.large')).toBe(0.04);
    expect(priceOf(clash.pools, 'c.large')).toBe(0.04);
  });
});

describe('NodeOverlay capacity', () => {
  it('adds extended resources to capacity and allocatable so pods requesting them fit', () => {
    const dongle = pod({ name: 'dongle', requests: { cpu: '500m', 'example.com/dongle': '1' } });
    const without = schedule(input({ pods: [dongle], pools: [pool(nodePool(), types())] }));
    expect(without.nodeClaims).toHaveLength(0);
    const o = overlay('dongles', { requirements: [family(['m'])], capacity: { 'example.com/dongle': 2 } });
    const { pools } = applyNodeOverlays([pool(nodePool(), types())], [o]);
    const m = pools[0].instanceTypes.find((t) => t.name === 'm.large');
    expect(m?.capacity['example.com/dongle']).toBe(2);
    expect(m?.allocatable['example.com/dongle']).toBe(2);
    const plan = schedule(input({ pods: [dongle], pools }));
    expect(plan.unschedulable).toEqual([]);
    expect(plan.nodeClaims[0].instanceTypeOptions.map((x) => x.instanceType)).toEqual(
      expect.arrayContaining(['m.large']),
    );
    expect(plan.nodeClaims[0].instanceTypeOptions.some((x) => x.instanceType === 'c.large')).toBe(false);
  });

  it('conflicts on the same resource at the same weight, not on different resources', () => {
    const one = overlay('one', { weight: 1, capacity: { 'example.com/a': 1 } });
    const two = overlay('two', { weight: 1, capacity: { 'example.com/b': 1 } });
    const three = overlay('three', { weight: 1, capacity: { 'example.com/a': 3 } });
    const { outcomes, pools } = applyNodeOverlays([pool(nodePool(), types())], [one, two, three]);
    const conflicts = Object.fromEntries(outcomes.map((o) => [o.overlay.name, o.conflict !== undefined]));
    expect(conflicts).toEqual({ three: false, two: false, one: true });
    expect(pools[0].instanceTypes[0].capacity['example.com/a']).toBe(3);
    expect(pools[0].instanceTypes[0].capacity['example.com/b']).toBe(1);
  });
});

describe('NodeOverlay in the plan', () => {
  it('a Savings-Plan-style discount moves the chosen type', () => {
    const p = nodePool({ requirements: [ON_DEMAND] });
    const web = pod({ name: 'web', requests: { cpu: '1500m', memory: '1Gi' } });
    const before = schedule(input({ pods: [web], pools: [pool(p, types())] }));
    expect(before.nodeClaims[0].instanceTypeOptions[0].instanceType).toBe('c.large');
    const sp = overlay('savings-plan', {
      requirements: [family(['m'])],
      price: { kind: 'percent', value: -20 },
    });
    const after = schedule(input({ pods: [web], pools: applyNodeOverlays([pool(p, types())], [sp]).pools }));
    expect(after.nodeClaims[0].instanceTypeOptions[0]).toMatchObject({ instanceType: 'm.large' });
    expect(after.nodeClaims[0].instanceTypeOptions[0].price).toBeCloseTo(0.0768);
  });
});

describe('NodeOverlay documents', () => {
  const doc = (spec: Record<string, unknown>) => ({
    file: 'overlay.yaml',
    index: 0,
    object: {
      apiVersion: 'karpenter.sh/v1alpha1',
      kind: 'NodeOverlay',
      metadata: { name: 'o' },
      spec: { requirements: [], ...spec },
    },
  });

  it('converts price, priceAdjustment, capacity quantities and weight', () => {
    const loaded = loadDocuments([
      doc({
        requirements: [{ key: 'karpenter.k8s.aws/instance-family', operator: 'In', values: ['m5'] }],
        priceAdjustment: '-0.015',
        capacity: { 'example.com/dongle': '2', 'hugepages-2Mi': '1Gi' },
        weight: 7,
      }),
    ]);
    expect(loaded.diagnostics).toEqual([]);
    expect(loaded.nodeOverlays[0]).toMatchObject({
      name: 'o',
      weight: 7,
      price: { kind: 'add', value: -0.015 },
      capacity: { 'example.com/dongle': 2, 'hugepages-2Mi': 2 ** 30 },
    });
    expect(loadDocuments([doc({ price: '0.5' })]).nodeOverlays[0].price).toEqual({ kind: 'set', value: 0.5 });
    expect(loadDocuments([doc({ priceAdjustment: '+10%' })]).nodeOverlays[0]).toMatchObject({
      price: { kind: 'percent', value: 10 },
      weight: 0,
    });
  });

  it('refuses bad input with the field named', () => {
    const messages = (spec: Record<string, unknown>) =>
      loadDocuments([doc(spec)]).diagnostics.map((d) => `${d.path}: ${d.message}`);
    expect(messages({ price: '0.1', priceAdjustment: '-1%' })).toEqual([
      "spec: cannot set both 'price' and 'priceAdjustment'",
    ]);
    expect(messages({ priceAdjustment: '-150%' })[0]).toMatch(
      /^spec.priceAdjustment: priceAdjustment must be/,
    );
    expect(messages({ priceAdjustment: '10%' })[0]).toMatch(/^spec.priceAdjustment:/);
    expect(messages({ price: '-1' })[0]).toMatch(/^spec.price: price must be an unsigned decimal/);
    expect(messages({ capacity: { memory: '1Gi' } })[0]).toMatch(
      /^spec.capacity.memory: capacity may not set memory/,
    );
    expect(messages({ weight: 0 })[0]).toMatch(/^spec.weight:/);
    expect(messages({ requirements: [{ key: 'a', operator: 'Equals', values: ['b'] }] })[0]).toMatch(
      /^spec.requirements\[0\].operator: unknown operator "Equals"/,
    );
    expect(loadDocuments([doc({ price: 'x' })]).nodeOverlays).toEqual([]);
    expect(messages({ requirements: undefined })).toEqual([
      'spec.requirements: Invalid input: expected array, received undefined',
    ]);
  });
});

describe('NodeOverlay status', () => {
  it('writes ValidationSucceeded and Ready as Karpenter does, False with reason Conflict on a conflict', () => {
    const ok = nodeOverlayStatus({ overlay: overlay('a'), applied: 1 }, Date.UTC(2026, 0, 1));
    expect(ok.conditions.map((c) => [c.type, c.status, c.reason])).toEqual([
      ['ValidationSucceeded', 'True', 'ValidationSucceeded'],
      ['Ready', 'True', 'Ready'],
    ]);
    const bad = nodeOverlayStatus(
      { overlay: overlay('a'), applied: 0, conflict: 'conflicts with NodeOverlay b of the same weight (5)' },
      Date.UTC(2026, 0, 1),
    );
    expect(bad.conditions.map((c) => [c.type, c.status, c.reason])).toEqual([
      ['ValidationSucceeded', 'False', 'Conflict'],
      ['Ready', 'False', 'ValidationSucceededFalse'],
    ]);
    expect(bad.conditions[0].message).toMatch(/NodeOverlay b/);
  });
});
