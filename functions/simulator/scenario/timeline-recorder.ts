/**
 * Records how the cluster evolves while a scenario plays, for the HTML report: after every change
 * of a workload pod or a node, one point (virtual time) with the pods pending and running, the
 * nodes per NodePool and capacity type, and the hourly cost of the nodes. Points at the same
 * virtual millisecond are merged; the counts are kept incrementally, so a change costs O(1).
 */
import type { Node, Pod } from '../../core/model/kube-objects.js';
import type { ObjectStore, StoreEvent } from '../kube/api/object-store.js';

/** The cluster at one moment. */
export interface TimelinePoint {
  /** Virtual epoch ms. */
  readonly at: number;
  readonly pending: number;
  readonly running: number;
  /** Nodes per `nodepool/capacity-type` (`-` when a node has no NodePool label). */
  readonly nodes: Readonly<Record<string, number>>;
  /** Sum of the nodes' hourly prices (USD). */
  readonly hourlyCost: number;
}

type PodState = 'pending' | 'running' | 'other';

interface NodeState {
  readonly key: string;
  readonly price: number;
}

const isDaemonPod = (pod: Pod): boolean =>
  (pod.metadata.ownerReferences ?? []).some((o) => o.kind === 'DaemonSet');

/** Hourly price of a node (from its instance type, zone and capacity type labels). */
export type NodePrice = (node: Node) => number;

/** Records the cluster's timeline until stopped. */
export class TimelineRecorder {
  private readonly pods = new Map<string, PodState>();
  private readonly nodes = new Map<string, NodeState>();
  private readonly counts = { pending: 0, running: 0 };
  private readonly nodeCounts = new Map<string, number>();
  private cost = 0;
  private readonly points: TimelinePoint[] = [];
  private readonly unsubscribe: () => void;

  constructor(
    store: ObjectStore,
    private readonly now: () => number,
    private readonly price: NodePrice,
  ) {
    this.unsubscribe = store.subscribe((event) => this.onEvent(event));
  }

  /** Starts the timeline at the current state (the scenario's first moment). */
  mark(): void {
    this.push();
  }

  /** The points so far, oldest first, ending with the state now (so step charts reach the end). */
  timeline(): readonly TimelinePoint[] {
    this.push(true);
    return this.points;
  }

  stop(): void {
    this.unsubscribe();
  }

  private onEvent(event: StoreEvent): void {
    const { object } = event;
    const deleted = event.type === 'DELETED';
    if (event.resource === '/pods' || object.kind === 'Pod') this.onPod(object as unknown as Pod, deleted);
    else if (event.resource === '/nodes' || object.kind === 'Node')
      this.onNode(object as unknown as Node, deleted);
    else return;
    this.push();
  }

  private onPod(pod: Pod, deleted: boolean): void {
    if (isDaemonPod(pod)) return;
    const uid = pod.metadata.uid ?? `${pod.metadata.namespace}/${pod.metadata.name}`;
    const before = this.pods.get(uid);
    const phase = pod.status?.phase ?? 'Pending';
    const after: PodState | undefined = deleted
      ? undefined
      : phase === 'Pending'
        ? 'pending'
        : phase === 'Running'
          ? 'running'
          : 'other';
    if (before === after) return;
    if (before === 'pending' || before === 'running') this.counts[before]--;
    if (after === 'pending' || after === 'running') this.counts[after]++;
    if (after) this.pods.set(uid, after);
    else this.pods.delete(uid);
  }

  private onNode(node: Node, deleted: boolean): void {
    const name = node.metadata.name;
    const before = this.nodes.get(name);
    if (before) {
      this.nodeCounts.set(before.key, (this.nodeCounts.get(before.key) ?? 1) - 1);
      this.cost -= before.price;
      this.nodes.delete(name);
    }
    if (deleted) return;
    const labels = node.metadata.labels ?? {};
    const key = `${labels['karpenter.sh/nodepool'] ?? '-'}/${labels['karpenter.sh/capacity-type'] ?? 'unknown'}`;
    const state = { key, price: this.price(node) };
    this.nodes.set(name, state);
    this.nodeCounts.set(key, (this.nodeCounts.get(key) ?? 0) + 1);
    this.cost += state.price;
  }

  private push(always = false): void {
    const point: TimelinePoint = {
      at: this.now(),
      pending: this.counts.pending,
      running: this.counts.running,
      nodes: Object.fromEntries([...this.nodeCounts].filter(([, n]) => n > 0)),
      hourlyCost: Math.round(this.cost * 10_000) / 10_000,
    };
    const last = this.points.at(-1);
    if (last && last.at === point.at) this.points[this.points.length - 1] = point;
    else if (always || !last || !samePoint(last, point)) this.points.push(point);
  }
}

function samePoint(a: TimelinePoint, b: TimelinePoint): boolean {
  return (
    a.pending === b.pending &&
    a.running === b.running &&
    a.hourlyCost === b.hourlyCost &&
    JSON.stringify(a.nodes) === JSON.stringify(b.nodes)
  );
}
