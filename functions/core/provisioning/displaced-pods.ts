/**
 * The pods a drain displaces: the reschedulable pods bound to the nodes of Draining claims. The
 * provisioning run plans them as if they were pending (and leaves those nodes out of the
 * capacity it plans on), so their replacement capacity is launched before they are evicted.
 */
import { isReschedulable } from '../disruption/pod-policy.js';
import type { Node, Pod } from '../model/kube-objects.js';
import type { NodeClaim } from '../nodeclaim/nodeclaim.js';
import { hasNode } from './in-flight.js';

/** Names of the nodes of `claims` that are Draining. */
export function leavingNodes(claims: readonly NodeClaim[], nodes: readonly Node[]): Set<string> {
  const draining = claims.filter((c) => c.state === 'Draining');
  if (draining.length === 0) return new Set();
  return new Set(nodes.filter((n) => draining.some((c) => hasNode(c, [n]))).map((n) => n.metadata.name));
}

/** The reschedulable pods bound to `leaving` nodes, unbound (as they will be once evicted). */
export function displacedPods(boundPods: readonly Pod[], leaving: ReadonlySet<string>): Pod[] {
  if (leaving.size === 0) return [];
  return boundPods
    .filter((p) => leaving.has(p.spec?.nodeName ?? '') && isReschedulable(p))
    .map((p) => ({ ...p, spec: { ...p.spec, nodeName: undefined } }));
}
