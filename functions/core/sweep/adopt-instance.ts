/**
 * Lost state is recovered, not punished: an instance this table launched (its owner, cluster and
 * nodeclaim tags) whose claim record is missing (a restore, an item deleted by hand, a record a
 * TTL collected too early) but whose node has registered is adopted again: the claim is rebuilt
 * from the instance, its node and its tags under the id the instance is tagged with, written with
 * a conditional create (a concurrent sweep adopts it once), and the node is reconciled, so the
 * claim goes on to Initialized and every later decision (emptiness, drift, consolidation, a spot
 * interruption) treats it like any other node. A drain whose record was lost with it is not
 * resumed: the node loses the disrupted taint and goes back to service.
 */
import { TAG } from '../launch/tags.js';
import { DISRUPTED_TAINT, hasTaint, taintsOf } from '../lifecycle/node-labels.js';
import { reconcileNode } from '../lifecycle/reconcile-node.js';
import type { Node } from '../model/kube-objects.js';
import type { NodePool } from '../model/node-pool.js';
import type { NodeClaim } from '../nodeclaim/nodeclaim.js';
import type { CloudInstance } from '../ports/cloud-provider.js';
import { rebuildClaim } from './rebuild-claim.js';
import type { SweepDeps } from './sweep-deps.js';

/**
 * The claim `id` rebuilt for `instance` on `node` (rebuildClaim) with its NodePool as configured
 * now (labels, taints, requirements, expiry; none when the pool is gone), its NodeClass from its
 * tag and its offering's price from the catalog; returns the pool too.
 */
export async function rebuildClaimFor(
  deps: SweepDeps,
  id: string,
  instance: CloudInstance,
  node: Node,
): Promise<{ claim: NodeClaim; pool?: NodePool }> {
  const config = await deps.config();
  const pool = config.nodePools.find((p) => p.name === instance.nodePool);
  const offering = deps.catalog.instanceTypes
    .find((t) => t.name === instance.instanceType)
    ?.offerings.find((o) => o.zone === instance.zone && o.capacityType === instance.capacityType);
  const claim = rebuildClaim({
    id,
    instance,
    node,
    nodeClass: instance.tags[TAG.nodeClass] ?? pool?.nodeClassRef.name ?? '',
    ...(pool ? { pool } : {}),
    ...(offering ? { price: offering.price } : {}),
    now: deps.clock.now(),
  });
  return pool ? { claim, pool } : { claim };
}

/**
 * Adopts `instance` (registered as `node`, its claim record missing): writes the rebuilt claim and
 * reconciles its node. Returns the claim as stored, or undefined when another sweep adopted it
 * first (or a claim of that id appeared meanwhile).
 */
export async function adoptInstance(
  deps: SweepDeps,
  instance: CloudInstance,
  node: Node,
): Promise<NodeClaim | undefined> {
  const id = instance.nodeClaimId;
  if (!id) return undefined;
  const { claim } = await rebuildClaimFor(deps, id, instance, node);
  if (!(await deps.store.createNodeClaim(claim))) return undefined;
  deps.log.warn('adopted an instance whose nodeclaim record was missing: its claim is rebuilt', {
    nodeclaim: id,
    instance: instance.instanceId,
    node: node.metadata.name,
    nodepool: claim.nodePool,
  });
  const stored = (await reconcileNode(deps, claim, node.metadata.name)) ?? claim;
  // An interruption may have started a drain of the adopted claim meanwhile: its taint stays.
  const now = await deps.store.getNodeClaim(id);
  if (!now || now.state === 'Registered' || now.state === 'Initialized')
    await untaint(deps, node.metadata.name);
  return stored;
}

/**
 * A node still carrying the disrupted taint lost the drain that put it there with its record: it
 * goes back to service, and the disruption decisions decide about it again.
 */
async function untaint(deps: SweepDeps, nodeName: string): Promise<void> {
  const node = await deps.cluster.getNode(nodeName);
  if (!node || !hasTaint(taintsOf(node), DISRUPTED_TAINT)) return;
  await deps.cluster.patchNode(nodeName, {
    taints: taintsOf(node).filter(
      (t) => !(t.key === DISRUPTED_TAINT.key && t.effect === DISRUPTED_TAINT.effect),
    ),
  });
}
