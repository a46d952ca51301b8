/**
 * CEL match conditions of joiner's admission webhooks. The API server evaluates them before
 * calling the webhook, so it only calls for the few updates joiner reacts to. They use `has()`
 * rather than optional field syntax so every CEL implementation (and the simulated API server)
 * evaluates them the same. Variables: `object` (null on DELETE), `oldObject` (null on CREATE),
 * `request`.
 */

/** A named CEL expression; all of a webhook's conditions must be true for a call. */
export interface MatchCondition {
  readonly name: string;
  readonly expression: string;
}

/** The Multus daemonset pod label (the thick Multus daemonset carries `app: multus`). */
export const MULTUS_POD_LABEL = { key: 'app', value: 'multus' } as const;

const conditionIs = (obj: string, type: string, status: string): string =>
  `has(${obj}.status) && has(${obj}.status.conditions) && ` +
  `${obj}.status.conditions.exists(c, c.type == '${type}' && c.status == '${status}')`;

const becameReady = (): string =>
  `(${conditionIs('object', 'Ready', 'True')}) && ` +
  `(oldObject == null || !(${conditionIs('oldObject', 'Ready', 'True')}))`;

const isUnschedulable = (obj: string): string =>
  `has(${obj}.status) && has(${obj}.status.conditions) && ` +
  `${obj}.status.conditions.exists(c, c.type == 'PodScheduled' && c.status == 'False' && has(c.reason) && c.reason == 'Unschedulable')`;

/**
 * Pod status updates that mark the pod unschedulable, when it was not already. The kube-scheduler
 * writes the condition again whenever its message changes (`0/N nodes are available: ...` as nodes
 * come and go), which for a pod that waits on its node would call the webhook (and publish an
 * event) at every retry; the pod is already known to joiner then, and the sweep's safety net
 * republishes pending pods that no nodeclaim waits on.
 */
export const POD_UNSCHEDULABLE: readonly MatchCondition[] = [
  {
    name: 'pod-unschedulable',
    expression: `object != null && ${isUnschedulable('object')}`,
  },
  {
    name: 'not-already-unschedulable',
    expression: `oldObject == null || !(${isUnschedulable('oldObject')})`,
  },
];

/** Node creations, and node updates where the Ready condition turns True. */
export const NODE_REGISTERED_OR_READY: readonly MatchCondition[] = [
  {
    name: 'node-created-or-became-ready',
    expression: `request.operation == 'CREATE' || (object != null && ${becameReady()})`,
  },
];

/** Multus daemonset pods turning Ready (joiner then clears the node's Multus startup taint). */
export const MULTUS_POD_READY: readonly MatchCondition[] = [
  {
    name: 'multus-pod',
    expression: `object != null && has(object.metadata.labels) && '${MULTUS_POD_LABEL.key}' in object.metadata.labels && object.metadata.labels['${MULTUS_POD_LABEL.key}'] == '${MULTUS_POD_LABEL.value}'`,
  },
  { name: 'pod-became-ready', expression: `object != null && ${becameReady()}` },
];

/**
 * The condition the API server's eviction subresource writes on a pod before deleting it
 * (`DisruptionTarget`, reason `EvictionByEvictionAPI`; Kubernetes 1.26 and later).
 */
export const EVICTED_POD_CONDITION = {
  type: 'DisruptionTarget',
  status: 'True',
  reason: 'EvictionByEvictionAPI',
} as const;

/**
 * Deletions of pods bound to a node that are not daemonset pods and were not evicted (an
 * emptiness hint). CEL cannot see the node's labels, so the lifecycle function ignores pods of
 * nodes joiner does not own. An evicted pod is left out: the eviction's own deletion never goes
 * through admission, and the kubelet's final DELETE of the pod is not worth a call: the nodes
 * joiner drains are not made empty by it (their drain notices the node empty), and a node someone
 * else drains is cordoned, where the minute sweep finds it empty. A pod deleted gracefully calls
 * once, at the DELETE that makes it terminating: emptiness does not count terminating pods (see
 * isEmptyNode), so the kubelet's final DELETE, with the deletionTimestamp already set, tells joiner
 * nothing new, except for a StatefulSet pod, which counts until it is gone.
 */
export const BOUND_POD_DELETED: readonly MatchCondition[] = [
  {
    name: 'bound-pod',
    expression: "oldObject != null && has(oldObject.spec.nodeName) && oldObject.spec.nodeName != ''",
  },
  {
    name: 'not-daemonset-pod',
    expression:
      "oldObject != null && (!has(oldObject.metadata.ownerReferences) || !oldObject.metadata.ownerReferences.exists(r, r.kind == 'DaemonSet'))",
  },
  {
    name: 'not-evicted',
    expression:
      `oldObject != null && !(has(oldObject.status) && has(oldObject.status.conditions) && ` +
      `oldObject.status.conditions.exists(c, c.type == '${EVICTED_POD_CONDITION.type}' && c.status == '${EVICTED_POD_CONDITION.status}' && ` +
      `has(c.reason) && c.reason == '${EVICTED_POD_CONDITION.reason}'))`,
  },
  {
    name: 'first-deletion',
    expression:
      'oldObject != null && (!has(oldObject.metadata.deletionTimestamp) || ' +
      "(has(oldObject.metadata.ownerReferences) && oldObject.metadata.ownerReferences.exists(r, r.kind == 'StatefulSet')))",
  },
];

/**
 * NodePool / NodeClass creations and spec changes (status updates, which joiner itself writes,
 * do not call the webhook). For a NodePool scale write the objects are Scales, so the condition
 * holds when `spec.replicas` changes.
 */
export const CONFIGURATION_CHANGED: readonly MatchCondition[] = [
  {
    name: 'created-or-spec-changed',
    expression:
      "request.operation == 'CREATE' || (object != null && oldObject != null && " +
      '(has(object.spec) != has(oldObject.spec) || (has(object.spec) && object.spec != oldObject.spec)))',
  },
];

/**
 * A joiner NodeClaim resource whose claim is already terminating: its `Ready` condition carries the
 * claim's state as its reason (status/nodeclaim-resource.ts), and a claim never leaves Terminating.
 */
const nodeClaimTerminating = (obj: string): string =>
  `has(${obj}.status) && has(${obj}.status.conditions) && ` +
  `${obj}.status.conditions.exists(c, c.type == 'Ready' && has(c.reason) && c.reason == 'Terminating')`;

/**
 * Deletions of joiner's NodeClaim resources, and of Nodes that carry joiner's nodeclaim label
 * (Karpenter's and other nodes are not joiner's to terminate). A NodeClaim resource of a claim
 * already terminating is left out: joiner deletes it itself once the claim is Gone, right after
 * the Terminating write it mirrors, and a termination request for a terminating claim changes
 * nothing (lifecycle/deletion-hint.ts ignores it).
 */
export const NODE_OR_NODECLAIM_DELETED: readonly MatchCondition[] = [
  {
    name: 'joiner-nodeclaim-or-node',
    expression:
      "oldObject != null && (request.resource.resource == 'nodeclaims' || " +
      "(has(oldObject.metadata.labels) && 'joiner.sh/nodeclaim' in oldObject.metadata.labels))",
  },
  {
    name: 'nodeclaim-not-terminating',
    expression: `oldObject == null || request.resource.resource != 'nodeclaims' || !(${nodeClaimTerminating('oldObject')})`,
  },
];
