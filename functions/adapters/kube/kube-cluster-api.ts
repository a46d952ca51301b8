import { isNodeOf } from '../../core/lifecycle/claim-node.js';
import { TERMINATION_FINALIZER } from '../../core/lifecycle/node-labels.js';
import type {
  DaemonSet,
  Node,
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  PodDisruptionBudget,
  StorageClass,
} from '../../core/model/kube-objects.js';
import type { Clock } from '../../core/ports/clock.js';
import type {
  ClusterApi,
  ClusterEvent,
  ConfigDocument,
  EvictionResult,
  NodePatch,
  PendingAndBoundPods,
} from '../../core/ports/cluster-api.js';
import type { ConfigObjectRef, MirroredNodeClaim } from '../../core/ports/cluster-status.js';
import type { Log } from '../../core/ports/log.js';
import type { NodeClaimResource } from '../../core/status/nodeclaim-resource.js';
import {
  KARPENTER_NODE_CLAIM_RESOURCES,
  listConfigDocuments,
  NODE_CLASS_RESOURCES,
  NODE_OVERLAY_RESOURCES,
  NODE_POOL_RESOURCES,
} from './config-resources.js';
import { EventLimiter, type EventLimits } from './event-limiter.js';
import type { KubeClientSource } from './kube-clients.js';
import { kubeError, orUndefined, statusOf } from './kube-errors.js';
import { listAll } from './kube-lists.js';
import { type ResourceType, resourcePath } from './kube-paths.js';
import type { KubeTransport } from './kube-transport.js';
import { metadataMergePatch, taintsMergePatch } from './node-patches.js';
import * as statusWriter from './status-writer.js';

/** Attempts of a taint patch that loses the resourceVersion race (409) before giving up. */
export const TAINT_PATCH_ATTEMPTS = 5;

const PODS: ResourceType = { apiVersion: 'v1', plural: 'pods' };
const NODES: ResourceType = { apiVersion: 'v1', plural: 'nodes' };
const EVENTS: ResourceType = { apiVersion: 'v1', plural: 'events' };
const PERSISTENT_VOLUMES: ResourceType = { apiVersion: 'v1', plural: 'persistentvolumes' };
const PERSISTENT_VOLUME_CLAIMS: ResourceType = { apiVersion: 'v1', plural: 'persistentvolumeclaims' };
const STORAGE_CLASSES: ResourceType = { apiVersion: 'storage.k8s.io/v1', plural: 'storageclasses' };
const DAEMON_SETS: ResourceType = { apiVersion: 'apps/v1', plural: 'daemonsets' };
const POD_DISRUPTION_BUDGETS: ResourceType = { apiVersion: 'policy/v1', plural: 'poddisruptionbudgets' };

/** What the adapter needs besides the client. */
export interface KubeClusterApiOptions {
  readonly log: Log;
  readonly clock: Clock;
  /** `source.component` / `reportingComponent` of the Events joiner writes (default `joiner`). */
  readonly component?: string;
  /** Dedupe window and rate of the Events joiner writes (default {@link DEFAULT_EVENT_LIMITS}). */
  readonly eventLimits?: EventLimits;
}

/** {@link ClusterApi} over the Kubernetes REST API (EKS or the simulated API server). */
export class KubeClusterApi implements ClusterApi {
  private readonly limiter: EventLimiter;

  constructor(
    private readonly client: KubeClientSource,
    private readonly options: KubeClusterApiOptions,
  ) {
    this.limiter = new EventLimiter(options.clock, options.eventLimits);
  }

  async listPendingPods(): Promise<Pod[]> {
    const fieldSelector = 'spec.nodeName=,status.phase=Pending';
    const pods = await listAll<Pod>(await this.client(), resourcePath(PODS), { fieldSelector });
    return pods.filter((pod) => !pod.spec?.nodeName && isUnschedulable(pod));
  }

  async listPodsOnNode(nodeName?: string): Promise<Pod[]> {
    const fieldSelector = nodeName ? `spec.nodeName=${nodeName}` : 'spec.nodeName!=';
    const pods = await listAll<Pod>(await this.client(), resourcePath(PODS), { fieldSelector });
    return pods.filter((pod) => (nodeName ? pod.spec?.nodeName === nodeName : Boolean(pod.spec?.nodeName)));
  }

  async listPendingAndBoundPods(): Promise<PendingAndBoundPods> {
    const pods = await listAll<Pod>(await this.client(), resourcePath(PODS));
    return {
      pending: pods.filter(
        (pod) => !pod.spec?.nodeName && pod.status?.phase === 'Pending' && isUnschedulable(pod),
      ),
      bound: pods.filter((pod) => Boolean(pod.spec?.nodeName)),
    };
  }

  async getPod(namespace: string, name: string): Promise<Pod | undefined> {
    const rest = await this.client();
    return orUndefined(() => rest.get<Pod>(resourcePath(PODS, { namespace, name })));
  }

  async listNodes(): Promise<Node[]> {
    return listAll<Node>(await this.client(), resourcePath(NODES));
  }

  async getNode(name: string): Promise<Node | undefined> {
    const rest = await this.client();
    return orUndefined(() => rest.get<Node>(resourcePath(NODES, { name })));
  }

  async listDaemonSets(): Promise<DaemonSet[]> {
    return listAll<DaemonSet>(await this.client(), resourcePath(DAEMON_SETS));
  }

  async listPersistentVolumes(): Promise<PersistentVolume[]> {
    return listAll<PersistentVolume>(await this.client(), resourcePath(PERSISTENT_VOLUMES));
  }

  async listPersistentVolumeClaims(): Promise<PersistentVolumeClaim[]> {
    return listAll<PersistentVolumeClaim>(await this.client(), resourcePath(PERSISTENT_VOLUME_CLAIMS));
  }

  async listStorageClasses(): Promise<StorageClass[]> {
    return listAll<StorageClass>(await this.client(), resourcePath(STORAGE_CLASSES));
  }

  async listPodDisruptionBudgets(): Promise<PodDisruptionBudget[]> {
    return listAll<PodDisruptionBudget>(await this.client(), resourcePath(POD_DISRUPTION_BUDGETS));
  }

  async listNodePoolDocuments(): Promise<ConfigDocument[]> {
    return listConfigDocuments(await this.client(), NODE_POOL_RESOURCES);
  }

  async listNodeClassDocuments(): Promise<ConfigDocument[]> {
    return listConfigDocuments(await this.client(), NODE_CLASS_RESOURCES);
  }

  async listNodeOverlayDocuments(): Promise<ConfigDocument[]> {
    return listConfigDocuments(await this.client(), NODE_OVERLAY_RESOURCES);
  }

  async listKarpenterNodeClaimDocuments(): Promise<ConfigDocument[]> {
    return listConfigDocuments(await this.client(), KARPENTER_NODE_CLAIM_RESOURCES);
  }

  async patchNode(name: string, patch: NodePatch): Promise<Node> {
    const rest = await this.client();
    const path = resourcePath(NODES, { name });
    let node: Node | undefined;
    const merge = metadataMergePatch(patch);
    try {
      if (merge) node = await rest.patch<Node>(path, 'merge', merge);
      if (patch.taints) node = await this.patchTaints(rest, name, patch);
      node ??= await rest.get<Node>(path);
    } catch (error) {
      throw kubeError(`patching node ${name}`, error);
    }
    return node;
  }

  /** Replaces the taints with a resourceVersion precondition, re-reading and retrying on 409. */
  private async patchTaints(rest: KubeTransport, name: string, patch: NodePatch): Promise<Node> {
    const path = resourcePath(NODES, { name });
    for (let attempt = 1; ; attempt++) {
      const current = await rest.get<Node>(path);
      const body = taintsMergePatch(patch, current.metadata?.resourceVersion ?? '');
      try {
        return await rest.patch<Node>(path, 'merge', body);
      } catch (error) {
        if (statusOf(error) !== 409 || attempt >= TAINT_PATCH_ATTEMPTS) throw error;
        this.options.log.debug('node changed while patching taints, retrying', { node: name, attempt });
      }
    }
  }

  async applyNodeClaims(resources: readonly NodeClaimResource[]): Promise<void> {
    if (resources.length > 0)
      await statusWriter.applyNodeClaims(await this.client(), this.options.log, resources);
  }

  async deleteNodeClaims(names: readonly string[]): Promise<void> {
    if (names.length > 0) await statusWriter.deleteNodeClaims(await this.client(), this.options.log, names);
  }

  async listNodeClaims(): Promise<MirroredNodeClaim[]> {
    return statusWriter.listNodeClaims(await this.client());
  }

  async patchConfigStatus(ref: ConfigObjectRef, status: Readonly<Record<string, unknown>>): Promise<void> {
    await statusWriter.patchConfigStatus(await this.client(), this.options.log, ref, status);
  }

  /**
   * Deletes the Node; joiner's termination finalizer is removed first (its drain is over). With
   * `instanceId`, only the Node of that instance: a name EC2 gave to a newer instance is left alone.
   */
  async deleteNode(name: string, instanceId?: string): Promise<void> {
    const rest = await this.client();
    const path = resourcePath(NODES, { name });
    try {
      const node = await orUndefined(() => rest.get<Node>(path));
      if (!node) return;
      if (instanceId !== undefined && !isNodeOf(node, instanceId)) {
        this.options.log.info('node name now belongs to another instance, not deleted', {
          node: name,
          instance: instanceId,
          providerID: node.spec?.providerID,
        });
        return;
      }
      const finalizers = node.metadata.finalizers ?? [];
      if (finalizers.includes(TERMINATION_FINALIZER)) {
        const kept = finalizers.filter((f) => f !== TERMINATION_FINALIZER);
        const patch = { metadata: { finalizers: kept.length > 0 ? kept : null } };
        if (!(await orUndefined(() => rest.patch<Node>(path, 'merge', patch)))) return;
      }
      const body = { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: node.metadata.uid } };
      await orUndefined(() => rest.request({ method: 'DELETE', path, body }));
    } catch (error) {
      // 409: the uid precondition failed, the name was taken by another instance's Node meanwhile.
      if (statusOf(error) === 409) return;
      throw kubeError(`deleting node ${name}`, error);
    }
  }

  async createEvents(all: readonly ClusterEvent[]): Promise<void> {
    const events = this.limiter.admit(all);
    const dropped = this.limiter.takeDropped();
    if (dropped > 0)
      this.options.log.debug('events not written (duplicate or over the rate limit)', { dropped });
    if (events.length === 0) return;
    const rest = await this.client();
    await Promise.all(
      events.map(async (event) => {
        const namespace = event.involvedObject.namespace ?? 'default';
        try {
          const path = resourcePath(EVENTS, { namespace });
          await rest.request({ method: 'POST', path, body: this.eventBody(event, namespace) });
        } catch (error) {
          this.options.log.warn('failed to create event', {
            involvedObject: event.involvedObject,
            reason: event.reason,
            error: (error as Error).message,
          });
        }
      }),
    );
  }

  /** A core/v1 Event (timestamps as RFC 3339 strings, as on the wire). */
  private eventBody(event: ClusterEvent, namespace: string): Record<string, unknown> {
    const now = new Date(this.options.clock.now()).toISOString();
    const component = this.options.component ?? 'joiner';
    return {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { generateName: `${event.involvedObject.name}.`, namespace },
      involvedObject: { ...event.involvedObject },
      type: event.type,
      reason: event.reason,
      message: event.message,
      source: { component },
      reportingComponent: component,
      firstTimestamp: now,
      lastTimestamp: now,
      count: 1,
    };
  }

  async evictPod(namespace: string, name: string): Promise<EvictionResult> {
    const rest = await this.client();
    try {
      await rest.request({
        method: 'POST',
        path: resourcePath(PODS, { namespace, name, subresource: 'eviction' }),
        body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace } },
      });
      return 'evicted';
    } catch (error) {
      const status = statusOf(error);
      if (status === 429) return 'blocked-by-pdb';
      if (status === 404) return 'not-found';
      throw kubeError(`evicting pod ${namespace}/${name}`, error);
    }
  }

  async deletePod(
    namespace: string,
    name: string,
    gracePeriodSeconds?: number,
  ): Promise<'deleted' | 'not-found'> {
    const rest = await this.client();
    const body: Record<string, unknown> = { apiVersion: 'v1', kind: 'DeleteOptions' };
    if (gracePeriodSeconds !== undefined)
      body.gracePeriodSeconds = Math.max(0, Math.floor(gracePeriodSeconds));
    try {
      await rest.request({ method: 'DELETE', path: resourcePath(PODS, { namespace, name }), body });
      return 'deleted';
    } catch (error) {
      if (statusOf(error) === 404) return 'not-found';
      throw kubeError(`deleting pod ${namespace}/${name}`, error);
    }
  }
}

function isUnschedulable(pod: Pod): boolean {
  return (pod.status?.conditions ?? []).some(
    (c) => c.type === 'PodScheduled' && c.status === 'False' && c.reason === 'Unschedulable',
  );
}
