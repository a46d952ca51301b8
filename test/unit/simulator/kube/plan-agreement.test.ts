/**
 * The plan and the simulated kube-scheduler agree: the nodes joiner plans for pending pods, once
 * they exist (labels, taints and allocatable of the first option), take every one of those pods
 * when the simulated kube-scheduler binds them — for each placement rule the plan follows.
 */
import { describe, expect, it } from 'vitest';
import type { Pod, StorageClass } from '../../../../functions/core/model/kube-objects.js';
import { schedule } from '../../../../functions/core/scheduling/schedule.js';
import type { ExistingNode, ScheduleInput } from '../../../../functions/core/scheduling/types.js';
import { placeOnNodes } from '../../../../functions/simulator/kube/scheduler/kube-scheduler.js';
import { nodePool } from '../../../builders/config.js';
import { pod } from '../../../builders/workloads.js';
import { input, pool, smallCatalog } from '../../core/scheduling/fixtures.js';

const ZONE = 'topology.kubernetes.io/zone';
const CATALOG = smallCatalog();

/** The nodes the plan's claims become (first option), as the simulated kube-scheduler sees them. */
function nodesOf(data: ScheduleInput): ExistingNode[] {
  return schedule(data).nodeClaims.map((c) => {
    const o = c.instanceTypeOptions[0];
    const type = CATALOG.find((t) => t.name === o.instanceType)!;
    return {
      name: c.name,
      labels: {
        ...type.labels,
        ...c.labels,
        [ZONE]: o.zone,
        'karpenter.sh/capacity-type': o.capacityType,
        'kubernetes.io/hostname': c.name,
      },
      taints: c.taints,
      allocatable: type.allocatable,
      pods: [],
    };
  });
}

function agree(data: ScheduleInput): { nodes: number; bound: number } {
  const plan = schedule(data);
  expect(plan.unschedulable).toEqual([]);
  const nodes = nodesOf(data);
  const sim = placeOnNodes(data.pods, nodes, {
    pvs: data.persistentVolumes,
    pvcs: data.persistentVolumeClaims,
    classes: data.storageClasses ?? [],
  });
  expect(sim.unschedulable).toEqual([]);
  return { nodes: nodes.length, bound: sim.existingPlacements.reduce((n, p) => n + p.pods.length, 0) };
}

const base = (name: string, extra: Partial<Pod['spec']> = {}, labels: Record<string, string> = {}): Pod => {
  const p = pod({ name, labels, requests: { cpu: '500m', memory: '512Mi' } });
  Object.assign(p.spec, extra);
  return p;
};

describe('plan and simulated kube-scheduler agree', () => {
  it('host ports: pods with the same port each get a node the kube-scheduler binds them to', () => {
    const pods = [1, 2, 3].map((i) =>
      base(`p${i}`, {
        containers: [
          {
            name: 'app',
            resources: { requests: { cpu: '100m' } },
            ports: [{ containerPort: 80, hostPort: 80 }],
          },
        ],
      }),
    );
    expect(agree(input({ pods, pools: [pool(nodePool(), CATALOG)] }))).toEqual({ nodes: 3, bound: 3 });
  });

  it('pod-level resources, overhead and sidecars size the node the kube-scheduler fits them on', () => {
    const pods = [
      base('level', { resources: { requests: { cpu: '6', memory: '20Gi' } } }),
      base('overhead', { overhead: { cpu: '1', memory: '1Gi' } }),
      base('sidecar', {
        initContainers: [
          { name: 'mesh', restartPolicy: 'Always', resources: { requests: { cpu: '1500m', memory: '2Gi' } } },
          { name: 'setup', resources: { requests: { cpu: '3' } } },
        ],
      }),
    ];
    expect(agree(input({ pods, pools: [pool(nodePool(), CATALOG)] })).bound).toBe(3);
  });

  it('topology spread with a nodeSelector and a taint policy: the planned zones satisfy the kube-scheduler', () => {
    const pods = [1, 2, 3, 4, 5, 6].map((i) =>
      base(
        `s${i}`,
        {
          nodeSelector: { team: 'y' },
          tolerations: [{ key: 'team', operator: 'Exists' }],
          topologySpreadConstraints: [
            {
              maxSkew: 1,
              topologyKey: ZONE,
              whenUnsatisfiable: 'DoNotSchedule',
              labelSelector: { matchLabels: { app: 's' } },
              nodeTaintsPolicy: 'Honor',
            },
          ],
        },
        { app: 's' },
      ),
    );
    const p = nodePool({
      labels: { team: 'y' },
      taints: [{ key: 'team', value: 'y', effect: 'NoSchedule' }],
    });
    expect(agree(input({ pods, pools: [pool(p, CATALOG)] })).bound).toBe(6);
  });

  it('a claim waiting for its first consumer: the planned zone is one the StorageClass allows', () => {
    const classes: StorageClass[] = [
      {
        metadata: { name: 'gp3' },
        provisioner: 'ebs.csi.aws.com',
        volumeBindingMode: 'WaitForFirstConsumer',
        allowedTopologies: [
          { matchLabelExpressions: [{ key: 'topology.ebs.csi.aws.com/zone', values: ['zone-c'] }] },
        ],
      },
    ];
    const data = input({
      pods: [base('v', { volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'd' } }] })],
      pools: [pool(nodePool(), CATALOG)],
      persistentVolumeClaims: [
        { metadata: { name: 'd', namespace: 'default' }, spec: { storageClassName: 'gp3' } },
      ],
      storageClasses: classes,
    });
    expect(nodesOf(data).map((n) => n.labels[ZONE])).toEqual(['zone-c']);
    expect(agree(data).bound).toBe(1);
  });
});
