import { DETAIL_TYPES } from '../../shared/event-rules.js';
import { JOINER_API_GROUP } from '../install/kube-manifest.js';
import { MULTUS_POD_LABEL } from '../install/match-conditions.js';
import { LABEL_NODECLAIM } from '../lifecycle/node-labels.js';
import type { JoinerEvent } from '../ports/event-publisher.js';
import type { AdmissionRequest, ReviewedObject } from './admission-review.js';

/** Label prefixes of node labels forwarded with node events (nodepool / nodeclaim ownership). */
const FORWARDED_LABEL_PREFIXES = ['karpenter.sh/', 'joiner.sh/'];

/** API groups and resources of the NodePool and NodeClass kinds (see webhook-configuration.ts). */
const CONFIG_GROUPS = ['joiner.sh', 'karpenter.sh', 'karpenter.k8s.aws'];
const CONFIG_RESOURCES = ['nodepools', 'provisioners', 'nodeclasses', 'ec2nodeclasses', 'awsnodetemplates'];

/**
 * The joiner events an admission request stands for: PodUnschedulable (a pod newly marked so),
 * NodeRegistered, NodeReady, PodReady (Multus pod), PodGone, ConfigurationChanged (also for a
 * NodePool scale write, and a karpenter.sh NodeClaim created) and NodeDeleted (a Node or a joiner
 * NodeClaim resource deleted). Requests joiner does not care about give none.
 */
export function admissionEvents(request: AdmissionRequest, time?: number): JoinerEvent[] {
  const at = time === undefined ? {} : { time };
  const resource = request.resource.group === '' ? request.resource.resource : '';
  const sub = request.subResource ?? '';
  const events: Array<Omit<JoinerEvent, 'time'>> = [];
  if (resource === 'pods') events.push(...podEvents(request, sub));
  if (resource === 'nodes' && (sub === '' || sub === 'status')) events.push(...nodeEvents(request));
  if (sub === '' && (isConfigResource(request) || isKarpenterNodeClaim(request)))
    events.push(...configurationEvents(request));
  if (sub === '' && request.operation === 'DELETE') events.push(...deletionEvents(request, resource));
  if (sub === 'scale' && isConfigResource(request) && request.resource.resource === 'nodepools')
    events.push(...scaleEvents(request));
  return events.map((event) => ({ ...event, ...at }));
}

/**
 * A Node joiner launched (it carries the nodeclaim label) or a joiner NodeClaim
 * resource being deleted: its termination flow starts at once, as Karpenter's does.
 */
function deletionEvents(request: AdmissionRequest, coreResource: string): Array<Omit<JoinerEvent, 'time'>> {
  const old = request.oldObject;
  const name = old?.metadata.name || request.name;
  if (!name) return [];
  if (request.resource.group === JOINER_API_GROUP && request.resource.resource === 'nodeclaims')
    return [{ detailType: DETAIL_TYPES.nodeDeleted, detail: { kind: 'NodeClaim', name } }];
  if (coreResource !== 'nodes' || !old) return [];
  const providerId = (old.spec as { providerID?: unknown } | undefined)?.providerID;
  const nodeClaim = old.metadata.labels?.[LABEL_NODECLAIM];
  if (!nodeClaim) return [];
  const detail = {
    kind: 'Node',
    name,
    nodeClaim,
    ...(typeof providerId === 'string' && providerId ? { providerId } : {}),
  };
  return [{ detailType: DETAIL_TYPES.nodeDeleted, detail }];
}

/**
 * A `karpenter.sh` NodeClaim (created by hand where joiner manages Karpenter's kinds): forwarded as
 * a configuration change, so joiner refuses it at once (see hand-made-nodeclaims.ts).
 */
function isKarpenterNodeClaim(request: AdmissionRequest): boolean {
  return request.resource.group === 'karpenter.sh' && request.resource.resource === 'nodeclaims';
}

function isConfigResource(request: AdmissionRequest): boolean {
  return (
    CONFIG_GROUPS.includes(request.resource.group) && CONFIG_RESOURCES.includes(request.resource.resource)
  );
}

/** A creation, or an update whose spec changed (status updates are joiner's own writes). */
function configurationEvents(request: AdmissionRequest): Array<Omit<JoinerEvent, 'time'>> {
  const { object, oldObject } = request;
  const name = object?.metadata.name || request.name;
  if (!object || !name) return [];
  const changed =
    request.operation === 'CREATE' ||
    (request.operation === 'UPDATE' && JSON.stringify(object.spec) !== JSON.stringify(oldObject?.spec));
  if (!changed) return [];
  const detail = { group: request.resource.group, kind: request.kind.kind, name };
  return [{ detailType: DETAIL_TYPES.configurationChanged, detail }];
}

/**
 * A NodePool scale write (`kubectl scale nodepool`): the objects are autoscaling/v1 Scales. A
 * changed `spec.replicas` is a configuration change of the NodePool, which wakes a provisioning
 * run (it launches what a static pool lacks, and leaves a pool with surplus alone).
 */
function scaleEvents(request: AdmissionRequest): Array<Omit<JoinerEvent, 'time'>> {
  const { object, oldObject } = request;
  const name = object?.metadata.name || request.name;
  if (request.operation !== 'UPDATE' || !object || !name) return [];
  const replicas = (o: ReviewedObject | null | undefined): unknown =>
    (o?.spec as { replicas?: unknown } | undefined)?.replicas;
  if (replicas(object) === replicas(oldObject)) return [];
  const detail = { group: request.resource.group, kind: 'NodePool', name };
  return [{ detailType: DETAIL_TYPES.configurationChanged, detail }];
}

function podEvents(request: AdmissionRequest, sub: string): Array<Omit<JoinerEvent, 'time'>> {
  const events: Array<Omit<JoinerEvent, 'time'>> = [];
  const { object, oldObject } = request;
  if (request.operation === 'UPDATE' && (sub === 'status' || sub === '') && object) {
    const ref = podRef(object, request);
    // Only the transition: a rewrite of the condition (a new message as nodes come and go) says
    // nothing new about a pod joiner already heard of (see POD_UNSCHEDULABLE).
    if (ref && !nodeNameOf(object) && isUnschedulable(object) && !(oldObject && isUnschedulable(oldObject))) {
      events.push({ detailType: DETAIL_TYPES.podUnschedulable, detail: ref });
    }
    const nodeName = nodeNameOf(object);
    if (ref && nodeName && isMultusPod(object) && becameReady(object, oldObject)) {
      events.push({ detailType: DETAIL_TYPES.podReady, detail: { ...ref, nodeName } });
    }
  }
  if (request.operation === 'DELETE' && sub === '' && oldObject) {
    const ref = podRef(oldObject, request);
    const nodeName = nodeNameOf(oldObject);
    if (ref && nodeName) events.push({ detailType: DETAIL_TYPES.podGone, detail: { ...ref, nodeName } });
  }
  return events;
}

function nodeEvents(request: AdmissionRequest): Array<Omit<JoinerEvent, 'time'>> {
  const { object, oldObject } = request;
  const nodeName = object?.metadata.name || request.name;
  if (!object || !nodeName) return [];
  const detail = nodeDetail(object, nodeName);
  const events: Array<Omit<JoinerEvent, 'time'>> = [];
  if (request.operation === 'CREATE') events.push({ detailType: DETAIL_TYPES.nodeRegistered, detail });
  const previous = request.operation === 'CREATE' ? undefined : oldObject;
  if (request.operation !== 'DELETE' && becameReady(object, previous)) {
    events.push({ detailType: DETAIL_TYPES.nodeReady, detail });
  }
  return events;
}

function nodeDetail(node: ReviewedObject, nodeName: string): Record<string, unknown> {
  const providerId = (node.spec as { providerID?: unknown } | undefined)?.providerID;
  const labels = Object.fromEntries(
    Object.entries(node.metadata.labels ?? {}).filter(([key]) =>
      FORWARDED_LABEL_PREFIXES.some((prefix) => key.startsWith(prefix)),
    ),
  );
  return {
    nodeName,
    ...(typeof providerId === 'string' && providerId ? { providerId } : {}),
    ...(Object.keys(labels).length > 0 ? { labels } : {}),
  };
}

function podRef(pod: ReviewedObject, request: AdmissionRequest) {
  const name = pod.metadata.name || request.name;
  const namespace = pod.metadata.namespace || request.namespace;
  const uid = pod.metadata.uid;
  return name && namespace && uid ? { namespace, name, uid } : undefined;
}

function nodeNameOf(pod: ReviewedObject): string | undefined {
  const nodeName = (pod.spec as { nodeName?: unknown } | undefined)?.nodeName;
  return typeof nodeName === 'string' && nodeName ? nodeName : undefined;
}

interface ConditionLike {
  type?: unknown;
  status?: unknown;
  reason?: unknown;
}

function conditions(obj: ReviewedObject | null | undefined): ConditionLike[] {
  const list = (obj?.status as { conditions?: unknown } | undefined)?.conditions;
  return Array.isArray(list) ? (list.filter((c) => c && typeof c === 'object') as ConditionLike[]) : [];
}

function isUnschedulable(pod: ReviewedObject): boolean {
  return conditions(pod).some(
    (c) => c.type === 'PodScheduled' && c.status === 'False' && c.reason === 'Unschedulable',
  );
}

function isReady(obj: ReviewedObject | null | undefined): boolean {
  return conditions(obj).some((c) => c.type === 'Ready' && c.status === 'True');
}

function becameReady(object: ReviewedObject, oldObject: ReviewedObject | null | undefined): boolean {
  return isReady(object) && !isReady(oldObject);
}

function isMultusPod(pod: ReviewedObject): boolean {
  return pod.metadata.labels?.[MULTUS_POD_LABEL.key] === MULTUS_POD_LABEL.value;
}
