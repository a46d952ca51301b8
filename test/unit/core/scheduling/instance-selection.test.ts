/**
 * Instance selection, after the intents of Karpenter's scheduling instance-selection tests: the
 * cheapest type that holds the pods comes first, architecture and OS requirements filter the
 * options (from the pod or from the NodePool), unavailable offerings are never options, pods with
 * different requirements that can share a type are planned together, and a pod too large for
 * every type the requirements allow stays pending with the reason.
 */
import { describe, expect, it } from 'vitest';
import type { ResolvedInstanceType } from '../../../../functions/core/model/instance-type.js';
import { schedule } from '../../../../functions/core/scheduling/schedule.js';
import type { PlannedNodeClaim } from '../../../../functions/core/scheduling/types.js';
import { nodePool } from '../../../builders/config.js';
import { pod } from '../../../builders/workloads.js';
import { input, instanceType, pool } from './fixtures.js';

const ARCH = 'kubernetes.io/arch';
const OS = 'kubernetes.io/os';
const ZONE = 'topology.kubernetes.io/zone';

function windows(t: ResolvedInstanceType): ResolvedInstanceType {
  return { ...t, name: `${t.name}-win`, labels: { ...t.labels, [OS]: 'windows' } };
}

/** amd64 and arm64 sizes, arm64 cheaper; one arm64 type offered only in zone-a; a Windows type. */
function catalog(): ResolvedInstanceType[] {
  return [
    instanceType('x.large', 2, 8, 0.1, { spot: false }),
    instanceType('x.xlarge', 4, 16, 0.2, { spot: false }),
    instanceType('x.2xlarge', 8, 32, 0.4, { spot: false }),
    instanceType('g.large', 2, 8, 0.08, { arch: 'arm64', spot: false, zones: ['zone-a'] }),
    instanceType('g.xlarge', 4, 16, 0.16, { arch: 'arm64', spot: false, zones: ['zone-a'] }),
    windows(instanceType('w.xlarge', 4, 16, 0.3, { spot: false })),
  ];
}

const byName = new Map(catalog().map((t) => [t.name, t]));
const types = (c: PlannedNodeClaim) => [...new Set(c.instanceTypeOptions.map((o) => o.instanceType))];
const labelsOf = (c: PlannedNodeClaim, key: string) => [
  ...new Set(types(c).map((n) => byName.get(n)!.labels[key])),
];

describe('instance selection', () => {
  it('ranks the cheapest type that holds the pod first, and every option holds it', () => {
    const plan = schedule(
      input({ pods: [pod({ name: 'p', requests: { cpu: '3' } })], pools: [pool(nodePool(), catalog())] }),
    );
    const [claim] = plan.nodeClaims;
    expect(claim.instanceTypeOptions[0].instanceType).toBe('g.xlarge');
    for (const n of types(claim)) expect(byName.get(n)!.allocatable.cpu).toBeGreaterThanOrEqual(3000);
    const prices = claim.instanceTypeOptions.map((o) => o.price);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
  });

  it('keeps only the architecture a pod selects, from nodeSelector or from the NodePool', () => {
    const amd = schedule(
      input({
        pods: [pod({ name: 'p', requests: { cpu: '1' }, nodeSelector: { [ARCH]: 'amd64' } })],
        pools: [pool(nodePool(), catalog())],
      }),
    );
    expect(labelsOf(amd.nodeClaims[0], ARCH)).toEqual(['amd64']);
    expect(amd.nodeClaims[0].instanceTypeOptions[0].instanceType).toBe('x.large');
    const arm = schedule(
      input({
        pods: [pod({ name: 'p', requests: { cpu: '1' } })],
        pools: [
          pool(nodePool({ requirements: [{ key: ARCH, operator: 'In', values: ['arm64'] }] }), catalog()),
        ],
      }),
    );
    expect(labelsOf(arm.nodeClaims[0], ARCH)).toEqual(['arm64']);
    expect(arm.nodeClaims[0].labels[ARCH]).toBe('arm64');
  });

  it('keeps only the OS a pod or NodePool selects, and leaves a pod pending when no type has it', () => {
    const win = schedule(
      input({
        pods: [pod({ name: 'p', requests: { cpu: '1' }, nodeSelector: { [OS]: 'windows' } })],
        pools: [pool(nodePool(), catalog())],
      }),
    );
    expect(types(win.nodeClaims[0])).toEqual(['w.xlarge-win']);
    const linux = schedule(
      input({
        pods: [pod({ name: 'p', requests: { cpu: '1' }, nodeSelector: { [OS]: 'windows' } })],
        pools: [
          pool(nodePool({ requirements: [{ key: OS, operator: 'In', values: ['linux'] }] }), catalog()),
        ],
      }),
    );
    expect(linux.nodeClaims).toEqual([]);
    expect(linux.unschedulable[0].reason).toMatch(/kubernetes\.io\/os/);
  });

  it('does not plan an architecture in a zone where no type of it is offered', () => {
    const plan = schedule(
      input({
        pods: [
          pod({ name: 'p', requests: { cpu: '1' }, nodeSelector: { [ARCH]: 'arm64', [ZONE]: 'zone-b' } }),
        ],
        pools: [pool(nodePool(), catalog())],
      }),
    );
    expect(plan.nodeClaims).toEqual([]);
    expect(plan.unschedulable).toHaveLength(1);
    const inA = schedule(
      input({
        pods: [
          pod({ name: 'p', requests: { cpu: '1' }, nodeSelector: { [ARCH]: 'arm64', [ZONE]: 'zone-a' } }),
        ],
        pools: [pool(nodePool(), catalog())],
      }),
    );
    expect(inA.nodeClaims[0].instanceTypeOptions.every((o) => o.zone === 'zone-a')).toBe(true);
  });

  it('never offers a type whose only offerings are unavailable', () => {
    const cat = catalog().map((t) =>
      t.name === 'g.large' ? { ...t, offerings: t.offerings.map((o) => ({ ...o, available: false })) } : t,
    );
    const plan = schedule(
      input({ pods: [pod({ name: 'p', requests: { cpu: '1' } })], pools: [pool(nodePool(), cat)] }),
    );
    expect(types(plan.nodeClaims[0])).not.toContain('g.large');
    // The next cheapest type that holds the pod.
    expect(plan.nodeClaims[0].instanceTypeOptions[0].instanceType).toBe('x.large');
  });

  it('plans pods of different requirements on one node of a type they all allow, sized for their sum', () => {
    const plan = schedule(
      input({
        pods: [
          pod({ name: 'amd', requests: { cpu: '1500m' }, nodeSelector: { [ARCH]: 'amd64' } }),
          pod({ name: 'any', requests: { cpu: '1500m' } }),
        ],
        pools: [pool(nodePool(), catalog())],
      }),
    );
    // x.large + g.large ($0.18) beat one x.xlarge ($0.20): two nodes.
    const cost = plan.nodeClaims.reduce((s, c) => s + c.instanceTypeOptions[0].price, 0);
    expect(cost).toBeCloseTo(0.18, 6);
    const shared = schedule(
      input({
        pods: [
          pod({ name: 'amd', requests: { cpu: '1500m' }, nodeSelector: { [ARCH]: 'amd64' } }),
          pod({ name: 'any-1', requests: { cpu: '1200m' } }),
          pod({ name: 'any-2', requests: { cpu: '1200m' } }),
        ],
        pools: [pool(nodePool(), catalog())],
      }),
    );
    // 3.9 CPU: one x.xlarge ($0.20) beats x.large + g.xlarge ($0.26) and x.large + 2 x g.large ($0.26).
    expect(shared.nodeClaims).toHaveLength(1);
    expect(shared.nodeClaims[0].instanceTypeOptions[0].instanceType).toBe('x.xlarge');
    expect(labelsOf(shared.nodeClaims[0], ARCH)).toEqual(['amd64']);
  });

  it('leaves a pod larger than every allowed type pending, saying so', () => {
    const plan = schedule(
      input({
        pods: [pod({ name: 'big', requests: { cpu: '6' }, nodeSelector: { [ARCH]: 'arm64' } })],
        pools: [pool(nodePool(), catalog())],
      }),
    );
    expect(plan.nodeClaims).toEqual([]);
    expect(plan.unschedulable[0].reason.length).toBeGreaterThan(10);
  });
});
