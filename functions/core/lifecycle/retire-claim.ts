/**
 * Ends a nodeclaim for good: Terminating (with the failure recorded), instance terminated, Node
 * deleted, then Gone (its pods are planned again), and a Warning event on each of its
 * pods. Every step is idempotent, so a retire interrupted by a crash is finished by the next one
 * (the Terminating claim's termination check is due at once).
 */
import type { NodeClaim, NodeClaimFailure, NodeClaimState } from '../nodeclaim/nodeclaim.js';
import { transition } from '../nodeclaim/state-machine.js';
import type { Clock } from '../ports/clock.js';
import type { CloudProvider } from '../ports/cloud-provider.js';
import type { ClusterApi, ClusterEvent } from '../ports/cluster-api.js';
import type { Log } from '../ports/log.js';
import type { StateStore } from '../ports/state-store.js';
import { instanceIdOf } from './node-labels.js';
import { updateClaim } from './update-claim.js';

/** What retiring a claim needs. */
export interface RetireDeps {
  readonly clock: Clock;
  readonly log: Log;
  readonly store: Pick<StateStore, 'getNodeClaim' | 'updateNodeClaim'>;
  readonly cloud: Pick<CloudProvider, 'terminate' | 'findByNodeClaim'>;
  readonly cluster: Pick<ClusterApi, 'deleteNode' | 'listNodes' | 'createEvents'>;
}

/** Options of {@link retireClaim}. */
export interface RetireOptions {
  /** Warning events on the claim's pods (default true). */
  readonly warn?: boolean;
  /** Skip terminating the instance (it is already gone). */
  readonly instanceGone?: boolean;
  /** Retire only if the claim is (still) in one of these states; otherwise do nothing. */
  readonly from?: readonly NodeClaimState[];
  /**
   * The claim as the caller has just read or stored it: the first write starts from it without
   * reading it again (the write is conditional on its version, so a claim changed meanwhile is
   * read again), and the second write starts from the claim as the first one stored it.
   */
  readonly known?: NodeClaim;
}

/**
 * Retires the claim `id` with `failure` (see the file comment). Returns the claim as stored at
 * the end (Gone), or undefined when it does not exist. A claim already Gone is left alone.
 */
export async function retireClaim(
  deps: RetireDeps,
  id: string,
  failure: NodeClaimFailure,
  options: RetireOptions = {},
): Promise<NodeClaim | undefined> {
  let skipped = false;
  const claim = await updateClaim(
    deps.store,
    id,
    (c) => {
      skipped = options.from !== undefined && !options.from.includes(c.state);
      if (skipped) return undefined;
      if (c.state === 'Gone' || c.state === 'Terminating' || c.state === 'Pending') return undefined;
      return transition(c, 'Terminating', deps.clock.now(), { failure });
    },
    options.known,
  );
  if (!claim || skipped || claim.state === 'Gone') return claim;
  const instanceId = claim.instance?.instanceId ?? (await deps.cloud.findByNodeClaim(id))?.instanceId;
  if (instanceId && !options.instanceGone) await deps.cloud.terminate([instanceId]);
  const nodeName = claim.nodeName ?? (await findNodeName(deps, instanceId));
  // Only the Node of this instance: a node name is a private DNS name, which EC2 reuses.
  if (nodeName) await deps.cluster.deleteNode(nodeName, instanceId);
  const gone = await updateClaim(
    deps.store,
    id,
    (c) =>
      c.state === 'Gone'
        ? undefined
        : transition(c, 'Gone', deps.clock.now(), { failure: c.failure ?? failure }),
    claim,
  );
  const fields = { nodeclaim: id, instance: instanceId, node: nodeName, reason: failure.reason };
  deps.log.info('deleted nodeclaim', fields);
  if (options.warn !== false) await deps.cluster.createEvents(podWarnings(claim, failure));
  return gone;
}

async function findNodeName(deps: RetireDeps, instanceId: string | undefined): Promise<string | undefined> {
  if (!instanceId) return undefined;
  const nodes = await deps.cluster.listNodes();
  return nodes.find((n) => instanceIdOf(n.spec?.providerID) === instanceId)?.metadata.name;
}

function podWarnings(claim: NodeClaim, failure: NodeClaimFailure): ClusterEvent[] {
  return claim.pods.map((pod) => ({
    involvedObject: { kind: 'Pod', namespace: pod.namespace, name: pod.name, uid: pod.uid, apiVersion: 'v1' },
    type: 'Warning',
    reason: failure.reason,
    message: `nodeclaim ${claim.id}: ${failure.message}`,
  }));
}
