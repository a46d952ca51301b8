/**
 * The simulated kube-scheduler: binds pending pods (of the default scheduler) to nodes where they
 * fit through `pods/binding`, and marks the others `PodScheduled=False, reason=Unschedulable`
 * through `pods/status` (so admission webhooks see the update, as on a real cluster). The condition
 * is written when it changes, and again after `refreshMs` like the real scheduler's retries.
 */
import type { Node, Pod } from '../../../core/model/kube-objects.js';
import { parseResource } from '../../../core/model/quantity.js';
import type { Resources } from '../../../core/model/resources.js';
import type { KubeApi } from '../api/kube-api.js';
import { timestamp } from '../api/object-defaults.js';
import type { KubeObject } from '../api/object-store.js';
import { bindPod } from '../api/pod-subresources.js';
import type { SchedulerNode } from './node-fit.js';
import { placePods } from './placement.js';

const SCHEDULER_USER = 'system:kube-scheduler';

function resources(list: Record<string, string> | undefined): Resources {
  const out: Resources = {};
  for (const [k, v] of Object.entries(list ?? {})) out[k] = parseResource(k, v);
  return out;
}

const isTerminal = (p: Pod): boolean => p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed';

/** A node as the scheduler sees it, with the pods bound to it. */
export function schedulerNode(node: Node, pods: readonly Pod[]): SchedulerNode {
  return {
    name: node.metadata.name,
    labels: node.metadata.labels ?? {},
    taints: node.spec?.taints ?? [],
    allocatable: resources(node.status?.allocatable),
    capacity: resources(node.status?.capacity),
    unschedulable: node.spec?.unschedulable === true || node.metadata.deletionTimestamp !== undefined,
    ready: (node.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True'),
    pods: pods.filter((p) => p.spec.nodeName === node.metadata.name && !isTerminal(p)),
  };
}

/** Runs scheduling passes against the API. */
export class KubeScheduler {
  private readonly lastMarked = new Map<string, number>();

  constructor(
    private readonly api: KubeApi,
    private readonly refreshMs: number,
  ) {}

  /** One pass: bind what fits, mark the rest Unschedulable. */
  async pass(): Promise<void> {
    const podType = this.api.typeOf('v1', 'Pod');
    const pods = this.api.list(podType).items as unknown as Pod[];
    const nodes = (this.api.list(this.api.typeOf('v1', 'Node')).items as unknown as Node[]).map((n) =>
      schedulerNode(n, pods),
    );
    const pending = pods.filter(
      (p) =>
        !p.spec.nodeName &&
        !p.metadata.deletionTimestamp &&
        (p.spec.schedulerName ?? 'default-scheduler') === 'default-scheduler' &&
        !isTerminal(p),
    );
    if (pending.length === 0) return;
    const plan = placePods(pending, nodes);
    for (const { node, pods: keys } of plan.existingPlacements) {
      for (const key of keys) {
        const [namespace, name] = key.split('/');
        await this.tryBind(namespace, name, node);
      }
    }
    for (const { pod, reason } of plan.unschedulable) await this.markUnschedulable(pod, reason);
  }

  private async tryBind(namespace: string, name: string, node: string): Promise<void> {
    try {
      await bindPod(
        this.api,
        namespace,
        name,
        { metadata: { name, namespace }, target: { kind: 'Node', name: node } },
        { user: SCHEDULER_USER },
      );
      this.lastMarked.delete(`${namespace}/${name}`);
    } catch {
      // The pod changed or went away meanwhile (or a webhook refused): the next pass retries.
    }
  }

  private async markUnschedulable(key: string, message: string): Promise<void> {
    const [namespace, name] = key.split('/');
    const podType = this.api.typeOf('v1', 'Pod');
    const pod = this.api.find(podType, namespace, name) as unknown as Pod | undefined;
    if (!pod) return;
    const conditions = pod.status?.conditions ?? [];
    const current = conditions.find((c) => c.type === 'PodScheduled');
    const unchanged =
      current?.status === 'False' && current.reason === 'Unschedulable' && current.message === message;
    const last = this.lastMarked.get(key);
    const now = this.api.clock.now();
    if (unchanged && last !== undefined && now - last < this.refreshMs) return;
    const condition = {
      type: 'PodScheduled',
      status: 'False' as const,
      reason: 'Unschedulable',
      message,
      lastProbeTime: null,
      lastTransitionTime:
        unchanged && current?.lastTransitionTime ? current.lastTransitionTime : timestamp(now),
    };
    const status = {
      ...pod.status,
      conditions: [...conditions.filter((c) => c.type !== 'PodScheduled'), condition],
    };
    try {
      await this.api.replace(
        podType,
        namespace,
        name,
        { ...(pod as unknown as KubeObject), status },
        'status',
        {
          user: SCHEDULER_USER,
        },
      );
      this.lastMarked.set(key, now);
    } catch {
      // Changed meanwhile: retried on the next pass.
    }
  }
}
