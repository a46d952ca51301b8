/**
 * The details of the compact events joiner publishes on its bus (the webhook and the safety-net
 * sweep write them; the provisioner and lifecycle functions read them). They are hints: a reader
 * re-reads the objects they name from the API server before acting on them.
 */
import * as z from 'zod';
import { DETAIL_TYPES } from '../../shared/event-rules.js';

const name = z.string().min(1).max(253);

/** A pod named by an event. */
export const podRefDetail = z.object({ namespace: name, name, uid: z.string().min(1) });

/** `PodUnschedulable`: the pod's PodScheduled condition is False with reason Unschedulable. */
export const podUnschedulableDetail = podRefDetail;

/** `NodeRegistered` / `NodeReady`: a node was created / turned Ready. */
export const nodeDetail = z.object({
  nodeName: name,
  /** `aws:///us-west-2a/i-0123...` when the kubelet set it. */
  providerId: z.string().optional(),
  /** Labels joiner reads without a round trip (nodeclaim / nodepool labels), when present. */
  labels: z.record(z.string(), z.string()).optional(),
});

/** `PodReady` (the Multus daemonset pod turned Ready) / `PodGone` (a bound pod was deleted). */
export const boundPodDetail = podRefDetail.extend({ nodeName: name });

/** `ConfigurationChanged`: a NodePool or NodeClass (by API group, kind and name) was created or changed. */
export const configurationChangedDetail = z.object({ group: name, kind: name, name });

/**
 * `NodeDeleted`: someone deleted a Node joiner launched (by its name, instance and nodeclaim label)
 * or a joiner NodeClaim resource (by its name, the claim's id).
 */
export const nodeDeletedDetail = z.object({
  kind: z.enum(['Node', 'NodeClaim']),
  name,
  /** Node only: `aws:///us-west-2a/i-0123...`. */
  providerId: z.string().optional(),
  /** Node only: its `joiner.sh/nodeclaim` label. */
  nodeClaim: name.optional(),
});

/** The detail schema of each of joiner's detail-types. */
export const JOINER_EVENT_DETAILS = {
  [DETAIL_TYPES.podUnschedulable]: podUnschedulableDetail,
  [DETAIL_TYPES.nodeRegistered]: nodeDetail,
  [DETAIL_TYPES.nodeReady]: nodeDetail,
  [DETAIL_TYPES.podReady]: boundPodDetail,
  [DETAIL_TYPES.podGone]: boundPodDetail,
  [DETAIL_TYPES.configurationChanged]: configurationChangedDetail,
  [DETAIL_TYPES.nodeDeleted]: nodeDeletedDetail,
} as const;

export type PodRefDetail = z.infer<typeof podRefDetail>;
export type NodeDetail = z.infer<typeof nodeDetail>;
export type BoundPodDetail = z.infer<typeof boundPodDetail>;
export type NodeDeletedDetail = z.infer<typeof nodeDeletedDetail>;

/** The EventBridge envelope as an SQS target receives it (only the fields joiner reads). */
export const eventEnvelope = z.object({
  id: z.string(),
  'detail-type': z.string(),
  source: z.string(),
  time: z.string(),
  detail: z.unknown(),
});
export type EventEnvelope = z.infer<typeof eventEnvelope>;
