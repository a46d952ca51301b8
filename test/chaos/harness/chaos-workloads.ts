/** The chaos run's NodePool (spot and on-demand, a CPU limit) and its workloads behind PDBs. */
import type { Manifest } from '../../../functions/simulator/scenario/load-scenario.js';

/** The NodePool's CPU limit (vCPUs of its instances). */
export const CPU_LIMIT = 96;

/** The instance types the NodePool may launch (their offerings are where ICE strikes). */
export const INSTANCE_TYPES = [
  'c5.large',
  'c5.xlarge',
  'c5.2xlarge',
  'c6i.large',
  'c6i.xlarge',
  'c6i.2xlarge',
  'm5.large',
  'm5.xlarge',
  'm5.2xlarge',
  'm6i.large',
  'm6i.xlarge',
  'm6i.2xlarge',
];

export function chaosNodePool(): Manifest[] {
  return [
    {
      apiVersion: 'karpenter.sh/v1alpha5',
      kind: 'Provisioner',
      metadata: { name: 'default' },
      spec: {
        requirements: [
          { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['spot', 'on-demand'] },
          { key: 'node.kubernetes.io/instance-type', operator: 'In', values: INSTANCE_TYPES },
        ],
        limits: { resources: { cpu: CPU_LIMIT } },
        provider: {
          subnetSelector: { 'karpenter.sh/discovery': 'joiner-sim' },
          securityGroupSelector: { 'karpenter.sh/discovery': 'joiner-sim' },
        },
      },
    },
  ];
}

const SIZES = [
  { name: 'web', cpu: '500m', memory: '512Mi' },
  { name: 'api', cpu: '1', memory: '1Gi' },
  { name: 'batch', cpu: '2', memory: '2Gi' },
];

/** Three deployments of `replicas` pods, each behind a PDB allowing one pod down at a time. */
export function chaosWorkloads(replicas: number): Manifest[] {
  return SIZES.flatMap((size) => [
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: size.name, namespace: 'default' },
      spec: {
        replicas,
        selector: { matchLabels: { app: size.name } },
        template: {
          metadata: { labels: { app: size.name } },
          spec: {
            containers: [
              {
                name: 'app',
                image: 'pause',
                resources: { requests: { cpu: size.cpu, memory: size.memory } },
              },
            ],
          },
        },
      },
    },
    {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: size.name, namespace: 'default' },
      spec: { maxUnavailable: 1, selector: { matchLabels: { app: size.name } } },
    },
  ]);
}
