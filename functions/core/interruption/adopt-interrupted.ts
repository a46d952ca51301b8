/**
 * Lost state does not drop an interruption: a notice that would drain a node (a spot interruption
 * warning, a scheduled change, an instance stopping) for an instance joiner has no live claim of
 * is checked against EC2 before it is ignored. An instance this table launched (its owner and
 * nodeclaim tags) whose claim record is missing (a restore, an item deleted by hand) and whose node
 * has registered is adopted at once, as the sweep would adopt it (sweep/adopt-instance.ts): the
 * claim is rebuilt from the instance, its node and its tags under the id it is tagged with and
 * written with a conditional create, so two deliveries at once, or a delivery and a sweep, adopt
 * it once and each goes on with the claim as stored. The notice is then handled like any other.
 * The NodePool's labels, taints and requirements are not read here: the claim is about to be
 * drained and retired, and its replacement is planned from its pods. An instance of another
 * table, without a nodeclaim tag, already going away or whose node never registered is not
 * adopted (the sweep deals with it).
 */
import { TAG } from '../launch/tags.js';
import { instanceIdOf } from '../lifecycle/node-labels.js';
import type { Node } from '../model/kube-objects.js';
import type { NodeClaim } from '../nodeclaim/nodeclaim.js';
import type { Clock } from '../ports/clock.js';
import type { CloudProvider } from '../ports/cloud-provider.js';
import type { ClusterApi } from '../ports/cluster-api.js';
import type { Log } from '../ports/log.js';
import type { StateStore } from '../ports/state-store.js';
import { rebuildClaim } from '../sweep/rebuild-claim.js';

/** What adopting an interrupted instance needs. */
export interface AdoptInterruptedDeps {
  readonly clock: Clock;
  readonly log: Log;
  readonly cloud: Pick<CloudProvider, 'get'>;
  readonly cluster: Pick<ClusterApi, 'getNode' | 'listNodes'>;
  readonly store: Pick<StateStore, 'getNodeClaim' | 'createNodeClaim' | 'findNodeClaimByInstanceId'>;
  /** The identity this joiner tags its instances with (its state table's name); unknown: nothing is adopted. */
  readonly owner?: string;
}

/**
 * Adopts `instanceId` when it is this table's instance with its claim record missing and its node
 * registered (see the file comment). Returns the claim as stored (also when a concurrent delivery
 * or sweep adopted it first), or undefined when it is not adopted.
 */
export async function adoptInterrupted(
  deps: AdoptInterruptedDeps,
  instanceId: string,
): Promise<NodeClaim | undefined> {
  if (!deps.owner) return undefined;
  const instance = await deps.cloud.get(instanceId);
  const id = instance?.nodeClaimId;
  if (!instance || !id || instance.owner !== deps.owner) return undefined;
  if (instance.state === 'shutting-down' || instance.state === 'terminated') return undefined;
  // A record of that id exists (retired, or written meanwhile): not lost; use the live claim, if any.
  if (await deps.store.getNodeClaim(id)) return deps.store.findNodeClaimByInstanceId(instanceId);
  const node = await nodeOf(deps, instanceId, instance.privateDnsName);
  if (!node) return undefined;
  const claim = rebuildClaim({
    id,
    instance,
    node,
    nodeClass: instance.tags[TAG.nodeClass] ?? '',
    now: deps.clock.now(),
  });
  if (!(await deps.store.createNodeClaim(claim))) return deps.store.findNodeClaimByInstanceId(instanceId);
  deps.log.warn('interruption for an instance whose nodeclaim record was missing: its claim is rebuilt', {
    nodeclaim: id,
    instance: instanceId,
    node: node.metadata.name,
    nodepool: claim.nodePool,
  });
  return claim;
}

/** The Node of `instanceId` (by providerID: node names are reused by later instances). */
export async function nodeOf(
  deps: Pick<AdoptInterruptedDeps, 'cluster'>,
  instanceId: string,
  privateDnsName: string | undefined,
): Promise<Node | undefined> {
  const named = privateDnsName ? await deps.cluster.getNode(privateDnsName) : undefined;
  if (named && instanceIdOf(named.spec?.providerID) === instanceId) return named;
  return (await deps.cluster.listNodes()).find((n) => instanceIdOf(n.spec?.providerID) === instanceId);
}
