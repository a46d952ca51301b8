/**
 * Many "what if these nodes went?" runs of the scheduler on one cluster, each costing the pods that
 * move rather than the whole cluster. The run state (targets, topology with every pod counted,
 * pool contexts, the classes of every pod that may move) is built once by {@link setupRun}. A
 * trial takes nodes away (their pods uncounted, their hostnames no longer domains, their capacity
 * no longer in their NodePool's limits) and places their movable pods with the real placement;
 * the caller then keeps it ({@link RemovalRuns.commit}: later trials start from the cluster with
 * those nodes gone and their pods where the trial put them) or undoes it
 * ({@link RemovalRuns.rollback}, from the topology's journal and the targets' placed lists);
 * {@link RemovalRuns.reset} undoes every committed trial.
 *
 * New claims a committed trial opened are kept too, and later trials fill them before opening
 * others (a claim's state is snapshotted before each trial). A node that received pods in a
 * committed trial cannot be taken away afterwards.
 */
import type { Pod } from '../model/kube-objects.js';
import type { Claim, ClaimSnapshot } from './claim.js';
import type { ExistingTarget } from './existing-target.js';
import { improvePacking } from './improve.js';
import { placeAll } from './placement.js';
import type { PodClass, PodEntry } from './pod-class.js';
import { finalizeClaims } from './schedule.js';
import { ownedAntiGroups, type RunState, setupRun } from './setup.js';
import type { TopologyGroup } from './topology-group.js';
import type { ExistingNode, PlannedNodeClaim, ScheduleInput } from './types.js';

/** The cluster trials run on. */
export interface RemovalInput
  extends Pick<
    ScheduleInput,
    | 'daemonSets'
    | 'persistentVolumes'
    | 'persistentVolumeClaims'
    | 'storageClasses'
    | 'pools'
    | 'maxInstanceTypeOptions'
  > {
  /** The nodes that give capacity (draining ones left out). */
  readonly nodes: readonly ExistingNode[];
  /** Per node that may be taken away: the pods that move if it goes, unbound (pending form). */
  readonly movable: ReadonlyMap<string, readonly Pod[]>;
  /**
   * Nodes still starting (managed, not initialized): they take part as they will be once
   * initialized, but a removal may not count on them now: pods a trial places on one count as
   * unschedulable, as Karpenter refuses a move that "would schedule against an uninitialized
   * nodeclaim". @default none
   */
  readonly starting?: ReadonlySet<string>;
}

/** What a trial found. */
export interface TrialOutcome {
  /** Pods that had to move. */
  readonly pods: number;
  /** New nodes every removal so far needs, the committed trials' included (none: they can simply go). */
  readonly newClaims: readonly PlannedNodeClaim[];
  /** Pods with no place at all. */
  readonly unschedulable: number;
}

/** Removal trials on one cluster (see the file comment). */
export class RemovalRuns {
  private readonly state: RunState;
  private readonly byName = new Map<string, { target: ExistingTarget; index: number; node: ExistingNode }>();
  private readonly entriesOf = new Map<string, PodEntry[]>();
  private readonly boundGroups = new Map<Pod, { selecting: TopologyGroup[]; owned: TopologyGroup[] }>();
  /** Placed lengths of the targets as last committed. */
  private readonly committedPlaced: number[];
  private readonly initialUsed: readonly Record<string, number>[];
  private readonly gone = new Set<string>();
  private alive: ExistingTarget[];
  /** Claims opened by committed trials. */
  private claims: Claim[] = [];
  private open?: {
    names: readonly string[];
    mark: number;
    used: Record<string, number>[];
    claims: readonly ClaimSnapshot[];
    placed: Claim[];
  };

  constructor(private readonly input: RemovalInput) {
    const owner = new Map<Pod, string>();
    const pods: Pod[] = [];
    for (const [name, list] of input.movable)
      for (const pod of list) {
        owner.set(pod, name);
        pods.push(pod);
      }
    this.state = setupRun({
      pods,
      nodes: input.nodes,
      inFlight: [],
      daemonSets: input.daemonSets,
      persistentVolumes: input.persistentVolumes,
      persistentVolumeClaims: input.persistentVolumeClaims,
      ...(input.storageClasses ? { storageClasses: input.storageClasses } : {}),
      pools: input.pools,
    });
    for (const entry of this.state.entries) {
      const name = owner.get(entry.pod) ?? '';
      const list = this.entriesOf.get(name);
      if (list) list.push(entry);
      else this.entriesOf.set(name, [entry]);
    }
    for (const [index, target] of this.state.targets.entries())
      this.byName.set(target.name, { target, index, node: input.nodes[index] });
    this.committedPlaced = this.state.targets.map((t) => t.placed.length);
    this.initialUsed = this.state.pools.map((p) => ({ ...p.usedBase }));
    this.alive = [...this.state.targets];
    this.state.topology.startJournal();
  }

  /** Whether `name` can be taken away: a known node, still there, that took no moved pods. */
  canRemove(name: string): boolean {
    const found = this.byName.get(name);
    return found !== undefined && !this.gone.has(name) && this.committedPlaced[found.index] === 0;
  }

  /** Nodes taken away by committed trials. */
  removed(): ReadonlySet<string> {
    return this.gone;
  }

  /**
   * Takes `names` away and places their movable pods on what is left (existing nodes first, new
   * claims when needed). Must be followed by {@link commit} or {@link rollback}. With `improve`,
   * the new claims' packing is improved as a provisioning run improves it (improve.ts: pods without
   * topology constraints re-packed where that is cheaper), at `improve` times its usual effort;
   * only when no committed trial left claims open.
   */
  trial(names: readonly string[], improve?: number): TrialOutcome {
    if (this.open)
      throw new Error('RemovalRuns.trial: the previous trial was neither committed nor rolled back');
    for (const name of names)
      if (!this.canRemove(name)) throw new Error(`RemovalRuns.trial: node ${name} cannot be taken away`);
    const { topology, pools } = this.state;
    const open = {
      names,
      mark: topology.mark(),
      used: pools.map((p) => ({ ...p.usedBase })),
      claims: this.claims.map((c) => c.snapshot()),
      placed: this.claims,
    };
    this.open = open;
    const leaving = new Set(names);
    const entries: PodEntry[] = [];
    for (const name of names) {
      const { target, node } = this.byName.get(name)!;
      for (const pod of target.boundPods) {
        const groups = this.groupsOf(pod);
        topology.unrecord(groups.selecting, groups.owned, target);
      }
      topology.removeNode(target.hostname);
      this.release(node);
      entries.push(...(this.entriesOf.get(name) ?? []));
    }
    if (entries.length === 0) {
      const kept = this.finalized(this.claims);
      return { pods: 0, newClaims: kept.nodeClaims, unschedulable: kept.unschedulable.length };
    }
    const classes = [...new Set(entries.map((e) => e.cls))];
    const vectors = new Map<PodClass, Float64Array>();
    for (const c of classes) vectors.set(c, this.state.vectors.get(c)!);
    const placement = placeAll(
      { ...this.state, entries, classes, vectors, targets: this.alive.filter((t) => !leaving.has(t.name)) },
      this.claims,
    );
    const claims =
      improve && this.claims.length === 0 && placement.claims.length > 0
        ? improvePacking(placement.claims, this.state, { effort: improve })
        : placement.claims;
    open.placed = claims;
    const finalized = this.finalized(claims);
    return {
      pods: entries.length,
      newClaims: finalized.nodeClaims,
      unschedulable: placement.unschedulable.length + finalized.unschedulable.length + this.onStarting(),
    };
  }

  /** Pods the open trial placed on nodes that are still starting (see {@link RemovalInput.starting}). */
  private onStarting(): number {
    let count = 0;
    for (const name of this.input.starting ?? []) {
      const found = this.byName.get(name);
      if (found) count += found.target.placed.length - this.committedPlaced[found.index];
    }
    return count;
  }

  private finalized(claims: readonly Claim[]): ReturnType<typeof finalizeClaims> {
    return finalizeClaims(claims, this.state.dims, this.input.maxInstanceTypeOptions);
  }

  /** Keeps the open trial: its nodes are gone, its pods stay where it placed them, its claims stay open. */
  commit(): void {
    const open = this.take('commit');
    const leaving = new Set(open.names);
    for (const name of open.names) this.gone.add(name);
    this.alive = this.alive.filter((t) => !leaving.has(t.name));
    this.claims = open.placed;
    for (const [i, t] of this.state.targets.entries()) this.committedPlaced[i] = t.placed.length;
  }

  /** Undoes the open trial. */
  rollback(): void {
    const open = this.take('rollback');
    for (const [i, c] of this.claims.entries()) c.restore(open.claims[i]);
    this.undo(open.mark, open.used);
  }

  /** Undoes every committed trial: the cluster is whole again. */
  reset(): void {
    if (this.open) throw new Error('RemovalRuns.reset: a trial is open');
    this.committedPlaced.fill(0);
    this.undo(0, this.initialUsed);
    this.gone.clear();
    this.alive = [...this.state.targets];
    this.claims = [];
  }

  /** Back to the journal's `mark`, the pools' `used` and the committed placed pods. */
  private undo(mark: number, used: readonly Record<string, number>[]): void {
    const { topology, pools, targets, vectors } = this.state;
    topology.undoTo(mark);
    for (const [i, p] of pools.entries()) {
      for (const key of Object.keys(p.usedBase)) delete p.usedBase[key];
      Object.assign(p.usedBase, used[i]);
    }
    for (const [i, t] of targets.entries()) {
      while (t.placed.length > this.committedPlaced[i]) {
        const entry = t.placed.pop()!;
        const req = vectors.get(entry.cls)!;
        for (let d = 0; d < req.length; d++) t.free[d] += req[d];
        if (entry.cls.hostPorts.length > 0) t.ports.remove(entry.cls.hostPorts);
      }
    }
  }

  private take(what: string): NonNullable<RemovalRuns['open']> {
    const open = this.open;
    if (!open) throw new Error(`RemovalRuns.${what}: no trial is open`);
    this.open = undefined;
    return open;
  }

  /** The groups a bound pod was counted in when the run was set up. */
  private groupsOf(pod: Pod): { selecting: TopologyGroup[]; owned: TopologyGroup[] } {
    let groups = this.boundGroups.get(pod);
    if (!groups) {
      const { topology } = this.state;
      groups = {
        selecting: topology.groupsSelecting(pod.metadata?.namespace ?? 'default', pod.metadata?.labels ?? {}),
        owned: ownedAntiGroups(pod, topology),
      };
      this.boundGroups.set(pod, groups);
    }
    return groups;
  }

  /** The node's capacity no longer counts against its NodePool's limits. */
  private release(node: ExistingNode): void {
    const pool = this.state.pools.find((p) => p.name === node.nodePool);
    if (!pool) return;
    for (const [k, v] of Object.entries(node.capacity ?? node.allocatable))
      pool.usedBase[k] = (pool.usedBase[k] ?? 0) - v;
    pool.usedBase.nodes = (pool.usedBase.nodes ?? 0) - 1;
  }
}
