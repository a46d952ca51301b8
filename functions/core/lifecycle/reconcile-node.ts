/**
 * Brings a joiner node and its nodeclaim in line with what the API server says now: Launched ->
 * Registered with labels, taints and owner annotation synced; the Multus startup taint cleared
 * once the Multus daemonset pod on the node is Ready; Registered -> Initialized once the node is
 * Ready and no startup taint remains. Every step re-reads; running it twice changes nothing.
 */
import { MULTUS_POD_LABEL } from '../install/match-conditions.js';
import type { Node, Pod } from '../model/kube-objects.js';
import { isUnregisteredTaint, type Taint, UNREGISTERED_TAINT } from '../model/taint.js';
import type { NodeClaim, NodeClaimState } from '../nodeclaim/nodeclaim.js';
import { type TransitionChanges, transition } from '../nodeclaim/state-machine.js';
import type { NodePatch } from '../ports/cluster-api.js';
import type { LifecycleDeps } from './lifecycle-deps.js';
import {
  ANNOTATION_NODECLASS_HASH,
  ANNOTATION_NODECLASS_HASH_VERSION,
  ANNOTATION_NODEPOOL_HASH,
  ANNOTATION_NODEPOOL_HASH_VERSION,
  ANNOTATION_OWNER,
  claimNodeLabels,
  EPHEMERAL_TAINT_KEYS,
  hasTaint,
  isDaemonSetPod,
  isNodeReady,
  isPodReady,
  LABEL_INITIALIZED,
  LABEL_REGISTERED,
  OWNER,
  sameTaint,
  TERMINATION_FINALIZER,
  taintsOf,
} from './node-labels.js';
import { updateClaim } from './update-claim.js';
import { wakeWaitingDrains } from './wake-drains.js';

/**
 * Whether a pod is the Multus daemonset's pod: labelled `app: multus` (thick plugin) or
 * `name: multus` (the upstream manifests), or owned by a daemonset whose name says multus.
 */
export function isMultusPod(pod: Pod): boolean {
  const labels = pod.metadata.labels ?? {};
  return (
    labels[MULTUS_POD_LABEL.key] === MULTUS_POD_LABEL.value ||
    labels.name === MULTUS_POD_LABEL.value ||
    (isDaemonSetPod(pod) && (pod.metadata.ownerReferences ?? []).some((o) => /multus/i.test(o.name)))
  );
}

/**
 * The patch that adds what the node lacks of the claim's labels, taints and annotations (owner,
 * and the NodePool / NodeClass drift hashes with their versions, as Karpenter annotates its
 * nodes) and the termination finalizer (a `kubectl delete node` then drains it before it goes),
 * and removes Karpenter's registration taint (`karpenter.sh/unregistered:NoExecute`) in the same
 * patch that labels it `karpenter.sh/registered`; undefined when nothing is left to do.
 */
export function registrationPatch(claim: NodeClaim, node: Node): NodePatch | undefined {
  const current = node.metadata.labels ?? {};
  const labels = Object.fromEntries(
    Object.entries(claimNodeLabels(claim)).filter(([key, value]) => current[key] !== value),
  );
  const registering = taintsOf(node);
  // Karpenter's registration taint goes in the same patch that labels the node registered.
  const taints = registering.filter((t) => !isUnregisteredTaint(t));
  const unregistered = taints.length !== registering.length;
  const missing = claim.taints.filter((t) => !taints.some((have) => sameTaint(have, t)));
  const currentAnnotations = node.metadata.annotations ?? {};
  const annotations = Object.fromEntries(
    Object.entries(claimNodeAnnotations(claim)).filter(([key, value]) => currentAnnotations[key] !== value),
  );
  const finalizers = node.metadata.finalizers ?? [];
  // No new finalizer on a Node being deleted (the API server refuses it).
  const finalize = !node.metadata.deletionTimestamp && !finalizers.includes(TERMINATION_FINALIZER);
  if (
    Object.keys(labels).length === 0 &&
    missing.length === 0 &&
    !unregistered &&
    Object.keys(annotations).length === 0 &&
    !finalize
  )
    return undefined;
  return {
    ...(finalize ? { finalizers: [...finalizers, TERMINATION_FINALIZER] } : {}),
    ...(Object.keys(labels).length > 0 ? { labels } : {}),
    ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
    ...(missing.length > 0 || unregistered ? { taints: [...taints, ...missing] } : {}),
  };
}

/**
 * The annotations a node of `claim` must carry: its NodePool template's, then the owner and the
 * drift hashes (a hash version only when the claim has one).
 */
function claimNodeAnnotations(claim: NodeClaim): Record<string, string> {
  return {
    // The NodePool template's annotations first: joiner's own keys are not the user's to set.
    ...claim.annotations,
    [ANNOTATION_OWNER]: OWNER,
    [ANNOTATION_NODEPOOL_HASH]: claim.nodePoolHash,
    ...(claim.nodePoolHashVersion ? { [ANNOTATION_NODEPOOL_HASH_VERSION]: claim.nodePoolHashVersion } : {}),
    [ANNOTATION_NODECLASS_HASH]: claim.nodeClassHash,
    ...(claim.nodeClassHashVersion
      ? { [ANNOTATION_NODECLASS_HASH_VERSION]: claim.nodeClassHashVersion }
      : {}),
  };
}

/** The startup taints still on the node (the claim's, the Multus one, and the ephemeral ones). */
export function remainingStartupTaints(claim: NodeClaim, node: Node, multusTaint?: Taint): Taint[] {
  const startup = multusTaint ? [...claim.startupTaints, multusTaint] : claim.startupTaints;
  return taintsOf(node).filter((t) => hasTaint(startup, t) || EPHEMERAL_TAINT_KEYS.includes(t.key));
}

/** Reconciles the node `nodeName` of `claim` (see the file comment). Returns the claim as stored. */
export async function reconcileNode(
  deps: LifecycleDeps,
  claim: NodeClaim,
  nodeName: string,
): Promise<NodeClaim | undefined> {
  let node = await deps.cluster.getNode(nodeName);
  if (!node) {
    deps.log.debug('node not found, nothing to reconcile', { node: nodeName, nodeclaim: claim.id });
    return claim;
  }
  if (claim.state !== 'Launched' && claim.state !== 'Registered' && claim.state !== 'Initialized') {
    deps.log.debug('nodeclaim is not starting, node left alone', { nodeclaim: claim.id, state: claim.state });
    return claim;
  }
  if (claim.state === 'Launched') warnIfRegisteredUntainted(deps, claim, node);
  const patch = registrationPatch(claim, node);
  if (patch) node = await deps.cluster.patchNode(nodeName, patch);
  let stored = await register(deps, claim, nodeName);
  const multusTaint = await deps.multusTaintOf(claim);
  node = await clearMultusTaint(deps, node, multusTaint);
  if (stored?.state === 'Registered' && isNodeReady(node)) {
    const remaining = remainingStartupTaints(claim, node, multusTaint);
    if (remaining.length === 0) stored = await initialize(deps, stored, node);
    else
      deps.log.debug('node waits for startup taints', {
        node: nodeName,
        taints: remaining.map((t) => t.key),
      });
  }
  return stored;
}

/**
 * Logs a warning for a node that registered without Karpenter's registration taint (a Custom AMI
 * family's user data that does not ask for it, as Karpenter requires): pods may have landed on it
 * before joiner synced its labels and taints. joiner still registers it.
 */
function warnIfRegisteredUntainted(deps: LifecycleDeps, claim: NodeClaim, node: Node): void {
  if (node.metadata.labels?.[LABEL_REGISTERED] === 'true') return;
  if (taintsOf(node).some(isUnregisteredTaint)) return;
  deps.log.warn(
    `node registered without the ${UNREGISTERED_TAINT.key}:${UNREGISTERED_TAINT.effect} taint; pods may have been scheduled before its nodeclaim's labels and taints were synced (a Custom amiFamily's userData should register with it, as Karpenter requires)`,
    { nodeclaim: claim.id, node: node.metadata.name },
  );
}

/**
 * Moves `claim` from state `from` to `to`, starting from the claim as the caller read or stored it
 * (not read again: the write is conditional on its version). `moved`: this write moved it, not an
 * earlier delivery. `stored`: the claim as stored.
 */
async function advance(
  deps: LifecycleDeps,
  claim: NodeClaim,
  from: NodeClaimState,
  to: NodeClaimState,
  changes?: TransitionChanges,
): Promise<{ readonly stored: NodeClaim | undefined; readonly moved: boolean }> {
  let moved = false;
  const stored = await updateClaim(
    deps.store,
    claim.id,
    (c) => {
      moved = c.state === from;
      return moved ? transition(c, to, deps.clock.now(), changes) : undefined;
    },
    claim,
  );
  return { stored, moved };
}

/** Moves `claim` from Launched to Registered on `nodeName`. Returns the claim as stored. */
async function register(
  deps: LifecycleDeps,
  claim: NodeClaim,
  nodeName: string,
): Promise<NodeClaim | undefined> {
  const { stored, moved } = await advance(deps, claim, 'Launched', 'Registered', { nodeName });
  if (moved && stored)
    deps.log.info('registered nodeclaim', {
      nodeclaim: claim.id,
      node: nodeName,
      instance: stored.instance?.instanceId,
      nodepool: stored.nodePool,
    });
  return stored;
}

/**
 * Moves `claim` from Registered to Initialized and labels its node; the one write that moved it
 * wakes the drains waiting for it. Returns the claim as stored.
 */
async function initialize(deps: LifecycleDeps, claim: NodeClaim, node: Node): Promise<NodeClaim | undefined> {
  const { stored, moved } = await advance(deps, claim, 'Registered', 'Initialized');
  if (node.metadata.labels?.[LABEL_INITIALIZED] !== 'true')
    await deps.cluster.patchNode(node.metadata.name, { labels: { [LABEL_INITIALIZED]: 'true' } });
  if (moved && stored) {
    deps.log.info('initialized nodeclaim', {
      nodeclaim: claim.id,
      node: node.metadata.name,
      allocatable: node.status?.allocatable,
    });
    // After the node's label: the drains evict onto it at once.
    await wakeWaitingDrains(deps, stored);
  }
  return stored;
}

async function clearMultusTaint(deps: LifecycleDeps, node: Node, taint: Taint | undefined): Promise<Node> {
  const taints = taintsOf(node);
  if (!taint || !hasTaint(taints, taint)) return node;
  const pods = await deps.cluster.listPodsOnNode(node.metadata.name);
  const multus = pods.find((p) => isMultusPod(p) && !p.metadata.deletionTimestamp);
  if (!multus || !isPodReady(multus)) {
    deps.log.debug('multus pod not ready yet, startup taint kept', { node: node.metadata.name });
    return node;
  }
  const kept = taints.filter((t) => !(t.key === taint.key && t.effect === taint.effect));
  const updated = await deps.cluster.patchNode(node.metadata.name, { taints: kept });
  deps.log.info('removed multus startup taint', { node: node.metadata.name, taint: taint.key });
  return updated;
}
