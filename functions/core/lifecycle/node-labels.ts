/**
 * The labels, annotations and taints joiner puts on the nodes it owns, and small readers of node
 * and pod state. Pure functions over the Kubernetes object shapes.
 */
import {
  LABEL_CAPACITY_TYPE,
  LABEL_INSTANCE_TYPE,
  LABEL_NODEPOOL,
  LABEL_ZONE,
  LABEL_ZONE_ID,
} from '../catalog/well-known-labels.js';
import { CAPACITY_RESERVATION_ID, CAPACITY_RESERVATION_TYPE } from '../model/capacity-reservation.js';
import type { Node, Pod } from '../model/kube-objects.js';
import { type Taint, UNREGISTERED_TAINT } from '../model/taint.js';
import type { NodeClaim } from '../nodeclaim/nodeclaim.js';

/** Label naming the nodeclaim a node belongs to. */
export const LABEL_NODECLAIM = 'joiner.sh/nodeclaim';
/** Karpenter's label: the node registered with its nodeclaim. */
export const LABEL_REGISTERED = 'karpenter.sh/registered';
/** Karpenter's label: the node is initialized (Ready, startup taints gone). */
export const LABEL_INITIALIZED = 'karpenter.sh/initialized';
/** Annotation naming the controller that owns the node. */
export const ANNOTATION_OWNER = 'joiner.sh/managed-by';
/** Value of {@link ANNOTATION_OWNER}. */
export const OWNER = 'joiner';
/** Karpenter's annotation: the drift hash of the NodePool the node was launched from. */
export const ANNOTATION_NODEPOOL_HASH = 'karpenter.sh/nodepool-hash';
/** Karpenter's annotation: the version of {@link ANNOTATION_NODEPOOL_HASH}. */
export const ANNOTATION_NODEPOOL_HASH_VERSION = 'karpenter.sh/nodepool-hash-version';
/** Karpenter's annotation: the drift hash of the EC2NodeClass the node was launched from. */
export const ANNOTATION_NODECLASS_HASH = 'karpenter.k8s.aws/ec2nodeclass-hash';
/** Karpenter's annotation: the version of {@link ANNOTATION_NODECLASS_HASH}. */
export const ANNOTATION_NODECLASS_HASH_VERSION = 'karpenter.k8s.aws/ec2nodeclass-hash-version';

/** Karpenter's cordon taint for a node that is being disrupted. */
/**
 * The finalizer on joiner's Nodes and NodeClaim resources (Karpenter's): a `kubectl delete` only
 * marks them, joiner drains the node and terminates its instance, then removes it.
 */
export const TERMINATION_FINALIZER = 'karpenter.sh/termination';

export const DISRUPTED_TAINT: Taint = { key: 'karpenter.sh/disrupted', effect: 'NoSchedule' };

/**
 * Taints a node carries only while it starts: the node lifecycle controller's and the cloud
 * controller's (they remove them themselves once the node is up) and Karpenter's registration
 * taint (joiner removes it when it registers the node).
 */
export const EPHEMERAL_TAINT_KEYS: readonly string[] = [
  'node.kubernetes.io/not-ready',
  'node.kubernetes.io/unreachable',
  'node.cloudprovider.kubernetes.io/uninitialized',
  UNREGISTERED_TAINT.key,
];

/** The instance id of an AWS providerID (`aws:///us-west-2a/i-0abc`), or undefined. */
export function instanceIdOf(providerId: string | undefined): string | undefined {
  const match = providerId?.match(/^aws:\/\/\/[^/]*\/(i-[0-9a-zA-Z]+)$/);
  return match?.[1];
}

/**
 * The labels a node of `claim` must carry, the set Karpenter puts on its nodes: its launched
 * type's labels (instance type, arch, os, region, family, category, generation, size, cpu, memory,
 * tenancy...), the claim's labels (the NodePool's template labels, `karpenter.sh/nodepool`, the
 * NodeClass label such as `karpenter.k8s.aws/ec2nodeclass`, and every requirement with one
 * value), zone, zone ID, capacity type, capacity reservation, and `karpenter.sh/registered`
 * (`karpenter.sh/initialized` follows once the node is initialized).
 */
export function claimNodeLabels(claim: NodeClaim): Record<string, string> {
  const labels: Record<string, string> = {
    ...claim.instance?.labels,
    ...claim.labels,
    [LABEL_NODEPOOL]: claim.nodePool,
    [LABEL_NODECLAIM]: claim.id,
    [LABEL_REGISTERED]: 'true',
  };
  if (claim.instance) {
    labels[LABEL_CAPACITY_TYPE] = claim.instance.capacityType;
    labels[LABEL_ZONE] = claim.instance.zone;
    const zoneId = claimZoneId(claim);
    if (zoneId) labels[LABEL_ZONE_ID] = zoneId;
    labels[LABEL_INSTANCE_TYPE] = claim.instance.instanceType;
    if (claim.instance.reservationId) {
      labels[CAPACITY_RESERVATION_ID] = claim.instance.reservationId;
      labels[CAPACITY_RESERVATION_TYPE] = claim.instance.reservationType ?? 'default';
    }
  }
  return labels;
}

/**
 * The zone ID of the zone the claim's instance runs in, from the option it launched (the options
 * carry the IDs of their NodeClass's subnets); undefined when not launched or not known.
 */
export function claimZoneId(claim: Pick<NodeClaim, 'instance' | 'options'>): string | undefined {
  const zone = claim.instance?.zone;
  return zone === undefined ? undefined : claim.options.find((o) => o.zone === zone && o.zoneId)?.zoneId;
}

/** Whether two taints are the same (key, value and effect). */
export function sameTaint(a: Taint, b: Taint): boolean {
  return a.key === b.key && (a.value ?? '') === (b.value ?? '') && a.effect === b.effect;
}

/** Whether `taints` has a taint with `taint`'s key and effect. */
export function hasTaint(taints: readonly Taint[], taint: Taint): boolean {
  return taints.some((t) => t.key === taint.key && t.effect === taint.effect);
}

/** The node's taints (empty when none). */
export function taintsOf(node: Node): Taint[] {
  return [...(node.spec?.taints ?? [])];
}

/** Whether the node's Ready condition is True. */
export function isNodeReady(node: Node): boolean {
  return (node.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/** Whether the pod's Ready condition is True. */
export function isPodReady(pod: Pod): boolean {
  return (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/** Whether a daemonset owns the pod. */
export function isDaemonSetPod(pod: Pod): boolean {
  return (pod.metadata.ownerReferences ?? []).some((o) => o.kind === 'DaemonSet');
}

/** Whether the pod still counts on its node (not finished, not being deleted). */
export function isLivePod(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return !pod.metadata.deletionTimestamp && phase !== 'Succeeded' && phase !== 'Failed';
}
