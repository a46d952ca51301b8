import { describe, expect, it } from 'vitest';
import { schedule } from '../../../../functions/core/scheduling/schedule.js';
import { nodePool } from '../../../builders/config.js';
import { daemonSet, pod, pods } from '../../../builders/workloads.js';
import { existing, input, instanceType, pool, smallCatalog } from './fixtures.js';

const ZONE = 'topology.kubernetes.io/zone';

describe('schedule: new nodeclaims', () => {
  it('packs pods into the cheapest options and ranks options cheapest first', () => {
    const plan = schedule(
      input({ pods: pods(3, 'web', { requests: { cpu: '1', memory: '1Gi' } }), pools: [pool(nodePool())] }),
    );
    expect(plan.unschedulable).toEqual([]);
    expect(plan.nodeClaims).toHaveLength(1);
    const claim = plan.nodeClaims[0];
    expect(claim.name).toBe('default-1');
    expect(claim.pods).toEqual(['default/web-1', 'default/web-2', 'default/web-3']);
    const spot = claim.instanceTypeOptions.filter((o) => o.capacityType === 'spot');
    const prices = spot.map((o) => o.price);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    expect(claim.instanceTypeOptions.slice(0, spot.length)).toEqual(spot);
    expect(claim.instanceTypeOptions[0].instanceType).toBe('c.xlarge');
  });

  it('uses on-demand when the pool only allows on-demand', () => {
    const p = nodePool({
      requirements: [{ key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] }],
    });
    const plan = schedule(input({ pods: [pod({ requests: { cpu: '1' } })], pools: [pool(p)] }));
    expect(plan.nodeClaims[0].instanceTypeOptions.every((o) => o.capacityType === 'on-demand')).toBe(true);
    expect(plan.nodeClaims[0].labels['karpenter.sh/capacity-type']).toBe('on-demand');
  });

  it('counts init containers (max of init vs sum) and pod overhead', () => {
    const big = pod({ name: 'init', requests: { cpu: '1' }, initRequests: { cpu: '7' } });
    const plan = schedule(input({ pods: [big], pools: [pool(nodePool())] }));
    expect(plan.nodeClaims[0].requests.cpu).toBe(7000);
    const withOverhead = pod({ name: 'o', requests: { cpu: '1' }, overhead: { cpu: '250m' } });
    expect(
      schedule(input({ pods: [withOverhead], pools: [pool(nodePool())] })).nodeClaims[0].requests.cpu,
    ).toBe(1250);
  });

  it('adds the overhead of daemonsets that tolerate the pool, not of those that do not', () => {
    const p = nodePool({ taints: [{ key: 'dedicated', value: 'x', effect: 'NoSchedule' }] });
    const tolerating = pod({
      requests: { cpu: '1' },
      tolerations: [{ key: 'dedicated', operator: 'Exists' }],
    });
    const ds = [
      daemonSet({ name: 'everywhere', requests: { cpu: '500m' }, tolerations: [{ operator: 'Exists' }] }),
      daemonSet({ name: 'untainted-only', requests: { cpu: '2' } }),
    ];
    const plan = schedule(input({ pods: [tolerating], pools: [pool(p)], daemonSets: ds }));
    expect(plan.nodeClaims[0].requests.cpu).toBe(1500);
  });

  it('schedules extended resources only on types that have them', () => {
    const types = [...smallCatalog(), instanceType('g.xlarge', 4, 16, 0.5, { gpus: 1 })];
    const plan = schedule(
      input({
        pods: [pod({ requests: { cpu: '1' }, limits: { 'nvidia.com/gpu': 1 } })],
        pools: [pool(nodePool(), types)],
      }),
    );
    expect(new Set(plan.nodeClaims[0].instanceTypeOptions.map((o) => o.instanceType))).toEqual(
      new Set(['g.xlarge']),
    );
  });

  it('honours nodeSelector, node affinity and pool requirements with Gt/Lt', () => {
    const p = nodePool({
      requirements: [{ key: 'karpenter.k8s.aws/instance-cpu', operator: 'Gt', values: ['2'] }],
    });
    const selected = pod({
      requests: { cpu: '1' },
      nodeSelector: { 'karpenter.k8s.aws/instance-family': 'r' },
    });
    const plan = schedule(input({ pods: [selected], pools: [pool(p)] }));
    expect(new Set(plan.nodeClaims[0].instanceTypeOptions.map((o) => o.instanceType))).toEqual(
      new Set(['r.xlarge']),
    );
  });

  it('tries the heavier pool first and falls back to the next', () => {
    const heavy = nodePool({
      name: 'heavy',
      weight: 10,
      requirements: [{ key: 'kubernetes.io/arch', operator: 'In', values: ['arm64'] }],
    });
    const light = nodePool({ name: 'light' });
    const types = [...smallCatalog(), instanceType('m6g.large', 2, 8, 0.077, { arch: 'arm64' })];
    const plan = schedule(
      input({ pods: [pod({ requests: { cpu: '1' } })], pools: [pool(light, types), pool(heavy, types)] }),
    );
    expect(plan.nodeClaims[0].nodePool).toBe('heavy');
    const big = schedule(
      input({ pods: [pod({ requests: { cpu: '3' } })], pools: [pool(light, types), pool(heavy, types)] }),
    );
    expect(big.nodeClaims[0].nodePool).toBe('light');
  });

  it('never exceeds a pool cpu limit, counting existing nodes of the pool', () => {
    const p = nodePool({ limits: { cpu: 8000 } });
    const node = existing('n1', {
      nodePool: 'default',
      allocatable: { cpu: 4000, memory: 2 ** 34, pods: 110 },
      taints: [{ key: 'full', effect: 'NoSchedule' }],
    });
    const plan = schedule(
      input({ pods: pods(6, 'p', { requests: { cpu: '1500m' } }), nodes: [node], pools: [pool(p)] }),
    );
    const cpu = plan.nodeClaims.reduce(
      (s, c) =>
        s +
        Number(
          c.instanceTypeOptions[0].instanceType.includes('2xlarge')
            ? 8000
            : c.instanceTypeOptions[0].instanceType.includes('xlarge')
              ? 4000
              : 2000,
        ),
      0,
    );
    expect(cpu + 4000).toBeLessThanOrEqual(8000);
    expect(plan.unschedulable.length).toBeGreaterThan(0);
    expect(plan.unschedulable[0].reason).toMatch(/cpu limit 8000/);
  });

  it('ignores startup taints for placement and reports them on the claim', () => {
    const p = nodePool({ startupTaints: [{ key: 'multus/not-ready', effect: 'NoSchedule' }] });
    const plan = schedule(input({ pods: [pod({ requests: { cpu: '1' } })], pools: [pool(p)] }));
    expect(plan.nodeClaims[0].startupTaints).toEqual([{ key: 'multus/not-ready', effect: 'NoSchedule' }]);
  });

  it('is deterministic', () => {
    const make = () =>
      input({ pods: pods(40, 'x', { requests: { cpu: '700m', memory: '3Gi' } }), pools: [pool(nodePool())] });
    expect(schedule(make())).toEqual(schedule(make()));
  });
});

describe('schedule: topology', () => {
  const spread = (key: string) => ({
    maxSkew: 1,
    topologyKey: key,
    whenUnsatisfiable: 'DoNotSchedule' as const,
    labelSelector: { matchLabels: { app: 'web' } },
  });

  it('spreads 3 replicas over three zones with maxSkew 1', () => {
    const replicas = pods(3, 'web', {
      labels: { app: 'web' },
      requests: { cpu: '100m' },
      topologySpreadConstraints: [spread(ZONE)],
    });
    const plan = schedule(input({ pods: replicas, pools: [pool(nodePool())] }));
    expect(plan.nodeClaims.map((c) => c.labels[ZONE]).sort()).toEqual(['zone-a', 'zone-b', 'zone-c']);
  });

  it('puts zonal anti-affine replicas in three zones and refuses a fourth', () => {
    const anti = {
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          { topologyKey: ZONE, labelSelector: { matchLabels: { app: 'web' } } },
        ],
      },
    };
    const replicas = pods(4, 'web', { labels: { app: 'web' }, requests: { cpu: '100m' }, affinity: anti });
    const plan = schedule(input({ pods: replicas, pools: [pool(nodePool())] }));
    expect(plan.nodeClaims.map((c) => c.labels[ZONE]).sort()).toEqual(['zone-a', 'zone-b', 'zone-c']);
    expect(plan.unschedulable).toHaveLength(1);
    expect(plan.unschedulable[0].reason).toMatch(/anti-affinity on zone/);
  });

  it('spreads on hostname: one pod per node with maxSkew 1', () => {
    const replicas = pods(4, 'web', {
      labels: { app: 'web' },
      requests: { cpu: '100m' },
      topologySpreadConstraints: [spread('kubernetes.io/hostname')],
    });
    const plan = schedule(input({ pods: replicas, pools: [pool(nodePool())] }));
    expect(plan.nodeClaims).toHaveLength(4);
  });

  it('counts existing pods: the zone that already has replicas gets none', () => {
    const running = pods(2, 'old', { labels: { app: 'web' }, nodeName: 'n1' });
    const node = existing('n1', {
      pods: running,
      labels: { [ZONE]: 'zone-a' },
      taints: [{ key: 'x', effect: 'NoSchedule' }],
    });
    const replicas = pods(2, 'web', {
      labels: { app: 'web' },
      requests: { cpu: '100m' },
      topologySpreadConstraints: [spread(ZONE)],
    });
    const plan = schedule(input({ pods: replicas, nodes: [node], pools: [pool(nodePool())] }));
    expect(plan.nodeClaims.map((c) => c.labels[ZONE]).sort()).toEqual(['zone-b', 'zone-c']);
  });

  it('co-locates pods with hostname affinity', () => {
    const aff = {
      podAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          { topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { app: 'db' } } },
        ],
      },
    };
    const db = pod({ name: 'db', labels: { app: 'db' }, requests: { cpu: '500m' } });
    const follower = pod({ name: 'cache', requests: { cpu: '3' }, affinity: aff });
    const plan = schedule(input({ pods: [follower, db], pools: [pool(nodePool())] }));
    expect(plan.nodeClaims).toHaveLength(1);
    expect([...plan.nodeClaims[0].pods].sort()).toEqual(['default/cache', 'default/db']);
  });

  it('pins the claim to the zone of a bound volume', () => {
    const pv = {
      metadata: { name: 'pv1' },
      spec: {
        claimRef: { namespace: 'default', name: 'data' },
        nodeAffinity: {
          required: {
            nodeSelectorTerms: [
              {
                matchExpressions: [
                  { key: 'topology.ebs.csi.aws.com/zone', operator: 'In' as const, values: ['zone-b'] },
                ],
              },
            ],
          },
        },
      },
    };
    const pvc = { metadata: { name: 'data', namespace: 'default' }, spec: { volumeName: 'pv1' } };
    const p = pod({
      requests: { cpu: '1' },
      volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }],
    });
    const plan = schedule(
      input({ pods: [p], persistentVolumes: [pv], persistentVolumeClaims: [pvc], pools: [pool(nodePool())] }),
    );
    expect(plan.nodeClaims[0].labels[ZONE]).toBe('zone-b');
  });

  it('relaxes a preferred node affinity that no pool can meet', () => {
    const pref = {
      nodeAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [
          {
            weight: 50,
            preference: {
              matchExpressions: [{ key: 'kubernetes.io/arch', operator: 'In' as const, values: ['arm64'] }],
            },
          },
        ],
      },
    };
    const plan = schedule(
      input({ pods: [pod({ requests: { cpu: '1' }, affinity: pref })], pools: [pool(nodePool())] }),
    );
    expect(plan.unschedulable).toEqual([]);
    expect(plan.nodeClaims).toHaveLength(1);
  });
});

describe('schedule: existing nodes (pools: [])', () => {
  it('places onto nodes with room, respecting capacity, taints and selectors', () => {
    const nodes = [
      existing('tainted', { taints: [{ key: 'gpu', value: 'true', effect: 'NoSchedule' }] }),
      existing('small', { allocatable: { cpu: 500, memory: 2 ** 33, pods: 110 } }),
      existing('ok', { labels: { disk: 'ssd' } }),
    ];
    const plan = schedule(
      input({ pods: [pod({ name: 'a', requests: { cpu: '1' }, nodeSelector: { disk: 'ssd' } })], nodes }),
    );
    expect(plan.existingPlacements).toEqual([{ node: 'ok', pods: ['default/a'] }]);
  });

  it('explains like the kube-scheduler when nothing fits', () => {
    const nodes = [
      existing('tainted', { taints: [{ key: 'gpu', value: 'true', effect: 'NoSchedule' }] }),
      existing('small', { allocatable: { cpu: 500, memory: 2 ** 33, pods: 110 } }),
    ];
    const plan = schedule(input({ pods: [pod({ name: 'a', requests: { cpu: '1' } })], nodes }));
    expect(plan.unschedulable[0].reason).toBe(
      '0/2 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint {gpu: true}',
    );
  });

  it('fills nodes before opening claims, and uses in-flight claims', () => {
    const inFlight = [
      {
        name: 'default-9',
        nodePool: 'default',
        labels: { [ZONE]: 'zone-a' },
        requirements: [],
        taints: [],
        allocatable: { cpu: 1900, memory: 2 ** 33, pods: 58 },
        pods: [],
      },
    ];
    const plan = schedule(
      input({ pods: pods(3, 'p', { requests: { cpu: '900m' } }), inFlight, pools: [pool(nodePool())] }),
    );
    expect(plan.existingPlacements).toEqual([{ node: 'default-9', pods: ['default/p-1', 'default/p-2'] }]);
    expect(plan.nodeClaims).toHaveLength(1);
  });
});

describe('schedule: bad input gives reasons, not exceptions', () => {
  it('reports a pool whose NodeClass is missing', () => {
    const plan = schedule(
      input({
        pods: [pod({ requests: { cpu: '1' } })],
        pools: [{ pool: nodePool(), instanceTypes: [], problem: 'nodeClassRef EC2NodeClass/nope not found' }],
      }),
    );
    expect(plan.unschedulable[0].reason).toMatch(/nodeClassRef EC2NodeClass\/nope not found/);
  });

  it('reports impossible requirements and zero instance types', () => {
    const p = nodePool({
      requirements: [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['does-not-exist'] }],
    });
    const plan = schedule(input({ pods: [pod({ requests: { cpu: '1' } })], pools: [pool(p)] }));
    expect(plan.unschedulable[0].reason).toMatch(/no instance type/);
    const conflict = pod({
      name: 'c',
      requests: { cpu: '1' },
      nodeSelector: { 'kubernetes.io/arch': 'sparc' },
    });
    expect(schedule(input({ pods: [conflict], pools: [pool(nodePool())] })).unschedulable[0].reason).toMatch(
      /nodepool default/,
    );
  });

  it('reports a taint no pool tolerates, an invalid quantity and a too-large pod', () => {
    const gpu = nodePool({ name: 'gpu', taints: [{ key: 'gpu', value: 'true', effect: 'NoSchedule' }] });
    const plan = schedule(
      input({
        pods: [
          pod({ name: 'a', requests: { cpu: '1' } }),
          pod({ name: 'b', requests: { cpu: 'lots' } }),
          pod({ name: 'c', requests: { cpu: '64' } }),
        ],
        pools: [pool(gpu)],
      }),
    );
    const reasons = Object.fromEntries(plan.unschedulable.map((u) => [u.pod, u.reason]));
    expect(reasons['default/a']).toBe('no NodePool tolerated by the pod: taint gpu=true:NoSchedule');
    expect(reasons['default/b']).toMatch(/invalid pod: .*resource cpu.*invalid quantity "lots"/);
    expect(
      schedule(input({ pods: [pod({ name: 'c', requests: { cpu: '64' } })], pools: [pool(nodePool())] }))
        .unschedulable[0].reason,
    ).toMatch(/enough cpu/);
  });
});
