import type { CoreV1Event, V1Node } from '@kubernetes/client-node';
import { PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import type {
  DaemonSet,
  Node,
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  PodDisruptionBudget,
} from '../../core/model/kube-objects.js';
import type { Clock } from '../../core/ports/clock.js';
import type {
  ClusterApi,
  ClusterEvent,
  ConfigDocument,
  EvictionResult,
  NodePatch,
} from '../../core/ports/cluster-api.js';
import type { Log } from '../../core/ports/log.js';
import { listConfigDocuments, NODE_CLASS_RESOURCES, NODE_POOL_RESOURCES } from './config-resources.js';
import type { KubeClientSource } from './kube-clients.js';
import { kubeError, orUndefined, statusOf } from './kube-errors.js';
import { listAll, toPlain } from './kube-lists.js';
import { metadataMergePatch, taintsMergePatch } from './node-patches.js';

/** Attempts of a taint patch that loses the resourceVersion race (409) before giving up. */
export const TAINT_PATCH_ATTEMPTS = 5;

const MERGE_PATCH = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

/** What the adapter needs besides the clients. */
export interface KubeClusterApiOptions {
  readonly log: Log;
  readonly clock: Clock;
  /** `source.component` / `reportingComponent` of the Events joiner writes (default `joiner`). */
  readonly component?: string;
}

/** {@link ClusterApi} over `@kubernetes/client-node` (EKS or the simulated API server). */
export class KubeClusterApi implements ClusterApi {
  constructor(
    private readonly clients: KubeClientSource,
    private readonly options: KubeClusterApiOptions,
  ) {}

  async listPendingPods(): Promise<Pod[]> {
    const { core } = await this.clients();
    const pods = await listAll<Pod>((page) =>
      core.listPodForAllNamespaces({ fieldSelector: 'spec.nodeName=,status.phase=Pending', ...page }),
    );
    return pods.filter((pod) => !pod.spec?.nodeName && isUnschedulable(pod));
  }

  async listPodsOnNode(nodeName?: string): Promise<Pod[]> {
    const { core } = await this.clients();
    const fieldSelector = nodeName ? `spec.nodeName=${nodeName}` : 'spec.nodeName!=';
    const pods = await listAll<Pod>((page) => core.listPodForAllNamespaces({ fieldSelector, ...page }));
    return pods.filter((pod) => (nodeName ? pod.spec?.nodeName === nodeName : Boolean(pod.spec?.nodeName)));
  }

  async getPod(namespace: string, name: string): Promise<Pod | undefined> {
    const { core } = await this.clients();
    const pod = await orUndefined(() => core.readNamespacedPod({ namespace, name }));
    return pod && toPlain<Pod>(pod);
  }

  async listNodes(): Promise<Node[]> {
    const { core } = await this.clients();
    return listAll<Node>((page) => core.listNode(page));
  }

  async getNode(name: string): Promise<Node | undefined> {
    const { core } = await this.clients();
    const node = await orUndefined(() => core.readNode({ name }));
    return node && toPlain<Node>(node);
  }

  async listDaemonSets(): Promise<DaemonSet[]> {
    const { apps } = await this.clients();
    return listAll<DaemonSet>((page) => apps.listDaemonSetForAllNamespaces(page));
  }

  async listPersistentVolumes(): Promise<PersistentVolume[]> {
    const { core } = await this.clients();
    return listAll<PersistentVolume>((page) => core.listPersistentVolume(page));
  }

  async listPersistentVolumeClaims(): Promise<PersistentVolumeClaim[]> {
    const { core } = await this.clients();
    return listAll<PersistentVolumeClaim>((page) => core.listPersistentVolumeClaimForAllNamespaces(page));
  }

  async listPodDisruptionBudgets(): Promise<PodDisruptionBudget[]> {
    const { policy } = await this.clients();
    return listAll<PodDisruptionBudget>((page) => policy.listPodDisruptionBudgetForAllNamespaces(page));
  }

  async listNodePoolDocuments(): Promise<ConfigDocument[]> {
    const { custom } = await this.clients();
    return listConfigDocuments(custom, NODE_POOL_RESOURCES);
  }

  async listNodeClassDocuments(): Promise<ConfigDocument[]> {
    const { custom } = await this.clients();
    return listConfigDocuments(custom, NODE_CLASS_RESOURCES);
  }

  async patchNode(name: string, patch: NodePatch): Promise<Node> {
    const { core } = await this.clients();
    let node: V1Node | undefined;
    const merge = metadataMergePatch(patch);
    try {
      if (merge) node = await core.patchNode({ name, body: merge }, MERGE_PATCH);
      if (patch.taints) node = await this.patchTaints(name, patch);
      node ??= await core.readNode({ name });
    } catch (error) {
      throw kubeError(`patching node ${name}`, error);
    }
    return toPlain<Node>(node);
  }

  /** Replaces the taints with a resourceVersion precondition, re-reading and retrying on 409. */
  private async patchTaints(name: string, patch: NodePatch): Promise<V1Node> {
    const { core } = await this.clients();
    for (let attempt = 1; ; attempt++) {
      const current = await core.readNode({ name });
      const body = taintsMergePatch(patch, current.metadata?.resourceVersion ?? '');
      try {
        return await core.patchNode({ name, body }, MERGE_PATCH);
      } catch (error) {
        if (statusOf(error) !== 409 || attempt >= TAINT_PATCH_ATTEMPTS) throw error;
        this.options.log.debug('node changed while patching taints, retrying', { node: name, attempt });
      }
    }
  }

  async deleteNode(name: string): Promise<void> {
    const { core } = await this.clients();
    try {
      await orUndefined(() => core.deleteNode({ name }));
    } catch (error) {
      throw kubeError(`deleting node ${name}`, error);
    }
  }

  async createEvents(events: readonly ClusterEvent[]): Promise<void> {
    if (events.length === 0) return;
    const { core } = await this.clients();
    await Promise.all(
      events.map(async (event) => {
        const namespace = event.involvedObject.namespace ?? 'default';
        try {
          await core.createNamespacedEvent({ namespace, body: this.eventBody(event, namespace) });
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

  private eventBody(event: ClusterEvent, namespace: string): CoreV1Event {
    const now = new Date(this.options.clock.now());
    const component = this.options.component ?? 'joiner';
    return {
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
    const { core } = await this.clients();
    try {
      await core.createNamespacedPodEviction({
        namespace,
        name,
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
}

function isUnschedulable(pod: Pod): boolean {
  return (pod.status?.conditions ?? []).some(
    (c) => c.type === 'PodScheduled' && c.status === 'False' && c.reason === 'Unschedulable',
  );
}
