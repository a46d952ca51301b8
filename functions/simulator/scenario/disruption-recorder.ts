/**
 * Watches the simulated cluster's Nodes while a scenario plays and keeps, per NodePool (node label
 * `karpenter.sh/nodepool`), the nodes that ever existed, the most nodes disrupting at the same
 * moment (carrying the `karpenter.sh/disrupted` taint, or being deleted) and each node removal with
 * when the node was tainted and when it went. Times are virtual.
 */
import type { Node } from '../../core/model/kube-objects.js';
import type { ObjectStore, StoreEvent } from '../kube/api/object-store.js';

/** The label that names a node's NodePool. */
export const NODEPOOL_LABEL = 'karpenter.sh/nodepool';
/** The taint joiner (and Karpenter) puts on a node it is disrupting. */
export const DISRUPTED_TAINT_KEY = 'karpenter.sh/disrupted';

/** One node that went away. */
export interface NodeRemoval {
  readonly node: string;
  /**
   * Virtual epoch ms when its disruption began: it got the disrupted taint or a deletionTimestamp
   * (absent when it went without either, e.g. its instance was terminated first).
   */
  readonly disruptedAt?: number;
  /** Virtual epoch ms when its Node object was removed. */
  readonly removedAt: number;
}

/** What happened to one NodePool's nodes. */
export interface PoolDisruption {
  /**
   * Names of the nodes that ever existed, in order of appearance: one entry per Node object (by
   * uid), so a name a later node reuses (its private IP was freed) appears twice.
   */
  readonly nodes: readonly string[];
  /** The most nodes disrupting at the same moment. */
  readonly maxDisrupting: number;
  readonly removals: readonly NodeRemoval[];
}

interface PoolState {
  /** Node uid (name when it has none) -> name. */
  readonly nodes: Map<string, string>;
  readonly disrupting: Set<string>;
  maxDisrupting: number;
  readonly removals: NodeRemoval[];
}

/** Whether a node is being disrupted: tainted `karpenter.sh/disrupted` or being deleted. */
export function isDisrupting(node: Node): boolean {
  return (
    Boolean(node.metadata.deletionTimestamp) ||
    (node.spec?.taints ?? []).some((t) => t.key === DISRUPTED_TAINT_KEY)
  );
}

/** Records node disruptions per NodePool until stopped. */
export class DisruptionRecorder {
  private readonly pools = new Map<string, PoolState>();
  /** Node name -> when it started disrupting. */
  private readonly disruptedAt = new Map<string, number>();
  private readonly unsubscribe: () => void;

  constructor(
    store: ObjectStore,
    private readonly now: () => number,
  ) {
    this.unsubscribe = store.subscribe((event) => this.onEvent(event));
  }

  /** Stops watching. */
  stop(): void {
    this.unsubscribe();
  }

  /** Per NodePool name, what happened to its nodes (pools in name order). */
  byPool(): Record<string, PoolDisruption> {
    const names = [...this.pools.keys()].sort();
    return Object.fromEntries(
      names.map((name) => {
        const p = this.pools.get(name) as PoolState;
        return [
          name,
          { nodes: [...p.nodes.values()], maxDisrupting: p.maxDisrupting, removals: [...p.removals] },
        ];
      }),
    );
  }

  /** Node objects removed so far, over every NodePool. */
  removedCount(): number {
    let removed = 0;
    for (const pool of this.pools.values()) removed += pool.removals.length;
    return removed;
  }

  /** The most nodes of `pool` disrupting at once (0 for a pool never seen). */
  maxDisrupting(pool: string): number {
    return this.pools.get(pool)?.maxDisrupting ?? 0;
  }

  private onEvent(event: StoreEvent): void {
    if (event.resource !== '/nodes') return;
    const node = event.object as unknown as Node;
    const poolName = node.metadata.labels?.[NODEPOOL_LABEL];
    if (poolName === undefined) return;
    const pool = this.pool(poolName);
    const name = node.metadata.name;
    if (event.type === 'DELETED') {
      pool.disrupting.delete(name);
      pool.removals.push({ node: name, disruptedAt: this.disruptedAt.get(name), removedAt: this.now() });
      this.disruptedAt.delete(name);
      return;
    }
    pool.nodes.set(node.metadata.uid ?? name, name);
    if (!isDisrupting(node)) {
      pool.disrupting.delete(name);
      this.disruptedAt.delete(name);
      return;
    }
    if (!this.disruptedAt.has(name)) this.disruptedAt.set(name, this.now());
    pool.disrupting.add(name);
    pool.maxDisrupting = Math.max(pool.maxDisrupting, pool.disrupting.size);
  }

  private pool(name: string): PoolState {
    let pool = this.pools.get(name);
    if (!pool) {
      pool = { nodes: new Map(), disrupting: new Set(), maxDisrupting: 0, removals: [] };
      this.pools.set(name, pool);
    }
    return pool;
  }
}
