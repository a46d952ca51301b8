/**
 * Watches the simulated cluster's storage and the simulated EC2 while a scenario plays, and keeps
 * the moments that matter: per pod when it became Unschedulable, bound and Running; per node when
 * it became Ready, when its startup taints went and when its Multus pod was Ready; per instance
 * when it first appeared. Each moment is kept in virtual time and in wall time.
 */
import type { Node, Pod } from '../../core/model/kube-objects.js';
import type { Ec2Simulator } from '../ec2/ec2-simulator.js';
import type { ObjectStore, StoreEvent } from '../kube/api/object-store.js';
import { isMultusPod } from '../kube/kubelet/pod-status.js';

/** A moment on both clocks. */
export interface Stamp {
  /** Virtual epoch ms. */
  readonly virtual: number;
  /** Wall epoch ms. */
  readonly wall: number;
}

/** What happened to one workload pod. */
export interface PodTimeline {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  created?: Stamp;
  unschedulable?: Stamp;
  bound?: Stamp;
  running?: Stamp;
  nodeName?: string;
  /**
   * The instance of the node the pod was bound to, as of the binding (node names are private DNS
   * names, which EC2 hands to later instances: the node's current instance may be another).
   */
  instanceId?: string;
  deleted?: Stamp;
}

/** What happened to one node. */
export interface NodeTimeline {
  readonly name: string;
  registered?: Stamp;
  ready?: Stamp;
  multusReady?: Stamp;
  /** Taint key -> when it was removed. */
  readonly taintRemoved: Map<string, Stamp>;
}

const isDaemonPod = (pod: Pod): boolean =>
  (pod.metadata.ownerReferences ?? []).some((o) => o.kind === 'DaemonSet');

const isUnschedulable = (pod: Pod): boolean =>
  (pod.status?.conditions ?? []).some(
    (c) => c.type === 'PodScheduled' && c.status === 'False' && c.reason === 'Unschedulable',
  );

const isReady = (conditions: readonly { type: string; status: string }[] | undefined): boolean =>
  (conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');

/** Records pod, node and instance timelines until stopped. */
export class LatencyRecorder {
  readonly pods = new Map<string, PodTimeline>();
  readonly nodes = new Map<string, NodeTimeline>();
  /** Instance id -> first seen in the simulated EC2. */
  readonly instances = new Map<string, Stamp>();
  /** Node name -> instance id (from the providerID). */
  readonly nodeInstances = new Map<string, string>();
  private readonly unsubscribe: () => void;
  private readonly poll: NodeJS.Timeout;

  constructor(
    store: ObjectStore,
    private readonly ec2: Ec2Simulator,
    private readonly now: () => number,
    pollMs = 5,
  ) {
    this.unsubscribe = store.subscribe((event) => this.onEvent(event));
    this.poll = setInterval(() => this.scanInstances(), pollMs);
  }

  /** Stops watching. */
  stop(): void {
    this.scanInstances();
    this.unsubscribe();
    clearInterval(this.poll);
  }

  /** Records instances that appeared since the last scan. */
  scanInstances(): void {
    if (this.ec2.state.instances.size === this.instances.size) return;
    for (const id of this.ec2.state.instances.keys()) {
      if (!this.instances.has(id)) this.instances.set(id, this.stamp());
    }
  }

  private stamp(): Stamp {
    return { virtual: this.now(), wall: Date.now() };
  }

  private onEvent(event: StoreEvent): void {
    const kind = event.object.kind;
    if (event.resource === '/pods' || kind === 'Pod') this.onPod(event);
    else if (event.resource === '/nodes' || kind === 'Node') this.onNode(event);
  }

  private onPod(event: StoreEvent): void {
    const pod = event.object as unknown as Pod;
    if (isMultusPod(pod)) {
      this.onMultusPod(pod);
      return;
    }
    if (isDaemonPod(pod)) return;
    const uid = pod.metadata.uid ?? `${pod.metadata.namespace}/${pod.metadata.name}`;
    let t = this.pods.get(uid);
    if (!t) {
      t = { namespace: pod.metadata.namespace ?? 'default', name: pod.metadata.name, uid };
      this.pods.set(uid, t);
    }
    const at = this.stamp();
    if (event.type === 'DELETED') {
      t.deleted ??= at;
      return;
    }
    t.created ??= at;
    if (!t.unschedulable && isUnschedulable(pod)) t.unschedulable = at;
    if (!t.bound && pod.spec?.nodeName) {
      t.bound = at;
      t.nodeName = pod.spec.nodeName;
      t.instanceId = this.nodeInstances.get(pod.spec.nodeName);
    }
    if (!t.running && pod.status?.phase === 'Running') t.running = at;
  }

  private onMultusPod(pod: Pod): void {
    const nodeName = pod.spec?.nodeName;
    if (!nodeName || !isReady(pod.status?.conditions)) return;
    const node = this.node(nodeName);
    node.multusReady ??= this.stamp();
  }

  private onNode(event: StoreEvent): void {
    const node = event.object as unknown as Node;
    const t = this.node(node.metadata.name);
    if (event.type === 'DELETED') return;
    const at = this.stamp();
    t.registered ??= at;
    const instanceId = /\/(i-[0-9a-f]+)$/.exec(node.spec?.providerID ?? '')?.[1];
    if (instanceId) this.nodeInstances.set(node.metadata.name, instanceId);
    if (!t.ready && isReady(node.status?.conditions)) t.ready = at;
    const before = new Set(
      ((event.oldObject as unknown as Node | undefined)?.spec?.taints ?? []).map((x) => x.key),
    );
    const after = new Set((node.spec?.taints ?? []).map((x) => x.key));
    for (const key of before) if (!after.has(key) && !t.taintRemoved.has(key)) t.taintRemoved.set(key, at);
  }

  private node(name: string): NodeTimeline {
    let t = this.nodes.get(name);
    if (!t) {
      t = { name, taintRemoved: new Map() };
      this.nodes.set(name, t);
    }
    return t;
  }
}

/** The p-th percentile (0-100) by nearest rank; undefined for no samples. */
export function percentile(samples: readonly number[], p: number): number | undefined {
  if (samples.length === 0) return undefined;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}
