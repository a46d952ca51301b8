/**
 * Pod affinity, pod anti-affinity and topology spread on topology keys other than hostname and
 * zone (architecture, capacity type, instance type, a NodePool's own label), with the intent of
 * Karpenter's scheduling topology tests: the instance type or the NodePool decides the domain,
 * and a new claim is narrowed to the domain the rule allows.
 */
import { describe, expect, it } from 'vitest';
import type { Affinity, Pod } from '../../../../functions/core/model/kube-objects.js';
import { schedule } from '../../../../functions/core/scheduling/schedule.js';
import type { PlannedNodeClaim, SchedulePlan } from '../../../../functions/core/scheduling/types.js';
import { nodePool } from '../../../builders/config.js';
import { pod, pods } from '../../../builders/workloads.js';
import { existing, input, instanceType, pool, smallCatalog } from './fixtures.js';

const ARCH = 'kubernetes.io/arch';
const CAPACITY_TYPE = 'karpenter.sh/capacity-type';
const INSTANCE_TYPE = 'node.kubernetes.io/instance-type';
const HOSTNAME = 'kubernetes.io/hostname';
const web = { app: 'web' };

/** The small catalog plus two arm64 types. */
const mixedArch = () => [
  ...smallCatalog(),
  instanceType('m7g.large', 2, 8, 0.082, { arch: 'arm64' }),
  instanceType('m7g.xlarge', 4, 16, 0.164, { arch: 'arm64' }),
];

const anti = (key: string, labels: Record<string, string> = web): Affinity => ({
  podAntiAffinity: {
    requiredDuringSchedulingIgnoredDuringExecution: [
      { topologyKey: key, labelSelector: { matchLabels: labels } },
    ],
  },
});

const affinity = (key: string, labels: Record<string, string>): Affinity => ({
  podAffinity: {
    requiredDuringSchedulingIgnoredDuringExecution: [
      { topologyKey: key, labelSelector: { matchLabels: labels } },
    ],
  },
});

const spread = (key: string, labels: Record<string, string> = web) => ({
  maxSkew: 1,
  topologyKey: key,
  whenUnsatisfiable: 'DoNotSchedule' as const,
  labelSelector: { matchLabels: labels },
});

/** The value a plan gives a label on the claim holding a pod: its labels, or a one-value requirement. */
function domainOf(plan: SchedulePlan, podName: string, key: string): string | undefined {
  const claim = plan.nodeClaims.find((c) => c.pods.includes(`default/${podName}`));
  return claim ? claimValue(claim, key) : undefined;
}

function claimValue(claim: PlannedNodeClaim, key: string): string | undefined {
  if (claim.labels[key] !== undefined) return claim.labels[key];
  const r = claim.requirements.find((q) => q.key === key && q.operator === 'In');
  return r?.values?.length === 1 ? r.values[0] : undefined;
}

/** Per domain of `key`, how many of the plan's new pods land there. */
function skew(plan: SchedulePlan, key: string): number[] {
  const counts = new Map<string, number>();
  for (const c of plan.nodeClaims) {
    const v = claimValue(c, key) ?? '?';
    counts.set(v, (counts.get(v) ?? 0) + c.pods.length);
  }
  return [...counts.values()].sort((a, b) => a - b);
}

describe('pod anti-affinity on keys the instance type decides', () => {
  it('puts self-anti-affine replicas on different architectures and leaves the third pending', () => {
    const replicas = pods(3, 'web', { labels: web, requests: { cpu: '100m' }, affinity: anti(ARCH) });
    const plan = schedule(input({ pods: replicas, pools: [pool(nodePool(), mixedArch())] }));
    expect(plan.nodeClaims.map((c) => claimValue(c, ARCH)).sort()).toEqual(['amd64', 'arm64']);
    // Each claim's options were narrowed to its architecture.
    for (const c of plan.nodeClaims) {
      const arm = c.instanceTypeOptions.some((o) => o.instanceType.startsWith('m7g'));
      expect(arm).toBe(claimValue(c, ARCH) === 'arm64');
    }
    expect(plan.unschedulable).toHaveLength(1);
    expect(plan.unschedulable[0].reason).toMatch(/anti-affinity on kubernetes\.io\/arch/);
  });

  it('stays pending beyond one replica when the NodePool allows one architecture only', () => {
    const amd64Only = nodePool({ requirements: [{ key: ARCH, operator: 'In', values: ['amd64'] }] });
    const replicas = pods(2, 'web', { labels: web, requests: { cpu: '100m' }, affinity: anti(ARCH) });
    const plan = schedule(input({ pods: replicas, pools: [pool(amd64Only, mixedArch())] }));
    expect(plan.nodeClaims).toHaveLength(1);
    expect(claimValue(plan.nodeClaims[0], ARCH)).toBe('amd64');
    expect(plan.unschedulable.map((u) => u.pod)).toHaveLength(1);
  });

  it('keeps a pod off the architecture of the pod it repels (Karpenter: "should not violate pod anti-affinity (arch)")', () => {
    const labels = { security: 's2' };
    const tsc = [spread(HOSTNAME, labels)];
    const first = pod({
      name: 'first',
      labels,
      requests: { cpu: '2' },
      nodeSelector: { [ARCH]: 'arm64' },
      topologySpreadConstraints: tsc,
    });
    const second = pod({
      name: 'second',
      labels,
      requests: { cpu: '1' },
      topologySpreadConstraints: tsc,
      affinity: anti(ARCH, labels),
    });
    const plan = schedule(input({ pods: [second, first], pools: [pool(nodePool(), mixedArch())] }));
    expect(plan.unschedulable).toEqual([]);
    expect(domainOf(plan, 'first', ARCH)).toBe('arm64');
    expect(domainOf(plan, 'second', ARCH)).toBe('amd64');
  });

  it('repels from the architecture of a running pod with the anti-affinity term', () => {
    const running = pod({ name: 'guard', nodeName: 'n1', labels: { role: 'guard' }, affinity: anti(ARCH) });
    const node = existing('n1', {
      pods: [running],
      labels: { [ARCH]: 'amd64' },
      allocatable: { cpu: 100, memory: 2 ** 30, pods: 110 },
    });
    const p = pod({ name: 'p', labels: web, requests: { cpu: '1' } });
    const plan = schedule(input({ pods: [p], nodes: [node], pools: [pool(nodePool(), mixedArch())] }));
    expect(domainOf(plan, 'p', ARCH)).toBe('arm64');
  });

  it('spreads anti-affine replicas over capacity types', () => {
    const replicas = pods(3, 'web', {
      labels: web,
      requests: { cpu: '100m' },
      affinity: anti(CAPACITY_TYPE),
    });
    const plan = schedule(input({ pods: replicas, pools: [pool(nodePool())] }));
    expect(plan.nodeClaims.map((c) => claimValue(c, CAPACITY_TYPE)).sort()).toEqual(['on-demand', 'spot']);
    expect(plan.unschedulable).toHaveLength(1);
  });

  it('gives each anti-affine replica its own instance type', () => {
    const catalog = [instanceType('c.large', 2, 4, 0.085), instanceType('m.large', 2, 8, 0.096)];
    const replicas = pods(3, 'web', { labels: web, requests: { cpu: '1' }, affinity: anti(INSTANCE_TYPE) });
    const plan = schedule(input({ pods: replicas, pools: [pool(nodePool(), catalog)] }));
    const types = plan.nodeClaims.map((c) => [...new Set(c.instanceTypeOptions.map((o) => o.instanceType))]);
    expect(types.sort()).toEqual([['c.large'], ['m.large']]);
    expect(plan.unschedulable).toHaveLength(1);
  });

  it('a preferred anti-affinity on arch spreads while it can and is relaxed after', () => {
    const preferred: Affinity = {
      podAntiAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [
          { weight: 10, podAffinityTerm: { topologyKey: ARCH, labelSelector: { matchLabels: web } } },
        ],
      },
    };
    const replicas = pods(3, 'web', { labels: web, requests: { cpu: '100m' }, affinity: preferred });
    const plan = schedule(input({ pods: replicas, pools: [pool(nodePool(), mixedArch())] }));
    expect(plan.unschedulable).toEqual([]);
    expect(new Set(plan.nodeClaims.map((c) => claimValue(c, ARCH)))).toEqual(new Set(['amd64', 'arm64']));
  });
});

describe('pod affinity on keys the instance type decides', () => {
  it('follows the architecture of its peer onto another node (Karpenter: "should respect pod affinity (arch)")', () => {
    const labels = { security: 's2' };
    const tsc = [spread(HOSTNAME, labels)];
    const first = pod({
      name: 'first',
      labels,
      requests: { cpu: '2' },
      nodeSelector: { [ARCH]: 'arm64' },
      topologySpreadConstraints: tsc,
    });
    const second = pod({
      name: 'second',
      labels,
      requests: { cpu: '1' },
      topologySpreadConstraints: tsc,
      affinity: affinity(ARCH, labels),
    });
    const plan = schedule(input({ pods: [first, second], pools: [pool(nodePool(), mixedArch())] }));
    expect(plan.unschedulable).toEqual([]);
    expect(domainOf(plan, 'second', ARCH)).toBe('arm64');
    expect(plan.nodeClaims).toHaveLength(2);
  });

  it('co-locates with the capacity type of a running pod when its node is full', () => {
    const db = pod({ name: 'db', nodeName: 'n1', labels: { app: 'db' } });
    const full = existing('n1', {
      pods: [db],
      labels: { [CAPACITY_TYPE]: 'spot' },
      allocatable: { cpu: 100, memory: 2 ** 30, pods: 110 },
    });
    const followers = pods(2, 'cache', {
      requests: { cpu: '1' },
      affinity: affinity(CAPACITY_TYPE, { app: 'db' }),
    });
    const plan = schedule(input({ pods: followers, nodes: [full], pools: [pool(nodePool())] }));
    expect(plan.unschedulable).toEqual([]);
    expect(plan.nodeClaims.map((c) => claimValue(c, CAPACITY_TYPE))).toEqual(['spot']);
  });

  it('stays pending when the NodePool cannot launch the capacity type its peer runs on', () => {
    const db = pod({ name: 'db', nodeName: 'n1', labels: { app: 'db' } });
    const full = existing('n1', {
      pods: [db],
      labels: { [CAPACITY_TYPE]: 'spot' },
      allocatable: { cpu: 100, memory: 2 ** 30, pods: 110 },
    });
    const onDemand = nodePool({
      requirements: [{ key: CAPACITY_TYPE, operator: 'In', values: ['on-demand'] }],
    });
    const follower = pod({
      name: 'cache',
      requests: { cpu: '1' },
      affinity: affinity(CAPACITY_TYPE, { app: 'db' }),
    });
    const plan = schedule(input({ pods: [follower], nodes: [full], pools: [pool(onDemand)] }));
    expect(plan.nodeClaims).toEqual([]);
    expect(plan.unschedulable[0].reason).toMatch(/pod affinity on karpenter\.sh\/capacity-type/);
  });
});

describe('a NodePool label as topology key', () => {
  const RACK = 'example.com/rack';
  const racks = nodePool({ requirements: [{ key: RACK, operator: 'In', values: ['r1', 'r2'] }] });

  it('anti-affinity takes one rack per replica', () => {
    const replicas = pods(3, 'web', { labels: web, requests: { cpu: '100m' }, affinity: anti(RACK) });
    const plan = schedule(input({ pods: replicas, pools: [pool(racks)] }));
    expect(plan.nodeClaims.map((c) => claimValue(c, RACK)).sort()).toEqual(['r1', 'r2']);
    expect(plan.unschedulable).toHaveLength(1);
  });

  it('affinity follows a running pod to the rack of its node', () => {
    const db = pod({ name: 'db', nodeName: 'n1', labels: { app: 'db' } });
    const full = existing('n1', {
      pods: [db],
      labels: { [RACK]: 'r2' },
      allocatable: { cpu: 100, memory: 2 ** 30, pods: 110 },
    });
    const follower = pod({ name: 'cache', requests: { cpu: '1' }, affinity: affinity(RACK, { app: 'db' }) });
    const plan = schedule(input({ pods: [follower], nodes: [full], pools: [pool(racks)] }));
    expect(domainOf(plan, 'cache', RACK)).toBe('r2');
  });

  it('two NodePools with their own label value are two domains', () => {
    const a = nodePool({ name: 'a', labels: { team: 'a' } });
    const b = nodePool({ name: 'b', labels: { team: 'b' } });
    const replicas = pods(2, 'web', { labels: web, requests: { cpu: '100m' }, affinity: anti('team') });
    const plan = schedule(input({ pods: replicas, pools: [pool(a), pool(b)] }));
    expect(plan.nodeClaims.map((c) => c.labels.team).sort()).toEqual(['a', 'b']);
  });
});

describe('topology spread on keys the instance type decides', () => {
  it('balances pods across capacity types (Karpenter: 2 and 2)', () => {
    const replicas = pods(4, 'web', {
      labels: web,
      requests: { cpu: '1' },
      topologySpreadConstraints: [spread(CAPACITY_TYPE)],
    });
    const plan = schedule(input({ pods: replicas, pools: [pool(nodePool())] }));
    expect(plan.unschedulable).toEqual([]);
    expect(skew(plan, CAPACITY_TYPE)).toEqual([2, 2]);
  });

  it('counts a running amd64 pod when the pool can only launch arm64 (Karpenter: skew 1 and 2)', () => {
    const running = pod({ name: 'old', nodeName: 'n1', labels: web });
    const node = existing('n1', {
      pods: [running],
      labels: { [ARCH]: 'amd64' },
      allocatable: { cpu: 100, memory: 2 ** 30, pods: 110 },
    });
    const arm = nodePool({ requirements: [{ key: ARCH, operator: 'In', values: ['arm64'] }] });
    const replicas = pods(5, 'web', {
      labels: web,
      requests: { cpu: '2' },
      topologySpreadConstraints: [spread(ARCH)],
    });
    const plan = schedule(input({ pods: replicas, nodes: [node], pools: [pool(arm, mixedArch())] }));
    const placed = plan.nodeClaims.reduce((n, c) => n + c.pods.length, 0);
    expect(placed).toBe(2);
    expect(plan.nodeClaims.every((c) => claimValue(c, ARCH) === 'arm64')).toBe(true);
    expect(plan.unschedulable).toHaveLength(3);
  });
});

describe('the zone-ID topology key without zone IDs (no NodeClass subnets known)', () => {
  it('says so instead of blaming the counts', () => {
    const p: Pod = pod({ labels: web, requests: { cpu: '1' }, affinity: anti('topology.k8s.aws/zone-id') });
    const plan = schedule(input({ pods: [p], pools: [pool(nodePool())] }));
    expect(plan.nodeClaims).toEqual([]);
    expect(plan.unschedulable[0].reason).toMatch(
      /topology\.k8s\.aws\/zone-id" has no value on a new node: the zone IDs are not known/,
    );
  });
});
