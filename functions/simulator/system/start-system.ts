/**
 * The whole system in the simulated cloud, as `cdk deploy` leaves it in an account: joiner's
 * functions on the Lambda runner (webhook behind its function URL, provisioner, lifecycle,
 * interruption, disruption) and its manifests in the cluster (CRDs, RBAC, the webhook
 * configuration), plus the CustomResourceDefinitions of Karpenter's kinds so users can
 * `kubectl apply` the NodePools and EC2NodeClasses they already have. `joiner sim up` runs it.
 */
import type { Catalog } from '../../core/model/instance-type.js';
import { type SimulatedCloud, startSimulatedCloud } from '../cloud.js';
import { applyManifests } from '../scenario/cluster-manifests.js';
import { installJoinerHandlers } from '../scenario/joiner-handlers.js';
import type { Manifest } from '../scenario/load-scenario.js';
import { installManifests, useSimulatorCredentials } from '../scenario/run-scenario.js';

/** Options of {@link startSystem}. */
export interface SystemOptions {
  readonly catalog?: Catalog;
  readonly seed?: number;
  /** Virtual seconds per wall second. Default 1. */
  readonly speed?: number;
  /** IAM roles (besides `<cluster>-node`) that EC2NodeClasses may name in `role`. */
  readonly nodeRoles?: readonly string[];
  /** Receives joiner's log lines (Karpenter-style). */
  readonly onLog?: (line: string) => void;
}

const READY = '.status.conditions[?(@.type=="Ready")].status';

/**
 * Karpenter's NodePool and EC2NodeClass, served as Karpenter's chart installs them (with its
 * printer columns; the schema keeps every field, joiner validates the documents itself), so users
 * `kubectl apply` the YAML they already have.
 */
function karpenterCrd(
  group: string,
  kind: string,
  plural: string,
  columns: readonly Record<string, unknown>[],
): Manifest {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: 'Cluster',
      names: {
        plural,
        singular: kind.toLowerCase(),
        kind,
        listKind: `${kind}List`,
        categories: ['karpenter'],
      },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: { status: {} },
          additionalPrinterColumns: [
            ...columns,
            { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
          ],
          schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        },
      ],
    },
  };
}

const KARPENTER_CRDS: readonly Manifest[] = [
  karpenterCrd('karpenter.sh', 'NodePool', 'nodepools', [
    { name: 'NodeClass', type: 'string', jsonPath: '.spec.template.spec.nodeClassRef.name' },
    { name: 'Nodes', type: 'string', jsonPath: '.status.resources.nodes' },
    { name: 'Ready', type: 'string', jsonPath: READY },
    { name: 'Weight', type: 'integer', jsonPath: '.spec.weight', priority: 1 },
    { name: 'CPU', type: 'string', jsonPath: '.status.resources.cpu', priority: 1 },
    { name: 'Memory', type: 'string', jsonPath: '.status.resources.memory', priority: 1 },
  ]),
  karpenterCrd('karpenter.k8s.aws', 'EC2NodeClass', 'ec2nodeclasses', [
    { name: 'Ready', type: 'string', jsonPath: READY },
    { name: 'Role', type: 'string', jsonPath: '.spec.role', priority: 1 },
  ]),
];

/**
 * kubectl sends no credentials to a plain-HTTP API server, so the local cluster lets anonymous
 * requests act as an administrator: a `cluster-admin` ClusterRole bound to `system:anonymous`, as a
 * throwaway local cluster might be set up. joiner's functions keep their own identity and RBAC.
 */
const ANONYMOUS_ADMIN: readonly Manifest[] = [
  {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: 'cluster-admin' },
    rules: [
      { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
      { nonResourceURLs: ['*'], verbs: ['*'] },
    ],
  },
  {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: 'joiner-sim:anonymous-admin' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'system:anonymous' }],
  },
];

/** Starts the simulated cloud with joiner installed; close the cloud to stop everything. */
export async function startSystem(options: SystemOptions = {}): Promise<SimulatedCloud> {
  const cloud = await startSimulatedCloud({
    catalog: options.catalog,
    seed: options.seed,
    autoAdvance: options.speed ?? 1,
    nodeRoles: options.nodeRoles,
    anonymousAuth: true,
    // Ages kubectl prints are against the wall clock: virtual time starts now.
    clockStartMs: Date.now(),
  });
  try {
    useSimulatorCredentials();
    await installJoinerHandlers(cloud, options.onLog ?? (() => undefined));
    await applyManifests(cloud.kube.store, ANONYMOUS_ADMIN);
    await applyManifests(cloud.kube.store, KARPENTER_CRDS);
    await applyManifests(cloud.kube.store, installManifests(cloud));
    return cloud;
  } catch (error) {
    await cloud.close();
    throw error;
  }
}
