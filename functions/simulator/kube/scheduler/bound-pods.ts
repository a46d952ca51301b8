/**
 * The pods bound to each node that are not finished, kept from the API server's changes as the
 * real kube-scheduler keeps its node infos from its informers: a scheduling pass reads each node's
 * pods without going over every pod of the cluster (with thousands of pods and a pass after every
 * burst of changes, that pass over all pods grew with pods x changes).
 */
import type { Pod } from '../../../core/model/kube-objects.js';
import type { StoreEvent } from '../api/object-store.js';

const isTerminal = (p: Pod): boolean => p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed';

/** The node a pod counts on, or undefined (unbound or finished). */
const nodeOf = (p: Pod | undefined): string | undefined =>
  p?.spec.nodeName && !isTerminal(p) ? p.spec.nodeName : undefined;

const keyOf = (p: Pod): string => `${p.metadata.namespace ?? ''}/${p.metadata.name}`;

/** The store's order of objects: by namespace, then name. */
const byKey = (a: [string, Pod], b: [string, Pod]): number => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

/** Bound, unfinished pods by node name (see the file comment). */
export class BoundPods {
  /** Node name -> store key -> pod (the stored object). */
  private readonly byNode = new Map<string, Map<string, Pod>>();
  /** Node name -> its pods in store order, until the node's pods change. */
  private readonly lists = new Map<string, readonly Pod[]>();

  /** Starts from the pods stored now. */
  constructor(pods: readonly Pod[]) {
    for (const p of pods) this.add(p);
  }

  /** Follows one change of the store (other resources are ignored). */
  onEvent(e: StoreEvent): void {
    if (e.resource !== '/pods') return;
    const old = e.oldObject as unknown as Pod | undefined;
    if (old && nodeOf(old)) this.remove(old);
    if (e.type !== 'DELETED') this.add(e.object as unknown as Pod);
  }

  /** The pods bound to `node`, in store order (the same array until they change). */
  on(node: string): readonly Pod[] {
    let list = this.lists.get(node);
    if (!list) {
      list = [...(this.byNode.get(node) ?? new Map<string, Pod>())].sort(byKey).map(([, p]) => p);
      this.lists.set(node, list);
    }
    return list;
  }

  private add(p: Pod): void {
    const node = nodeOf(p);
    if (!node) return;
    let pods = this.byNode.get(node);
    if (!pods) {
      pods = new Map();
      this.byNode.set(node, pods);
    }
    pods.set(keyOf(p), p);
    this.lists.delete(node);
  }

  private remove(p: Pod): void {
    const node = nodeOf(p) as string;
    const pods = this.byNode.get(node);
    if (!pods) return;
    pods.delete(keyOf(p));
    if (pods.size === 0) this.byNode.delete(node);
    this.lists.delete(node);
  }
}
