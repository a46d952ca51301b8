/**
 * The simulated kube-scheduler: binds pending pods (of the default scheduler) to nodes where they
 * fit through `pods/binding`, and marks the others `PodScheduled=False, reason=Unschedulable`
 * through `pods/status` (so admission webhooks see the update, as on a real cluster). The condition
 * is written only when it changes (a new message after the pod's backoff), as the real scheduler
 * patches a pod's status only when `UpdatePodCondition` reports a change.
 * Whether a pod fits a node is decided by joiner's own scheduling predicates (requests vs
 * allocatable with pod overhead, sidecars and pod-level resources, host ports, selectors, node
 * affinity, taints, topology spread with its node inclusion policies, pod (anti-)affinity, volume
 * zones and StorageClass allowedTopologies): one run of joiner's scheduler over the existing nodes only, choosing among the nodes
 * that fit like the kube-scheduler's least-allocated scoring.
 */
import type {
  Node,
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  StorageClass,
} from '../../../core/model/kube-objects.js';
import { parseResource } from '../../../core/model/quantity.js';
import type { Resources } from '../../../core/model/resources.js';
import type { Taint } from '../../../core/model/taint.js';
import { schedule } from '../../../core/scheduling/schedule.js';
import type { ExistingNode, SchedulePlan } from '../../../core/scheduling/types.js';
import type { KubeApi } from '../api/kube-api.js';
import { timestamp } from '../api/object-defaults.js';
import type { KubeObject, StoreEvent } from '../api/object-store.js';
import { bindPod } from '../api/pod-subresources.js';
import { BoundPods } from './bound-pods.js';

const SCHEDULER_USER = 'system:kube-scheduler';
const NOT_READY: Taint = { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' };

function resources(list: Record<string, string> | undefined): Resources {
  const out: Resources = {};
  for (const [k, v] of Object.entries(list ?? {})) {
    try {
      out[k] = parseResource(k, v);
    } catch {
      // A quantity the simulator cannot read is left out, as the scheduler would not count it.
    }
  }
  return out;
}

const isTerminal = (p: Pod): boolean => p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed';

/** Whether the default scheduler has to place `p`: unbound, not deleting, not finished. */
const awaitsScheduling = (p: Pod): boolean =>
  !p.spec.nodeName &&
  !p.metadata.deletionTimestamp &&
  (p.spec.schedulerName ?? 'default-scheduler') === 'default-scheduler' &&
  !isTerminal(p);

/** Resources besides pods whose every change can change where pods fit. */
const PLACEMENT_INPUTS = new Set([
  '/nodes',
  '/persistentvolumes',
  '/persistentvolumeclaims',
  'storage.k8s.io/storageclasses',
]);

/**
 * Whether two stored values are the same JSON: the same object (the store keeps a part an update
 * did not change by reference, see ObjectStore.write) or equal serializations.
 */
const sameJson = (a: unknown, b: unknown): boolean => a === b || JSON.stringify(a) === JSON.stringify(b);

/**
 * Whether a pod's update can change any pod's placement: anything but its status, or its status
 * turning it finished (its resources free) or back.
 */
function placementChanged(old: Pod, now: Pod): boolean {
  return (
    isTerminal(old) !== isTerminal(now) ||
    old.metadata.deletionTimestamp !== now.metadata.deletionTimestamp ||
    !sameJson(old.metadata.labels, now.metadata.labels) ||
    !sameJson(old.spec, now.spec)
  );
}

/** The PodScheduled condition of a pod's status, as JSON (for comparing two versions). */
const scheduledCondition = (p: Pod): string =>
  JSON.stringify((p.status?.conditions ?? []).find((c) => c.type === 'PodScheduled') ?? null);

/**
 * Whether a status update changed a pod's PodScheduled condition to something other than
 * Unschedulable (which only the scheduler writes): someone else's write, which the scheduler's
 * next pass must look at.
 */
function otherScheduledCondition(old: Pod, now: Pod): boolean {
  const condition = (now.status?.conditions ?? []).find((c) => c.type === 'PodScheduled');
  if (condition?.status === 'False' && condition.reason === 'Unschedulable') return false;
  return scheduledCondition(old) !== scheduledCondition(now);
}

/** The store's order of objects: by namespace, then name. */
const byStoreKey = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** A node's allocatable and capacity, read once per node object (stored objects never change). */
const nodeResources = new WeakMap<Node, { allocatable: Resources; capacity: Resources }>();

function resourcesOf(node: Node): { allocatable: Resources; capacity: Resources } {
  let read = nodeResources.get(node);
  if (!read) {
    read = { allocatable: resources(node.status?.allocatable), capacity: resources(node.status?.capacity) };
    nodeResources.set(node, read);
  }
  return read;
}

/**
 * A node as the scheduler sees it, with the pods bound to it (see bound-pods.ts): cordoned or
 * deleting nodes take no pods, and a node that is not Ready carries the not-ready taint even
 * before the kubelet sets it.
 */
export function schedulerNode(node: Node, pods: readonly Pod[]): ExistingNode {
  const known = schedulerNodes.get(node);
  if (known?.pods === pods) return known;
  const view = nodeView(node, pods);
  schedulerNodes.set(node, view);
  return view;
}

/**
 * The scheduler's view of each stored node object with the pods it was last given: stored
 * objects never change (a write stores a new object) and a node's list of pods stays the same
 * array until one of its pods changes, so a pass rebuilds only the nodes that changed.
 */
const schedulerNodes = new WeakMap<Node, ExistingNode>();

function nodeView(node: Node, pods: readonly Pod[]): ExistingNode {
  const ready = (node.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
  const taints = node.spec?.taints ?? [];
  const notReady = !ready && !taints.some((t) => t.key === NOT_READY.key && t.effect === NOT_READY.effect);
  const name = node.metadata.name;
  const { allocatable, capacity } = resourcesOf(node);
  return {
    name,
    labels: { 'kubernetes.io/hostname': name, ...(node.metadata.labels ?? {}) },
    taints: notReady ? [...taints, NOT_READY] : taints,
    allocatable,
    capacity,
    unschedulable: node.spec?.unschedulable === true || node.metadata.deletionTimestamp !== undefined,
    pods,
  };
}

/** The real scheduler's message: `0/3 nodes are available: ... preemption: ...`. */
function unschedulableMessage(nodeCount: number, reason: string): string {
  if (nodeCount === 0) return 'no nodes available to schedule pods';
  return (
    `${reason}. preemption: 0/${nodeCount} nodes are available: ` +
    `${nodeCount} Preemption is not helpful for scheduling.`
  );
}

/** Where the pending pods go on the existing nodes, decided by joiner's scheduler without NodePools. */
export function placeOnNodes(
  pending: readonly Pod[],
  nodes: readonly ExistingNode[],
  volumes: {
    pvs: readonly PersistentVolume[];
    pvcs: readonly PersistentVolumeClaim[];
    classes?: readonly StorageClass[];
  },
): SchedulePlan {
  const plan = schedule({
    pods: pending,
    nodes,
    inFlight: [],
    daemonSets: [],
    persistentVolumes: volumes.pvs,
    persistentVolumeClaims: volumes.pvcs,
    storageClasses: volumes.classes ?? [],
    pools: [],
    existingNodeChoice: 'least-allocated',
    kubeSchedulerRules: true,
    skipImprovement: true,
  });
  return {
    ...plan,
    unschedulable: plan.unschedulable.map((u) => ({
      pod: u.pod,
      reason: unschedulableMessage(nodes.length, u.reason),
    })),
  };
}

/** Concurrent status updates of a pass (kube-scheduler's default parallelism is 16). */
const STATUS_PARALLELISM = 16;

/** kube-scheduler's `podInitialBackoffSeconds` and `podMaxBackoffSeconds` defaults, in ms. */
const INITIAL_BACKOFF_MS = 1_000;
const MAX_BACKOFF_MS = 10_000;

/**
 * How long a pod that failed `attempts` times waits before its next attempt: doubling from 1 s,
 * at most 10 s, as kube-scheduler's backoff queue.
 */
export function schedulingBackoffMs(attempts: number): number {
  return Math.min(INITIAL_BACKOFF_MS * 2 ** Math.max(0, attempts - 1), MAX_BACKOFF_MS);
}

/** When a pod was last marked Unschedulable, and how many failed attempts it has had. */
interface Marked {
  readonly at: number;
  readonly attempts: number;
}

/** Runs scheduling passes against the API. */
export class KubeScheduler {
  private readonly lastMarked = new Map<string, Marked>();
  /**
   * The store keys (`namespace/name`) of the pods awaiting scheduling, kept from the store's
   * changes as the real scheduler's queue is kept from its informer: a pass with nothing pending
   * costs nothing, however many pods are bound.
   */
  private readonly queue = new Set<string>();
  /**
   * Whether something a placement depends on changed since the last full pass: a node, a volume, a
   * pod added, removed, bound, deleting, finished or with new labels or spec. Status updates of
   * pods (Running, Ready, the scheduler's own Unschedulable marks) change no placement, so until
   * one of those changes a pass re-uses the last pass's verdicts ({@link unplaced}) instead of
   * running the scheduler again over every pending pod, as the real scheduler re-queues
   * unschedulable pods only on the cluster events that can make them fit.
   */
  private stale = true;
  /** The unschedulable pods of the last full pass and why (store key, message). */
  private unplaced: readonly { readonly pod: string; readonly reason: string }[] = [];
  /**
   * Until when (virtual ms) no pod of {@link unplaced} needs its status written again (its backoff
   * is not due): a pass that re-uses the last verdicts before then writes nothing, so it skips
   * going over them. Reset when another writer changes a pod's PodScheduled condition.
   */
  private quietUntil = 0;
  /**
   * The pods of {@link unplaced} whose status still has to be written, and from when (virtual ms):
   * a new verdict waiting out the pod's backoff, or a condition another writer changed. A pass
   * that re-uses the last verdicts visits only these, not every pending pod.
   */
  private readonly due = new Map<string, number>();

  /** The pods bound to each node, kept from the store's changes. */
  private readonly bound: BoundPods;

  constructor(private readonly api: KubeApi) {
    const pods = api.view(api.typeOf('v1', 'Pod')) as unknown as readonly Pod[];
    for (const p of pods)
      if (awaitsScheduling(p)) this.queue.add(`${p.metadata.namespace ?? ''}/${p.metadata.name}`);
    this.bound = new BoundPods(pods);
    api.store.subscribe((e) => this.onEvent(e));
  }

  private onEvent(e: StoreEvent): void {
    this.bound.onEvent(e);
    if (PLACEMENT_INPUTS.has(e.resource)) this.stale = true;
    if (e.resource !== '/pods') return;
    const pod = e.object as unknown as Pod;
    const key = `${pod.metadata.namespace ?? ''}/${pod.metadata.name}`;
    if (e.type !== 'DELETED' && awaitsScheduling(pod)) this.queue.add(key);
    else {
      this.queue.delete(key);
      this.due.delete(key);
    }
    if (e.type !== 'MODIFIED' || !e.oldObject || placementChanged(e.oldObject as unknown as Pod, pod))
      this.stale = true;
    else if (otherScheduledCondition(e.oldObject as unknown as Pod, pod)) {
      this.due.set(key, 0);
      this.quietUntil = 0;
    }
  }

  /** One pass: bind what fits, mark the rest Unschedulable. */
  async pass(): Promise<void> {
    if (this.queue.size === 0) return;
    if (!this.stale) {
      const now = this.api.clock.now();
      if (now >= this.quietUntil)
        await this.markAll(
          this.unplaced.filter((u) => (this.due.get(u.pod) ?? Number.POSITIVE_INFINITY) <= now),
        );
      return;
    }
    // Changes from here on (this pass's own bindings included) make the next pass a full one.
    this.stale = false;
    const podType = this.api.typeOf('v1', 'Pod');
    const pvs = this.api.view(
      this.api.typeOf('v1', 'PersistentVolume'),
    ) as unknown as readonly PersistentVolume[];
    const pvcs = this.api.view(
      this.api.typeOf('v1', 'PersistentVolumeClaim'),
    ) as unknown as readonly PersistentVolumeClaim[];
    const classes = this.api.view(
      this.api.typeOf('storage.k8s.io/v1', 'StorageClass'),
    ) as unknown as readonly StorageClass[];
    const pending = [...this.queue]
      .sort(byStoreKey)
      .map((key) => {
        const slash = key.indexOf('/');
        return this.api.peek(podType, key.slice(0, slash), key.slice(slash + 1)) as unknown as Pod;
      })
      .filter((p) => p !== undefined && awaitsScheduling(p));
    if (pending.length === 0) {
      this.unplaced = [];
      return;
    }
    const nodes = (this.api.view(this.api.typeOf('v1', 'Node')) as unknown as readonly Node[]).map((n) =>
      schedulerNode(n, this.bound.on(n.metadata.name)),
    );
    const plan = placeOnNodes(pending, nodes, { pvs, pvcs, classes });
    for (const { node, pods: keys } of plan.existingPlacements) {
      for (const key of keys) {
        const [namespace, name] = key.split('/');
        await this.tryBind(namespace, name, node);
      }
    }
    this.unplaced = plan.unschedulable;
    this.due.clear();
    await this.markAll(plan.unschedulable);
  }

  /** Like kube-scheduler, status updates of failed pods go out in parallel (each passes admission). */
  private async markAll(
    unplaced: readonly { readonly pod: string; readonly reason: string }[],
  ): Promise<void> {
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < unplaced.length) {
        const u = unplaced[next++];
        const at = await this.markUnschedulable(u.pod, u.reason);
        if (at === Number.POSITIVE_INFINITY) this.due.delete(u.pod);
        else this.due.set(u.pod, at);
      }
    };
    await Promise.all(Array.from({ length: Math.min(STATUS_PARALLELISM, unplaced.length) }, worker));
    let quietUntil = Number.POSITIVE_INFINITY;
    for (const at of this.due.values()) quietUntil = Math.min(quietUntil, at);
    this.quietUntil = quietUntil;
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
      this.stale = true;
    }
  }

  /**
   * Writes the pod's Unschedulable condition when it changed (after the pod's backoff); returns
   * when it is next due (virtual ms; never while it stays unchanged; now when it should be tried
   * again at once).
   */
  private async markUnschedulable(key: string, message: string): Promise<number> {
    const [namespace, name] = key.split('/');
    const podType = this.api.typeOf('v1', 'Pod');
    const pod = this.api.peek(podType, namespace, name) as unknown as Pod | undefined;
    if (!pod) return Number.POSITIVE_INFINITY;
    const conditions = pod.status?.conditions ?? [];
    const current = conditions.find((c) => c.type === 'PodScheduled');
    const unchanged =
      current?.status === 'False' && current.reason === 'Unschedulable' && current.message === message;
    // An unchanged condition is not written again (the real scheduler's UpdatePodCondition finds
    // nothing changed and sends no patch): only a new verdict of a full pass changes it.
    if (unchanged) return Number.POSITIVE_INFINITY;
    const last = this.lastMarked.get(key);
    const now = this.api.clock.now();
    // A pod already marked Unschedulable is retried after its backoff (and a new reason, e.g. a
    // new node count in the message, is written then), not on every cluster change: with
    // hundreds of pods pending while nodes join one by one, re-writing every pod's status at
    // every node would call the admission webhooks nodes x pods times.
    const wasUnschedulable = current?.status === 'False' && current.reason === 'Unschedulable';
    if (
      !unchanged &&
      wasUnschedulable &&
      last !== undefined &&
      now - last.at < schedulingBackoffMs(last.attempts)
    )
      return last.at + schedulingBackoffMs(last.attempts);
    const condition = {
      type: 'PodScheduled',
      status: 'False' as const,
      reason: 'Unschedulable',
      message,
      lastProbeTime: null,
      // Kept while the status stays False (a new reason or message is no transition).
      lastTransitionTime:
        current?.status === 'False' && current.lastTransitionTime
          ? current.lastTransitionTime
          : timestamp(now),
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
      this.lastMarked.set(key, { at: now, attempts: (last?.attempts ?? 0) + 1 });
      return Number.POSITIVE_INFINITY;
    } catch {
      // Changed meanwhile: retried on the next pass.
      return now;
    }
  }
}
