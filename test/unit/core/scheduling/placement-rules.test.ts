/**
 * The kube-scheduler's placement rules the plan follows: PodTopologySpread node inclusion
 * policies (nodeAffinityPolicy, nodeTaintsPolicy, with their defaults), NodePorts (hostPort,
 * hostIP, protocol), and NodeResourcesFit's pod requests (sidecars, init containers, pod-level
 * resources, overhead).
 */
import { describe, expect, it } from 'vitest';
import type { Pod, TopologySpreadConstraint } from '../../../../functions/core/model/kube-objects.js';
import { podRequests } from '../../../../functions/core/scheduling/pod-requests.js';
import { schedule } from '../../../../functions/core/scheduling/schedule.js';
import { nodePool } from '../../../builders/config.js';
import { daemonSet, pod } from '../../../builders/workloads.js';
import { existing, input, pool } from './fixtures.js';

const HOST = 'kubernetes.io/hostname';
const ZONE = 'topology.kubernetes.io/zone';
const TAINT = { key: 'dedicated', value: 'x', effect: 'NoSchedule' as const };

function spread(key: string, extra: Partial<TopologySpreadConstraint> = {}): TopologySpreadConstraint[] {
  return [
    {
      maxSkew: 1,
      topologyKey: key,
      whenUnsatisfiable: 'DoNotSchedule',
      labelSelector: { matchLabels: { app: 'w' } },
      ...extra,
    },
  ];
}

const running = (name: string, node: string): Pod =>
  pod({ name, nodeName: node, labels: { app: 'w' }, requests: { cpu: '100m' } });

describe('topology spread: node inclusion policies', () => {
  // n1 (team=x) is empty, n2 (team=y) already runs one pod of the app.
  const nodes = [
    existing('n1', { labels: { team: 'x' } }),
    existing('n2', { labels: { team: 'y' }, pods: [running('old', 'n2')] }),
  ];
  const pending = (extra: Partial<TopologySpreadConstraint> = {}) =>
    pod({
      name: 'new',
      labels: { app: 'w' },
      requests: { cpu: '100m' },
      nodeSelector: { team: 'y' },
      topologySpreadConstraints: spread(HOST, extra),
    });

  it('nodeAffinityPolicy defaults to Honor: nodes the pod cannot use are not domains', () => {
    const plan = schedule(input({ pods: [pending()], nodes }));
    expect(plan.unschedulable).toEqual([]);
    expect(plan.existingPlacements).toEqual([{ node: 'n2', pods: ['default/new'] }]);
  });

  it('nodeAffinityPolicy Ignore counts every node (the empty n1 makes the skew 2 on n2)', () => {
    const plan = schedule(input({ pods: [pending({ nodeAffinityPolicy: 'Ignore' })], nodes }));
    expect(plan.existingPlacements).toEqual([]);
    expect(plan.unschedulable[0].reason).toMatch(/topology spread hostname/);
  });

  it('Honor does not count pods on nodes outside the pod affinity (new claims spread over every zone)', () => {
    // Two pods of the app run on a team=x node in zone-a; the new pods need team=y nodes.
    const other = existing('x-a', {
      labels: { team: 'x', [ZONE]: 'zone-a' },
      pods: [running('o1', 'x-a'), running('o2', 'x-a')],
    });
    const pods = (extra: Partial<TopologySpreadConstraint>) =>
      [1, 2, 3].map((i) =>
        pod({
          name: `p${i}`,
          labels: { app: 'w' },
          requests: { cpu: '1' },
          nodeSelector: { team: 'y' },
          topologySpreadConstraints: spread(ZONE, extra),
        }),
      );
    const pools = [pool(nodePool({ labels: { team: 'y' } }))];
    const zones = (extra: Partial<TopologySpreadConstraint>) =>
      schedule(input({ pods: pods(extra), nodes: [other], pools }))
        .nodeClaims.map((c) => c.labels[ZONE])
        .sort();
    expect(zones({})).toEqual(['zone-a', 'zone-b', 'zone-c']);
    expect(zones({ nodeAffinityPolicy: 'Ignore' })).not.toContain('zone-a');
  });

  describe('nodeTaintsPolicy', () => {
    // t1 is tainted and empty, n2 runs one pod of the app.
    const tainted = [existing('t1', { taints: [TAINT] }), existing('n2', { pods: [running('old', 'n2')] })];
    const p = (extra: Partial<TopologySpreadConstraint> = {}) =>
      pod({
        name: 'new',
        labels: { app: 'w' },
        requests: { cpu: '100m' },
        topologySpreadConstraints: spread(HOST, extra),
      });

    it('defaults to Ignore: the tainted empty node is a domain, so n2 would exceed maxSkew', () => {
      const plan = schedule(input({ pods: [p()], nodes: tainted }));
      expect(plan.existingPlacements).toEqual([]);
      expect(plan.unschedulable).toHaveLength(1);
    });

    it('Honor leaves out nodes whose taints the pod does not tolerate', () => {
      const plan = schedule(input({ pods: [p({ nodeTaintsPolicy: 'Honor' })], nodes: tainted }));
      expect(plan.existingPlacements).toEqual([{ node: 'n2', pods: ['default/new'] }]);
    });

    it('Honor leaves out the zones only a NodePool with untolerated taints brings', () => {
      // zone-a and zone-b each run one pod of the app; zone-c only comes from a tainted pool.
      const nodesAB = [
        existing('a1', { labels: { [ZONE]: 'zone-a' }, pods: [running('o1', 'a1')] }),
        existing('b1', { labels: { [ZONE]: 'zone-b' }, pods: [running('o2', 'b1')] }),
      ];
      const pools = [
        pool(
          nodePool({
            name: 'open',
            requirements: [{ key: ZONE, operator: 'In', values: ['zone-a', 'zone-b'] }],
          }),
        ),
        pool(
          nodePool({
            name: 'tainted',
            taints: [TAINT],
            requirements: [{ key: ZONE, operator: 'In', values: ['zone-c'] }],
          }),
        ),
      ];
      const zoneSpread = (extra: Partial<TopologySpreadConstraint>) =>
        pod({
          name: 'new',
          labels: { app: 'w' },
          requests: { cpu: '100m' },
          topologySpreadConstraints: spread(ZONE, extra),
        });
      // Ignore (default): empty zone-c is the minimum, the pod must go there, and cannot.
      expect(schedule(input({ pods: [zoneSpread({})], nodes: nodesAB, pools })).unschedulable).toHaveLength(
        1,
      );
      const honor = schedule(
        input({ pods: [zoneSpread({ nodeTaintsPolicy: 'Honor' })], nodes: nodesAB, pools }),
      );
      expect(honor.unschedulable).toEqual([]);
      expect(honor.existingPlacements.map((p) => p.node)).toEqual(['a1']);
    });

    it('Honor keeps a tainted node the pod tolerates', () => {
      const tolerating = p({ nodeTaintsPolicy: 'Honor' });
      tolerating.spec.tolerations = [{ key: 'dedicated', operator: 'Exists' }];
      const plan = schedule(input({ pods: [tolerating], nodes: tainted }));
      expect(plan.existingPlacements).toEqual([{ node: 't1', pods: ['default/new'] }]);
    });
  });
});

function withPorts(
  name: string,
  ports: { hostPort: number; hostIP?: string; protocol?: 'TCP' | 'UDP' }[],
): Pod {
  const p = pod({ name, requests: { cpu: '100m' } });
  p.spec.containers[0].ports = ports.map((x) => ({ containerPort: x.hostPort, ...x }));
  return p;
}

describe('host ports (NodePorts)', () => {
  const pools = [pool(nodePool())];
  const claimsFor = (pods: Pod[]) => schedule(input({ pods, pools })).nodeClaims.length;

  it('two pods with the same hostPort (protocol TCP and hostIP 0.0.0.0 by default) need two nodes', () => {
    expect(claimsFor([withPorts('a', [{ hostPort: 8080 }]), withPorts('b', [{ hostPort: 8080 }])])).toBe(2);
    expect(
      claimsFor([
        withPorts('a', [{ hostPort: 8080, protocol: 'TCP', hostIP: '0.0.0.0' }]),
        withPorts('b', [{ hostPort: 8080 }]),
      ]),
    ).toBe(2);
  });

  it('another protocol or another specific host IP does not conflict', () => {
    expect(
      claimsFor([withPorts('a', [{ hostPort: 53, protocol: 'UDP' }]), withPorts('b', [{ hostPort: 53 }])]),
    ).toBe(1);
    expect(
      claimsFor([
        withPorts('a', [{ hostPort: 80, hostIP: '10.0.0.1' }]),
        withPorts('b', [{ hostPort: 80, hostIP: '10.0.0.2' }]),
      ]),
    ).toBe(1);
  });

  it('0.0.0.0 conflicts with any host IP of the same port and protocol', () => {
    expect(
      claimsFor([withPorts('a', [{ hostPort: 80, hostIP: '10.0.0.1' }]), withPorts('b', [{ hostPort: 80 }])]),
    ).toBe(2);
    expect(
      claimsFor([withPorts('a', [{ hostPort: 80 }]), withPorts('b', [{ hostPort: 80, hostIP: '10.0.0.1' }])]),
    ).toBe(2);
  });

  it('a port without hostPort, or only in an init container, reserves nothing', () => {
    const plain = pod({ name: 'a', requests: { cpu: '100m' } });
    plain.spec.containers[0].ports = [{ containerPort: 8080 }];
    const init = pod({ name: 'b', requests: { cpu: '100m' }, initRequests: { cpu: '100m' } });
    init.spec.initContainers![0].ports = [{ containerPort: 8080, hostPort: 8080 }];
    expect(claimsFor([plain, init, withPorts('c', [{ hostPort: 8080 }])])).toBe(1);
  });

  it('a port bound on an existing node keeps the pod off that node, with the kube-scheduler reason', () => {
    const bound = withPorts('old', [{ hostPort: 9000 }]);
    bound.spec.nodeName = 'n1';
    const plan = schedule(
      input({ pods: [withPorts('new', [{ hostPort: 9000 }])], nodes: [existing('n1', { pods: [bound] })] }),
    );
    expect(plan.unschedulable[0].reason).toMatch(/didn't have free ports for the requested pod ports/);
    const ok = schedule(
      input({ pods: [withPorts('new', [{ hostPort: 9001 }])], nodes: [existing('n1', { pods: [bound] })] }),
    );
    expect(ok.existingPlacements).toEqual([{ node: 'n1', pods: ['default/new'] }]);
  });

  it("a daemonset's host port is taken on every new node of the pools it runs in", () => {
    const ds = daemonSet({ name: 'exporter', requests: { cpu: '50m' } });
    ds.spec.template.spec.containers[0].ports = [{ containerPort: 9100, hostPort: 9100 }];
    const plan = schedule(input({ pods: [withPorts('p', [{ hostPort: 9100 }])], pools, daemonSets: [ds] }));
    expect(plan.nodeClaims).toEqual([]);
    expect(plan.unschedulable[0].reason).toMatch(/host port 0\.0\.0\.0:9100\/TCP is taken/);
  });
});

describe('pod requests (NodeResourcesFit)', () => {
  const base = (spec: Partial<Pod['spec']>): Pod => {
    const p = pod({ name: 'r', requests: { cpu: '1', memory: '1Gi' } });
    Object.assign(p.spec, spec);
    return p;
  };

  it('sidecars (restartPolicy Always) add to the containers; a plain init container counts with the sidecars started before it', () => {
    const p = base({
      initContainers: [
        { name: 'plain-1', resources: { requests: { cpu: '3' } } },
        {
          name: 'sidecar',
          restartPolicy: 'Always',
          resources: { requests: { cpu: '500m', memory: '256Mi' } },
        },
        { name: 'plain-2', resources: { requests: { cpu: '2' } } },
      ],
    });
    const r = podRequests(p);
    // containers 1 + sidecar 0.5 = 1.5; plain-1 alone 3; plain-2 with the sidecar 2.5 -> max 3.
    expect(r.cpu).toBe(3000);
    expect(r.memory).toBe(1024 * 2 ** 20 + 256 * 2 ** 20);
    const small = base({
      initContainers: [
        { name: 'sidecar', restartPolicy: 'Always', resources: { requests: { cpu: '500m' } } },
        { name: 'plain', resources: { requests: { cpu: '1' } } },
      ],
    });
    // plain with the sidecar 1.5 = containers 1 + sidecar 0.5.
    expect(podRequests(small).cpu).toBe(1500);
  });

  it('init containers take the largest, not the sum', () => {
    const p = base({
      initContainers: [
        { name: 'a', resources: { requests: { cpu: '2' } } },
        { name: 'b', resources: { requests: { cpu: '2' } } },
      ],
    });
    expect(podRequests(p).cpu).toBe(2000);
  });

  it('pod-level resources replace the containers for cpu and memory; limits default the requests; overhead adds', () => {
    expect(podRequests(base({ resources: { requests: { cpu: '4' } } })).cpu).toBe(4000);
    expect(podRequests(base({ resources: { requests: { cpu: '4' } } })).memory).toBe(2 ** 30);
    expect(podRequests(base({ resources: { limits: { memory: '3Gi' } } })).memory).toBe(3 * 2 ** 30);
    expect(
      podRequests(base({ resources: { requests: { 'ephemeral-storage': '9Gi' } } }))['ephemeral-storage'],
    ).toBe(undefined);
    const withOverhead = base({
      resources: { requests: { cpu: '2' } },
      overhead: { cpu: '250m', memory: '120Mi' },
    });
    expect(podRequests(withOverhead).cpu).toBe(2250);
    expect(podRequests(withOverhead).memory).toBe(2 ** 30 + 120 * 2 ** 20);
  });

  it('a pod-level request decides the node size in the plan', () => {
    const p = base({ resources: { requests: { cpu: '7' } } });
    const plan = schedule(input({ pods: [p], pools: [pool(nodePool())] }));
    expect(plan.nodeClaims[0].requests.cpu).toBeGreaterThanOrEqual(7000);
  });

  it('a bad pod-level or overhead quantity names the field', () => {
    expect(() => podRequests(base({ resources: { requests: { cpu: 'lots' } } }))).toThrow(
      /spec\.resources cpu/,
    );
    expect(() => podRequests(base({ overhead: { memory: 'x' } }))).toThrow(/spec\.overhead memory/);
    const plan = schedule(
      input({ pods: [base({ resources: { requests: { cpu: 'lots' } } })], pools: [pool(nodePool())] }),
    );
    expect(plan.unschedulable[0].reason).toMatch(/invalid pod: .*spec\.resources cpu/);
  });
});

describe('volumes not bound yet (VolumeBinding: WaitForFirstConsumer and allowedTopologies)', () => {
  const EBS_ZONE = 'topology.ebs.csi.aws.com/zone';
  const sc = (
    name: string,
    terms?: { key: string; values: string[] }[][],
    extra: Record<string, unknown> = {},
  ) => ({
    metadata: { name, ...extra },
    provisioner: 'ebs.csi.aws.com',
    volumeBindingMode: 'WaitForFirstConsumer' as const,
    ...(terms ? { allowedTopologies: terms.map((t) => ({ matchLabelExpressions: t })) } : {}),
  });
  const pvc = (name: string, storageClassName?: string | null) => ({
    metadata: { name, namespace: 'default' },
    spec: { accessModes: ['ReadWriteOnce'], ...(storageClassName === undefined ? {} : { storageClassName }) },
  });
  const withClaim = (name: string, claim: string) =>
    pod({
      name,
      requests: { cpu: '1' },
      volumes: [{ name: 'data', persistentVolumeClaim: { claimName: claim } }],
    });
  const zonesOf = (o: Partial<Parameters<typeof input>[0]> & { pods: Pod[] }) =>
    schedule(input({ pools: [pool(nodePool())], ...o })).nodeClaims.map((c) => c.labels[ZONE]);

  it('the EBS CSI topology key restricts the zone of the new node', () => {
    expect(
      zonesOf({
        pods: [withClaim('p', 'data')],
        persistentVolumeClaims: [pvc('data', 'gp3')],
        storageClasses: [sc('gp3', [[{ key: EBS_ZONE, values: ['zone-b'] }]])],
      }),
    ).toEqual(['zone-b']);
  });

  it('the well-known zone key works too, and any of several terms will do (the first for a new node)', () => {
    const classes = [sc('gp3', [[{ key: ZONE, values: ['zone-c'] }], [{ key: ZONE, values: ['zone-a'] }]])];
    expect(
      zonesOf({
        pods: [withClaim('p', 'data')],
        persistentVolumeClaims: [pvc('data', 'gp3')],
        storageClasses: classes,
      }),
    ).toEqual(['zone-c']);
    // An existing node in zone-a (the second term) takes the pod.
    const plan = schedule(
      input({
        pods: [withClaim('p', 'data')],
        nodes: [existing('n-a', { labels: { [ZONE]: 'zone-a' } })],
        persistentVolumeClaims: [pvc('data', 'gp3')],
        storageClasses: classes,
      }),
    );
    expect(plan.existingPlacements).toEqual([{ node: 'n-a', pods: ['default/p'] }]);
  });

  it('a class without allowedTopologies leaves the zone free', () => {
    const free = { persistentVolumeClaims: [pvc('data', 'open')], storageClasses: [sc('open')] };
    // One claim, its zone left to the launch (not pinned).
    expect(zonesOf({ pods: [withClaim('p', 'data')], ...free })).toEqual([undefined]);
  });

  it('a missing claim, or an unbound one without a usable StorageClass, leaves the pod pending (Karpenter)', () => {
    const reasonOf = (o: Partial<Parameters<typeof input>[0]>) => {
      const plan = schedule(
        input({
          pods: [withClaim('p', 'data')],
          pools: [pool(nodePool())],
          nodes: [existing('n-c', { labels: { [ZONE]: 'zone-c' } })],
          ...o,
        }),
      );
      expect(plan.nodeClaims).toEqual([]);
      expect(plan.existingPlacements).toEqual([]);
      return plan.unschedulable.map((u) => u.reason);
    };
    const gp3 = sc('gp3', [[{ key: ZONE, values: ['zone-a'] }]], {
      annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' },
    });
    expect(reasonOf({ storageClasses: [gp3] })).toEqual([
      expect.stringContaining('persistentvolumeclaim "data" not found'),
    ]);
    expect(reasonOf({ persistentVolumeClaims: [pvc('data', '')], storageClasses: [gp3] })).toEqual([
      expect.stringContaining('unbound persistentvolumeclaim "data" must define a storage class'),
    ]);
    expect(reasonOf({ persistentVolumeClaims: [pvc('data', 'gone')], storageClasses: [gp3] })).toEqual([
      expect.stringContaining('storageclass "gone" not found'),
    ]);
    // No class name and no default class: nothing provisions the volume.
    expect(reasonOf({ persistentVolumeClaims: [pvc('data')] })).toEqual([
      expect.stringContaining('must define a storage class'),
    ]);
    const bound = { ...pvc('data', 'gp3'), spec: { ...pvc('data', 'gp3').spec, volumeName: 'pv-lost' } };
    expect(reasonOf({ persistentVolumeClaims: [bound], storageClasses: [gp3] })).toEqual([
      expect.stringContaining('persistentvolume "pv-lost" not found'),
    ]);
  });

  it('a claim without a class name uses the default StorageClass', () => {
    const def = sc('gp3', [[{ key: EBS_ZONE, values: ['zone-c'] }]], {
      annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' },
    });
    expect(
      zonesOf({
        pods: [withClaim('p', 'data')],
        persistentVolumeClaims: [pvc('data')],
        storageClasses: [def],
      }),
    ).toEqual(['zone-c']);
  });

  it('a generic ephemeral volume uses its claim template class (or its claim once created)', () => {
    const eph = pod({
      name: 'e',
      requests: { cpu: '1' },
      volumes: [
        { name: 'scratch', ephemeral: { volumeClaimTemplate: { spec: { storageClassName: 'gp3' } } } },
      ],
    });
    const classes = [sc('gp3', [[{ key: EBS_ZONE, values: ['zone-b'] }]])];
    expect(zonesOf({ pods: [eph], storageClasses: classes })).toEqual(['zone-b']);
    const bound = {
      metadata: { name: 'pv-e' },
      spec: {
        claimRef: { namespace: 'default', name: 'e-scratch' },
        nodeAffinity: {
          required: {
            nodeSelectorTerms: [
              { matchExpressions: [{ key: EBS_ZONE, operator: 'In' as const, values: ['zone-a'] }] },
            ],
          },
        },
      },
    };
    expect(
      zonesOf({
        pods: [eph],
        storageClasses: classes,
        persistentVolumeClaims: [pvc('e-scratch', 'gp3')],
        persistentVolumes: [bound],
      }),
    ).toEqual(['zone-a']);
  });

  it('two claims whose classes allow no common zone make the pod unschedulable', () => {
    const p = pod({
      name: 'two',
      requests: { cpu: '1' },
      volumes: [
        { name: 'a', persistentVolumeClaim: { claimName: 'a' } },
        { name: 'b', persistentVolumeClaim: { claimName: 'b' } },
      ],
    });
    const plan = schedule(
      input({
        pods: [p],
        pools: [pool(nodePool())],
        persistentVolumeClaims: [pvc('a', 'in-a'), pvc('b', 'in-b')],
        storageClasses: [
          sc('in-a', [[{ key: ZONE, values: ['zone-a'] }]]),
          sc('in-b', [[{ key: ZONE, values: ['zone-b'] }]]),
        ],
      }),
    );
    expect(plan.nodeClaims).toEqual([]);
    expect(plan.unschedulable).toHaveLength(1);
  });
});

describe('host ports of in-flight nodeclaims', () => {
  it("counts the pool's daemonset ports on a claim whose node has not registered yet", () => {
    const ds = daemonSet({ name: 'exporter', requests: { cpu: '50m' } });
    ds.spec.template.spec.containers[0].ports = [{ containerPort: 9100, hostPort: 9100 }];
    const inFlight = [
      {
        name: 'default-abc',
        nodePool: 'default',
        labels: {},
        requirements: [],
        taints: [],
        allocatable: { cpu: 4000, memory: 16 * 2 ** 30, pods: 58 },
        pods: [],
      },
    ];
    const pools = [pool(nodePool())];
    const taken = schedule(
      input({ pods: [withPorts('p', [{ hostPort: 9100 }])], inFlight, daemonSets: [ds], pools }),
    );
    expect(taken.existingPlacements).toEqual([]);
    const free = schedule(
      input({ pods: [withPorts('p', [{ hostPort: 9101 }])], inFlight, daemonSets: [ds], pools }),
    );
    expect(free.existingPlacements).toEqual([{ node: 'default-abc', pods: ['default/p'] }]);
  });
});
