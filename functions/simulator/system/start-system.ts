/**
 * The whole system in the simulated cloud, as `cdk deploy` leaves it in an account: joiner's
 * functions on the Lambda runner (webhook behind its function URL, provisioner, lifecycle,
 * interruption, disruption) and its manifests in the cluster (CRDs, RBAC, the webhook
 * configuration, and Karpenter's NodePool / EC2NodeClass / NodeOverlay CRDs, which the installer
 * adds where Karpenter is not installed) so users can `kubectl apply` the NodePools and
 * EC2NodeClasses they already have. `joiner sim up` runs it.
 */
import { bundledCatalog } from '../../core/catalog/bundled.js';
import type { Catalog } from '../../core/model/instance-type.js';
import { type SimulatedCloud, startSimulatedCloud } from '../cloud.js';
import { defaultTopology } from '../ec2/topology.js';
import type { DeniedCall } from '../iam/authorization/account-identity.js';
import { applyManifests } from '../scenario/cluster-manifests.js';
import { describeDenial } from '../scenario/iam-denials.js';
import { installJoinerHandlers, runInstaller } from '../scenario/joiner-handlers.js';
import type { Manifest } from '../scenario/load-scenario.js';
import { joinerInstallManifests, useSimulatorCredentials } from '../scenario/run-scenario.js';
import { deployedAccount } from '../stack/deployed-account.js';

/** Options of {@link startSystem}. */
export interface SystemOptions {
  readonly catalog?: Catalog;
  readonly seed?: number;
  /** Virtual seconds per wall second. Default 1. */
  readonly speed?: number;
  /** IAM roles (besides `<cluster>-node`) that EC2NodeClasses may name in `role`. */
  readonly nodeRoles?: readonly string[];
  /** Receives joiner's log lines (Karpenter-style), and a line for each call IAM refuses. */
  readonly onLog?: (line: string) => void;
  /**
   * Whether the account's IAM decides every AWS call, as the deployed stack's policies do
   * (default true). False is a debugging mode (`--no-iam`).
   */
  readonly iam?: boolean;
  /** An already synthesized stack (template file or `cdk synth -o DIR`) instead of synthesizing it. */
  readonly stackTemplate?: string;
}

/** The cluster `sim up` simulates. */
const CLUSTER_NAME = 'joiner-sim';
/** How often (wall time) `sim up` looks for newly refused calls to log. */
const DENIAL_POLL_MS = 1000;

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
  const region = options.catalog?.region ?? bundledCatalog.region;
  const accountId = defaultTopology(CLUSTER_NAME, region).accountId;
  // The roles given with --node-role are in the stack's joiner:nodeRoleArns, as a user's cdk.json says.
  const nodeRoleArns = (options.nodeRoles ?? []).map((name) => `arn:aws:iam::${accountId}:role/${name}`);
  let virtualNow = (): number => Date.now();
  const account =
    options.iam === false
      ? undefined
      : await deployedAccount({
          clusterName: CLUSTER_NAME,
          region,
          nodeRoleArns,
          stackTemplate: options.stackTemplate,
          clock: () => virtualNow(),
        });
  const cloud = await startSimulatedCloud({
    clusterName: CLUSTER_NAME,
    account,
    ...(account ? { nodeRoleArns } : {}),
    catalog: options.catalog,
    seed: options.seed,
    autoAdvance: options.speed ?? 1,
    nodeRoles: options.nodeRoles,
    anonymousAuth: true,
    // Ages kubectl prints are against the wall clock: virtual time starts now.
    clockStartMs: Date.now(),
  });
  virtualNow = () => cloud.clock.now();
  const stopLogging =
    account && options.onLog ? logDenials(cloud, () => account.denials(), options.onLog) : () => undefined;
  const system: SimulatedCloud = {
    ...cloud,
    close: async () => {
      stopLogging();
      await cloud.close();
    },
  };
  try {
    useSimulatorCredentials();
    const sink = options.onLog ?? (() => undefined);
    await installJoinerHandlers(cloud, sink);
    await applyManifests(cloud.kube.store, ANONYMOUS_ADMIN);
    // The installer custom resource, run with its own role as the deployment runs it.
    await runInstaller(cloud, joinerInstallManifests(cloud), sink);
    return system;
  } catch (error) {
    await system.close();
    throw error;
  }
}

/**
 * Logs each call IAM refuses (a new kind, or more of one already logged) while the cloud runs;
 * returns what stops it.
 */
function logDenials(
  cloud: SimulatedCloud,
  denials: () => readonly DeniedCall[],
  log: (line: string) => void,
): () => void {
  const logged = new Map<string, number>();
  const timer = setInterval(() => {
    for (const d of denials()) {
      const key = `${d.action} ${d.resource} ${d.role}`;
      if ((logged.get(key) ?? 0) >= d.count) continue;
      logged.set(key, d.count);
      const at = new Date(cloud.clock.now()).toISOString();
      log(
        JSON.stringify({
          level: 'ERROR',
          time: at,
          logger: 'iam',
          message: `IAM denied ${describeDenial(d)}`,
        }),
      );
    }
  }, DENIAL_POLL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
