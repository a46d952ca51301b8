/**
 * Records how the cluster evolves while a scenario plays, for the HTML report: after every change
 * of a pod or a node, one point (virtual time) with the workload pods pending and running, the
 * nodes per NodePool and capacity type, per instance type and per zone, the CPU and memory the
 * bound pods request against what the nodes can allocate (what consolidation is judged on), and
 * the hourly cost of the nodes. Points at the same
 * virtual millisecond are merged; the counts are kept incrementally, so a change costs O(1).
 */
import type { Node, Pod } from '../../core/model/kube-objects.js';
import { parseResource } from '../../core/model/quantity.js';
import { CPU, MEMORY } from '../../core/model/resources.js';
import { podRequests } from '../../core/scheduling/pod-requests.js';
import type { ObjectStore, StoreEvent } from '../kube/api/object-store.js';

/** The cluster at one moment. */
export interface TimelinePoint {
  /** Virtual epoch ms. */
  readonly at: number;
  readonly pending: number;
  readonly running: number;
  /** Nodes per `nodepool/capacity-type` (`-` when a node has no NodePool label). */
  readonly nodes: Readonly<Record<string, number>>;
  /** Nodes per instance type (`node.kubernetes.io/instance-type`). */
  readonly nodesByType: Readonly<Record<string, number>>;
  /** Nodes per zone (`topology.kubernetes.io/zone`). */
  readonly nodesByZone: Readonly<Record<string, number>>;
  /** CPU (cores) and memory (GiB) requested by the pods bound to nodes, daemon pods included. */
  readonly requested: { readonly cpu: number; readonly memoryGiB: number };
  /** CPU (cores) and memory (GiB) the nodes can allocate (their status.allocatable). */
  readonly allocatable: { readonly cpu: number; readonly memoryGiB: number };
  /** Sum of the nodes' hourly prices (USD). */
  readonly hourlyCost: number;
}

/** CPU millicores and memory bytes. */
interface Room {
  readonly cpu: number;
  readonly memory: number;
}

const GIB = 1024 ** 3;

function podRoom(pod: Pod): Room {
  try {
    const r = podRequests(pod);
    return { cpu: r[CPU] ?? 0, memory: r[MEMORY] ?? 0 };
  } catch {
    return { cpu: 0, memory: 0 };
  }
}

function nodeRoom(node: Node): Room {
  const a = (node.status?.allocatable ?? {}) as Record<string, string | number>;
  const read = (name: string): number => {
    try {
      return a[name] === undefined ? 0 : parseResource(name, a[name]);
    } catch {
      return 0;
    }
  };
  return { cpu: read(CPU), memory: read(MEMORY) };
}

/** Adds `by` to a count map, dropping keys that reach 0. */
function bump(counts: Map<string, number>, key: string, by: number): void {
  const n = (counts.get(key) ?? 0) + by;
  if (n > 0) counts.set(key, n);
  else counts.delete(key);
}

type PodState = 'pending' | 'running' | 'other';

interface NodeState {
  readonly key: string;
  readonly type: string;
  readonly zone: string;
  readonly room: Room;
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
  private readonly typeCounts = new Map<string, number>();
  private readonly zoneCounts = new Map<string, number>();
  /** Requests of the pods bound to a node, by pod uid. */
  private readonly bound = new Map<string, Room>();
  private requested = { cpu: 0, memory: 0 };
  private allocatable = { cpu: 0, memory: 0 };
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
    const uid = pod.metadata.uid ?? `${pod.metadata.namespace}/${pod.metadata.name}`;
    const wasBound = this.bound.get(uid);
    if (wasBound) {
      this.requested = {
        cpu: this.requested.cpu - wasBound.cpu,
        memory: this.requested.memory - wasBound.memory,
      };
      this.bound.delete(uid);
    }
    const phase = pod.status?.phase ?? 'Pending';
    if (!deleted && pod.spec?.nodeName && phase !== 'Succeeded' && phase !== 'Failed') {
      const room = podRoom(pod);
      this.bound.set(uid, room);
      this.requested = { cpu: this.requested.cpu + room.cpu, memory: this.requested.memory + room.memory };
    }
    if (isDaemonPod(pod)) return;
    const before = this.pods.get(uid);
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
      bump(this.nodeCounts, before.key, -1);
      bump(this.typeCounts, before.type, -1);
      bump(this.zoneCounts, before.zone, -1);
      this.allocatable = {
        cpu: this.allocatable.cpu - before.room.cpu,
        memory: this.allocatable.memory - before.room.memory,
      };
      this.cost -= before.price;
      this.nodes.delete(name);
    }
    if (deleted) return;
    const labels = node.metadata.labels ?? {};
    const key = `${labels['karpenter.sh/nodepool'] ?? '-'}/${labels['karpenter.sh/capacity-type'] ?? 'unknown'}`;
    const state: NodeState = {
      key,
      type: labels['node.kubernetes.io/instance-type'] ?? 'unknown',
      zone: labels['topology.kubernetes.io/zone'] ?? 'unknown',
      room: nodeRoom(node),
      price: this.price(node),
    };
    this.nodes.set(name, state);
    bump(this.nodeCounts, key, 1);
    bump(this.typeCounts, state.type, 1);
    bump(this.zoneCounts, state.zone, 1);
    this.allocatable = {
      cpu: this.allocatable.cpu + state.room.cpu,
      memory: this.allocatable.memory + state.room.memory,
    };
    this.cost += state.price;
  }

  private push(always = false): void {
    const point: TimelinePoint = {
      at: this.now(),
      pending: this.counts.pending,
      running: this.counts.running,
      nodes: Object.fromEntries([...this.nodeCounts].filter(([, n]) => n > 0)),
      nodesByType: Object.fromEntries(this.typeCounts),
      nodesByZone: Object.fromEntries(this.zoneCounts),
      requested: { cpu: round(this.requested.cpu / 1000), memoryGiB: round(this.requested.memory / GIB) },
      allocatable: {
        cpu: round(this.allocatable.cpu / 1000),
        memoryGiB: round(this.allocatable.memory / GIB),
      },
      hourlyCost: Math.round(this.cost * 10_000) / 10_000,
    };
    const last = this.points.at(-1);
    if (last && last.at === point.at) this.points[this.points.length - 1] = point;
    else if (always || !last || !samePoint(last, point)) this.points.push(point);
  }
}

const round = (n: number): number => Math.round(n * 1000) / 1000;

function samePoint(a: TimelinePoint, b: TimelinePoint): boolean {
  return (
    a.pending === b.pending &&
    a.running === b.running &&
    a.hourlyCost === b.hourlyCost &&
    JSON.stringify([a.nodes, a.nodesByType, a.nodesByZone, a.requested, a.allocatable]) ===
      JSON.stringify([b.nodes, b.nodesByType, b.nodesByZone, b.requested, b.allocatable])
  );
}
