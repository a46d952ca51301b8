/**
 * joiner's NodeClaim custom resource (`nodeclaims.joiner.sh`): the cluster's view of a nodeclaim
 * whose truth is the DynamoDB item. It carries Karpenter's NodeClaim labels, spec and conditions
 * (Launched, Registered, Initialized, Ready, Drifted, Empty, Disrupting), so
 * `kubectl get nodeclaims.joiner.sh` reads like Karpenter's `kubectl get nodeclaims`.
 */
import { JOINER_API_GROUP } from '../install/kube-manifest.js';
import { TERMINATION_FINALIZER } from '../lifecycle/node-labels.js';
import { formatDuration } from '../model/config/duration.js';
import { formatBytes, formatCpu } from '../model/quantity.js';
import type { Resources } from '../model/resources.js';
import type { NodeClaim, NodeClaimState } from '../nodeclaim/nodeclaim.js';
import { type Condition, condition, rfc3339 } from './conditions.js';

/** The API version and kind of the resource. */
export const NODE_CLAIM_API_VERSION = `${JOINER_API_GROUP}/v1`;
export const NODE_CLAIM_KIND = 'NodeClaim';

/** The NodePool object a claim's resource is owned by (its uid makes the ownerReference). */
export interface NodePoolOwner {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly uid: string;
}

/** The resource as joiner writes it (what a GET returns, minus server-set metadata). */
export interface NodeClaimResource {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: {
    readonly name: string;
    readonly labels: Readonly<Record<string, string>>;
    readonly ownerReferences?: readonly Record<string, unknown>[];
    readonly finalizers?: readonly string[];
  };
  readonly spec: Record<string, unknown>;
  readonly status: { readonly conditions: readonly Condition[]; readonly [field: string]: unknown };
}

const ORDER: readonly NodeClaimState[] = [
  'Pending',
  'Launched',
  'Registered',
  'Initialized',
  'Draining',
  'Terminating',
  'Gone',
];
const reached = (claim: NodeClaim, state: NodeClaimState): boolean =>
  ORDER.indexOf(claim.state) >= ORDER.indexOf(state);

function quantities(resources: Readonly<Resources>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(resources)) {
    if (name === 'cpu') out[name] = formatCpu(value);
    else if (name === 'memory' || name === 'ephemeral-storage') out[name] = formatBytes(value);
    else out[name] = String(value);
  }
  return out;
}

function conditions(claim: NodeClaim): Condition[] {
  const at = (state: NodeClaimState): number => claim.timestamps[state] ?? claim.timestamps.Pending ?? 0;
  const created = claim.timestamps.Pending ?? 0;
  const stage = (type: string, state: NodeClaimState, waiting: string): Condition =>
    reached(claim, state)
      ? condition(type, 'True', type, '', at(state))
      : condition(type, 'Unknown', waiting, '', created);
  const launched =
    !reached(claim, 'Launched') && claim.failure
      ? condition('Launched', 'False', claim.failure.reason, claim.failure.message, created)
      : stage('Launched', 'Launched', 'AwaitingLaunch');
  const ready = claim.state === 'Initialized' || claim.state === 'Draining';
  // Retired before its node registered (EC2 terminated it during launch, a timeout): why.
  const neverRegistered =
    claim.failure && claim.timestamps.Launched !== undefined && claim.timestamps.Registered === undefined;
  const registered =
    neverRegistered && claim.failure && reached(claim, 'Terminating')
      ? condition('Registered', 'False', claim.failure.reason, claim.failure.message, at(claim.state))
      : stage('Registered', 'Registered', 'AwaitingRegistration');
  const out = [
    launched,
    registered,
    stage('Initialized', 'Initialized', 'AwaitingInitialization'),
    ready
      ? condition('Ready', 'True', 'Ready', '', at('Initialized'))
      : condition(
          'Ready',
          reached(claim, 'Terminating') ? 'False' : 'Unknown',
          claim.state,
          '',
          at(claim.state),
        ),
  ];
  const d = claim.disruption;
  if (d?.cause === 'drifted')
    out.push(condition('Drifted', 'True', d.reason ?? 'Drifted', d.message, d.startedAt));
  if (claim.timers.emptiness !== undefined)
    out.push(
      condition(
        'Empty',
        'True',
        'Empty',
        'no workload pods on the node',
        claim.lastPodRemovedAt ?? at(claim.state),
      ),
    );
  if (d) out.push(condition('Disrupting', 'True', d.reason ?? d.cause, d.message, d.startedAt));
  return out;
}

/** The resource of `claim`, owned by its NodePool when the owner is known. */
export function nodeClaimResource(claim: NodeClaim, owner?: NodePoolOwner): NodeClaimResource {
  const instance = claim.instance;
  const labels: Record<string, string> = {
    ...claim.labels,
    'karpenter.sh/nodepool': claim.nodePool,
    ...(instance
      ? {
          'node.kubernetes.io/instance-type': instance.instanceType,
          'karpenter.sh/capacity-type': instance.capacityType,
          'topology.kubernetes.io/zone': instance.zone,
        }
      : {}),
  };
  const status: Record<string, unknown> = {
    conditions: conditions(claim),
    ...(claim.nodeName ? { nodeName: claim.nodeName } : {}),
    ...(instance?.providerId ? { providerID: instance.providerId } : {}),
    ...(instance?.imageId ? { imageID: instance.imageId } : {}),
    ...(claim.failure
      ? { lastFailure: { reason: claim.failure.reason, message: claim.failure.message } }
      : {}),
    state: claim.state,
    ...(claim.timestamps.Pending !== undefined ? { createdAt: rfc3339(claim.timestamps.Pending) } : {}),
  };
  return {
    apiVersion: NODE_CLAIM_API_VERSION,
    kind: NODE_CLAIM_KIND,
    metadata: {
      name: claim.id,
      labels,
      ...(owner
        ? {
            ownerReferences: [
              {
                apiVersion: owner.apiVersion,
                kind: owner.kind,
                name: owner.name,
                uid: owner.uid,
                blockOwnerDeletion: false,
              },
            ],
          }
        : {}),
      // As Karpenter's: `kubectl delete nodeclaim` marks it, joiner drains and terminates, then removes it.
      finalizers: [TERMINATION_FINALIZER],
    },
    spec: {
      nodeClassRef: { name: claim.nodeClass },
      requirements: claim.requirements.map((r) => ({ ...r })),
      taints: claim.taints.map((t) => ({ ...t })),
      startupTaints: claim.startupTaints.map((t) => ({ ...t })),
      resources: { requests: quantities(claim.requests) },
      ...(claim.expireAfterMs === undefined ? {} : { expireAfter: formatDuration(claim.expireAfterMs) }),
      ...(claim.terminationGracePeriodMs === undefined
        ? {}
        : { terminationGracePeriod: formatDuration(claim.terminationGracePeriodMs) }),
    },
    status: status as NodeClaimResource['status'],
  };
}
