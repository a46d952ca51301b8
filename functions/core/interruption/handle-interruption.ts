/**
 * Acts on an interruption notice. Spot interruption warnings, scheduled changes and instances
 * stopping: cordon the node (karpenter.sh/disrupted:NoSchedule), evict its pods (their
 * controllers recreate them and the provisioner places them), terminate the instance, retire the
 * claim and delete the node. Instances already shutting down, stopped or terminated: retire the
 * claim and delete the node. Rebalance recommendations: log and an event only. Instances joiner
 * does not know are ignored.
 */
import {
  DISRUPTED_TAINT,
  hasTaint,
  instanceIdOf,
  isDaemonSetPod,
  isLivePod,
  taintsOf,
} from '../lifecycle/node-labels.js';
import type { RetireDeps } from '../lifecycle/retire-claim.js';
import { retireClaim } from '../lifecycle/retire-claim.js';
import type { NodeClaim, NodeClaimFailure } from '../nodeclaim/nodeclaim.js';
import type { ClusterApi } from '../ports/cluster-api.js';
import type { StateStore } from '../ports/state-store.js';
import type { InterruptionNotice } from './interruption-notice.js';

/** What the interruption core needs. */
export interface InterruptionDeps extends RetireDeps {
  readonly cluster: RetireDeps['cluster'] &
    Pick<ClusterApi, 'getNode' | 'patchNode' | 'listPodsOnNode' | 'evictPod'>;
  readonly store: RetireDeps['store'] &
    Pick<StateStore, 'findNodeClaimByInstanceId' | 'markOfferingsUnavailable'>;
}

/** What was done about one notice. */
export type InterruptionOutcome = 'ignored' | 'noted' | 'drained' | 'cleaned-up';

const LIVE = ['Launched', 'Registered', 'Initialized', 'Draining', 'Terminating'] as const;

const FAILURES: Record<Exclude<InterruptionNotice['kind'], 'rebalance'>, NodeClaimFailure> = {
  'spot-interruption': {
    reason: 'SpotInterrupted',
    message: 'spot instance interruption warning; node drained',
  },
  'scheduled-change': {
    reason: 'InstanceScheduledChange',
    message: 'AWS Health scheduled change; node drained',
  },
  'state-change': { reason: 'InstanceStopped', message: 'the instance is stopping or terminating' },
};

/** Handles one notice (see the file comment). Idempotent: a repeated notice finds the claim Gone. */
export async function handleInterruption(
  deps: InterruptionDeps,
  notice: InterruptionNotice,
): Promise<InterruptionOutcome> {
  const claim = await deps.store.findNodeClaimByInstanceId(notice.instanceId);
  const fields = {
    instance: notice.instanceId,
    kind: notice.kind,
    state: notice.state,
    nodeclaim: claim?.id,
  };
  if (!claim || !(LIVE as readonly string[]).includes(claim.state)) {
    deps.log.debug('interruption for an instance joiner does not run, ignored', fields);
    return 'ignored';
  }
  if (notice.kind === 'rebalance') {
    deps.log.info('instance received a rebalance recommendation', { ...fields, node: claim.nodeName });
    await nodeEvent(
      deps,
      claim,
      'Normal',
      'RebalanceRecommendation',
      'EC2 recommends rebalancing this spot instance',
    );
    return 'noted';
  }
  const failure = FAILURES[notice.kind];
  if (notice.kind === 'state-change' && notice.state !== 'stopping') {
    deps.log.info('instance is going away, cleaning up its nodeclaim', { ...fields, node: claim.nodeName });
    const gone = notice.state === 'terminated' || notice.state === 'shutting-down';
    await retireClaim(deps, claim.id, failure, { instanceGone: gone, from: [...LIVE] });
    return 'cleaned-up';
  }
  deps.log.info('interruption: draining node', { ...fields, node: claim.nodeName });
  if (notice.kind === 'spot-interruption') await markUnavailable(deps, claim);
  await nodeEvent(deps, claim, 'Warning', failure.reason, failure.message);
  const nodeName = claim.nodeName ?? (await nodeOfInstance(deps, notice.instanceId));
  if (nodeName) await drain(deps, nodeName);
  await retireClaim(deps, claim.id, failure, { from: [...LIVE] });
  return 'drained';
}

/** Cordons the node with the disrupted taint and evicts its pods (daemonset pods stay). */
async function drain(deps: InterruptionDeps, nodeName: string): Promise<void> {
  const node = await deps.cluster.getNode(nodeName);
  if (!node) return;
  const taints = taintsOf(node);
  if (!hasTaint(taints, DISRUPTED_TAINT))
    await deps.cluster.patchNode(nodeName, { taints: [...taints, DISRUPTED_TAINT] });
  const pods = (await deps.cluster.listPodsOnNode(nodeName)).filter(
    (p) => isLivePod(p) && !isDaemonSetPod(p),
  );
  const results = await Promise.all(
    pods.map((p) => deps.cluster.evictPod(p.metadata.namespace ?? 'default', p.metadata.name)),
  );
  const blocked = pods.filter((_, i) => results[i] === 'blocked-by-pdb').map((p) => p.metadata.name);
  deps.log.info('evicted pods from interrupted node', {
    node: nodeName,
    evicted: pods.length - blocked.length,
  });
  if (blocked.length > 0)
    deps.log.warn('disruption budgets blocked evictions', { node: nodeName, pods: blocked });
}

/** The node of an instance whose registration joiner has not recorded yet (its events were late). */
async function nodeOfInstance(deps: InterruptionDeps, instanceId: string): Promise<string | undefined> {
  const nodes = await deps.cluster.listNodes();
  return nodes.find((n) => instanceIdOf(n.spec?.providerID) === instanceId)?.metadata.name;
}

async function markUnavailable(deps: InterruptionDeps, claim: NodeClaim): Promise<void> {
  const i = claim.instance;
  if (!i) return;
  const offering = { instanceType: i.instanceType, zone: i.zone, capacityType: i.capacityType };
  await deps.store.markOfferingsUnavailable([offering], 'SpotInterrupted', deps.clock.now());
}

async function nodeEvent(
  deps: InterruptionDeps,
  claim: NodeClaim,
  type: 'Normal' | 'Warning',
  reason: string,
  message: string,
): Promise<void> {
  if (!claim.nodeName) return;
  await deps.cluster.createEvents([
    { involvedObject: { kind: 'Node', name: claim.nodeName, apiVersion: 'v1' }, type, reason, message },
  ]);
}
