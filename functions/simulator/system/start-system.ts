/**
 * The whole system in the simulated cloud, as `cdk deploy` leaves it in an account: joiner's
 * functions on the Lambda runner (webhook behind its function URL, provisioner, lifecycle,
 * interruption, disruption) and its manifests in the cluster (CRDs, RBAC, the webhook
 * configuration), plus the CustomResourceDefinitions of Karpenter's kinds so users can
 * `kubectl apply` the NodePools and EC2NodeClasses they already have. `joiner sim up` runs it.
 */
import type { Catalog } from '../../core/model/instance-type.js';
import { type SimulatedCloud, startSimulatedCloud } from '../cloud.js';
import { applyManifests, ensureKinds } from '../scenario/cluster-manifests.js';
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

/** Karpenter's kinds a user applies, served as Karpenter's chart would install them. */
const KARPENTER_KINDS: readonly Manifest[] = [
  { apiVersion: 'karpenter.sh/v1', kind: 'NodePool', metadata: { name: 'x' } },
  { apiVersion: 'karpenter.k8s.aws/v1', kind: 'EC2NodeClass', metadata: { name: 'x' } },
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
    await ensureKinds(cloud.kube.store, KARPENTER_KINDS);
    await applyManifests(cloud.kube.store, installManifests(cloud));
    return cloud;
  } catch (error) {
    await cloud.close();
    throw error;
  }
}
