/**
 * The Node of a claim's instance. Node names are the instances' private DNS names, and EC2 hands a
 * released private address to the next instance launched in the subnet, so a name recorded on a
 * claim can, once its instance is gone, name the Node of another instance. Everything joiner does
 * to "the claim's node" (taint, evict, delete) must therefore be done to the Node whose
 * `spec.providerID` names the claim's instance, never to a Node that merely has the same name.
 */
import type { Node } from '../model/kube-objects.js';
import type { NodeClaim } from '../nodeclaim/nodeclaim.js';
import type { ClusterApi } from '../ports/cluster-api.js';
import { instanceIdOf } from './node-labels.js';

/**
 * Whether `node` may be the Node of the instance `instanceId`: true when its providerID names that
 * instance, or when either side is unknown (no instance recorded yet, a Node without providerID).
 */
export function isNodeOf(node: Node, instanceId: string | undefined): boolean {
  if (!instanceId) return true;
  const own = instanceIdOf(node.spec?.providerID);
  return own === undefined || own === instanceId;
}

/**
 * The Node of `claim`: the one of its recorded name when that Node is still its instance's,
 * otherwise the one whose providerID names its instance (listed), or undefined when its instance
 * has no Node (any more).
 */
export async function claimNode(
  cluster: Pick<ClusterApi, 'getNode' | 'listNodes'>,
  claim: Pick<NodeClaim, 'nodeName' | 'instance'>,
): Promise<Node | undefined> {
  const instanceId = claim.instance?.instanceId;
  if (claim.nodeName) {
    const named = await cluster.getNode(claim.nodeName);
    if (named && isNodeOf(named, instanceId)) return named;
  }
  if (!instanceId) return undefined;
  return (await cluster.listNodes()).find((n) => instanceIdOf(n.spec?.providerID) === instanceId);
}
