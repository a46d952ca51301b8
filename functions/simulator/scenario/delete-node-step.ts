/**
 * The `deleteNode` step: `kubectl delete node X`, or `kubectl delete nodeclaim X` of the node's
 * NodeClaim. The delete goes through the simulated API server, admission webhook included, so
 * joiner hears of it as it would in a cluster; the object stays (deletionTimestamp set) until
 * joiner's termination finalizer is removed.
 */
import type { Node } from '../../core/model/kube-objects.js';
import { NODE_CLAIM_API_VERSION, NODE_CLAIM_KIND } from '../../core/status/nodeclaim-resource.js';
import type { SimulatedCloud } from '../cloud.js';
import type { DeleteNodeStep } from './scenario-schema.js';
import { instanceIdOf } from './summary.js';

/** Deletes the chosen node (or its NodeClaim); `instanceOf` picks the instance as `interrupt` does. */
export async function playDeleteNode(
  spec: DeleteNodeStep,
  at: string,
  cloud: SimulatedCloud,
  say: (message: string) => void,
  instanceOf: (node: DeleteNodeStep['node']) => string,
): Promise<void> {
  const { store } = cloud.kube;
  const instanceId = instanceOf(spec.node);
  const node = store.list<Node>('v1', 'Node').find((n) => instanceIdOf(n) === instanceId);
  if (!node) throw new Error(`instance ${instanceId} has no node yet`);
  const name = node.metadata.name;
  if (spec.object === 'Node') {
    say(`${at}: kubectl delete node ${name}`);
    await store.delete('v1', 'Node', name);
    return;
  }
  const claim = store
    .list<{ metadata: { name: string }; status?: { nodeName?: string } }>(
      NODE_CLAIM_API_VERSION,
      NODE_CLAIM_KIND,
    )
    .find((c) => c.status?.nodeName === name);
  if (!claim) throw new Error(`node ${name} has no NodeClaim`);
  say(`${at}: kubectl delete nodeclaim ${claim.metadata.name} (node ${name})`);
  await store.delete(NODE_CLAIM_API_VERSION, NODE_CLAIM_KIND, claim.metadata.name);
}
