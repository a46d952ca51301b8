/**
 * First-fit-decreasing placement: each pod (largest first) goes to the first existing node or
 * in-flight claim that takes it, else the first open new claim, else a new claim of the heaviest
 * NodePool that can launch it; preferences are relaxed one step at a time when nothing fits.
 */
import { Claim, type ClaimEnv } from './claim.js';
import type { ExistingTarget } from './existing-target.js';
import type { PodClass, PodEntry, Variant } from './pod-class.js';
import { unschedulableReason } from './reasons.js';
import { reservationsFullReason } from './reserved-options.js';
import type { RunState } from './setup.js';
import { formatTaint, untoleratedTaint } from './tolerations.js';
import { HOSTNAME } from './well-known.js';

/** The outcome of placing all pending pods. */
export interface Placement {
  readonly claims: Claim[];
  readonly unschedulable: { pod: string; reason: string }[];
}

/** Whether a rejection by a target stays a rejection as more pods are placed (so it can be skipped). */
function monotone(v: Variant, canCreateNodes: boolean): boolean {
  return (
    v.topology.affinities.length === 0 &&
    v.topology.spreads.every((s) => s.group.topologyKey === HOSTNAME && canCreateNodes)
  );
}

class Placer {
  readonly claims: Claim[] = [];
  readonly unschedulable: { pod: string; reason: string }[] = [];
  private readonly cursors = new Map<PodClass, number[]>();
  private readonly counters = new Map<string, number>();
  private readonly reserved = new Map<string, Record<string, number>>();
  private readonly minReq: Float64Array;
  private readonly claimIndex = new Map<string, number>();
  private readonly targetIndex = new Map<string, number>();
  /**
   * Counts the pods placed so far. Targets, claims and topology change only when a pod is placed,
   * so a class's verdict at one version holds for every pod of the class until the next placement:
   * the two caches below keep such verdicts, and pending pods of one class cost one scan of the
   * targets per placement instead of one each.
   */
  private version = 0;
  /** Per class variant, the version at which no existing target took it (least-allocated mode). */
  private readonly noTargetAt = new Map<Variant, number>();
  /** Per class, the version and the reason its last unplaced pod got. */
  private readonly explained = new Map<PodClass, { version: number; reason: string }>();
  readonly env: ClaimEnv;

  constructor(
    private readonly s: RunState,
    open: readonly Claim[] = [],
  ) {
    for (const [i, t] of s.targets.entries()) this.targetIndex.set(t.hostname, i);
    for (const claim of open) {
      this.claimIndex.set(claim.name, this.claims.length);
      this.claims.push(claim);
      this.counters.set(claim.pool.name, (this.counters.get(claim.pool.name) ?? 0) + 1);
      const reserved = this.reserved.get(claim.pool.name) ?? {};
      for (const [k, v] of Object.entries(claim.reserved)) reserved[k] = (reserved[k] ?? 0) + v;
      this.reserved.set(claim.pool.name, reserved);
    }
    this.minReq = new Float64Array(s.dims.names.length).fill(Number.POSITIVE_INFINITY);
    for (const v of s.vectors.values())
      for (let i = 0; i < v.length; i++) this.minReq[i] = Math.min(this.minReq[i], v[i]);
    this.env = {
      dims: s.dims,
      topology: s.topology,
      reservedOf: (pool) => {
        const r = this.reserved.get(pool) ?? {};
        this.reserved.set(pool, r);
        return r;
      },
      vectorOf: (cls) => s.vectors.get(cls)!,
    };
  }

  /** Places one pod; returns false (and records the reason) when it cannot be placed. */
  place(entry: PodEntry): boolean {
    if (!this.tryPlace(entry)) return false;
    this.version++;
    return true;
  }

  private tryPlace(entry: PodEntry): boolean {
    const cls = entry.cls;
    if (cls.error) {
      this.unschedulable.push({ pod: entry.id, reason: `invalid pod: ${cls.error}` });
      return false;
    }
    for (let vi = 0; vi < cls.variants.length; vi++) {
      const v = cls.variants[vi];
      const mono = monotone(v, this.s.pools.length > 0);
      const store = this.cursorOf(cls);
      if (this.onExisting(entry, v, store, vi * 2, mono) || this.onClaims(entry, v, store, vi * 2 + 1, mono))
        return true;
      if (this.onNewClaim(entry, v) === undefined) return true;
    }
    this.unschedulable.push({ pod: entry.id, reason: this.explain(entry) });
    return false;
  }

  /** Per class and variant: the first existing target / claim not yet known to reject it. */
  private cursorOf(cls: PodClass): number[] {
    const c = this.cursors.get(cls) ?? new Array<number>(cls.variants.length * 2).fill(0);
    this.cursors.set(cls, c);
    return c;
  }

  private onExisting(entry: PodEntry, v: Variant, store: number[], slot: number, mono: boolean): boolean {
    const targets = this.s.targets;
    const req = this.s.vectors.get(entry.cls)!;
    const only = hostAffinityCandidates(v, this.targetIndex);
    if (this.s.leastAllocated) return this.leastAllocated(entry, v, req, only);
    if (only)
      return only.some((i) => targets[i].tryAdd(entry, v, req, this.s.dims, this.s.topology) === undefined);
    for (let i = store[slot]; i < targets.length; i++) {
      if (targets[i].tryAdd(entry, v, req, this.s.dims, this.s.topology) === undefined) return true;
      if (mono && store[slot] === i) store[slot] = i + 1;
    }
    return false;
  }

  /** Places the pod on the accepting target with the largest free cpu share (first such on ties). */
  private leastAllocated(
    entry: PodEntry,
    v: Variant,
    req: Float64Array,
    only: number[] | undefined,
  ): boolean {
    const { targets, dims, topology } = this.s;
    if (!only && this.noTargetAt.get(v) === this.version) return false;
    const cpu = dims.names.indexOf('cpu');
    let best: ExistingTarget | undefined;
    let bestScore = Number.NEGATIVE_INFINITY;
    for (const i of only ?? targets.keys()) {
      const t = targets[i];
      if (t.check(entry, v, req, dims, topology) !== undefined) continue;
      const score = t.freeCpuShare(cpu);
      if (score > bestScore) {
        best = t;
        bestScore = score;
      }
    }
    if (!best) {
      if (!only) this.noTargetAt.set(v, this.version);
      return false;
    }
    best.place(entry, req, topology);
    return true;
  }

  private onClaims(entry: PodEntry, v: Variant, store: number[], slot: number, mono: boolean): boolean {
    const claims = this.claims;
    const only = hostAffinityCandidates(v, this.claimIndex);
    if (only) {
      for (const i of only) {
        if (!claims[i].closed && claims[i].tryAdd(entry, v, this.env) === undefined) {
          this.maybeClose(claims[i]);
          return true;
        }
      }
      return false;
    }
    for (let i = store[slot]; i < claims.length; i++) {
      const claim = claims[i];
      if (!claim.closed && claim.tryAdd(entry, v, this.env) === undefined) {
        this.maybeClose(claim);
        return true;
      }
      if (mono && store[slot] === i) store[slot] = i + 1;
    }
    return false;
  }

  private maybeClose(claim: Claim): void {
    for (let d = 0; d < this.minReq.length; d++) {
      if (claim.maxAlloc[d] - claim.used[d] < this.minReq[d]) {
        claim.closed = true;
        return;
      }
    }
  }

  /** Opens a claim for the pod in the first pool that can; returns the reasons per pool on failure. */
  onNewClaim(entry: PodEntry, v: Variant): string[] | undefined {
    const reasons: string[] = [];
    for (const pool of this.s.pools) {
      if (pool.problem) {
        reasons.push(`nodepool ${pool.name}: ${pool.problem}`);
        continue;
      }
      const taint = untoleratedTaint(entry.cls.tolerations, pool.taints, v.strictPreferNoSchedule);
      if (taint) {
        reasons.push(`taint ${formatTaint(taint)}`);
        continue;
      }
      if (pool.baseOptions.length === 0) {
        reasons.push(
          `nodepool ${pool.name}: no instance type with an available offering meets its requirements`,
        );
        continue;
      }
      const n = (this.counters.get(pool.name) ?? 0) + 1;
      if (pool.reservedOnly && n > pool.reservedInstances) {
        reasons.push(reservationsFullReason(pool));
        continue;
      }
      const claim = new Claim(`${pool.name}-${n}`, pool, pool.reqs, pool.baseOptions, this.s.dims);
      const why = claim.tryAdd(entry, v, this.env);
      if (why === undefined) {
        this.counters.set(pool.name, n);
        this.claimIndex.set(claim.name, this.claims.length);
        this.claims.push(claim);
        this.maybeClose(claim);
        return undefined;
      }
      reasons.push(`nodepool ${pool.name}: ${why}`);
    }
    return reasons;
  }

  private explain(entry: PodEntry): string {
    const known = this.explained.get(entry.cls);
    if (known?.version === this.version) return known.reason;
    const reason = this.reasonFor(entry);
    this.explained.set(entry.cls, { version: this.version, reason });
    return reason;
  }

  private reasonFor(entry: PodEntry): string {
    const v = entry.cls.variants[entry.cls.variants.length - 1];
    const nodeReasons = new Map<string, number>();
    const req = this.s.vectors.get(entry.cls)!;
    for (const t of this.s.targets) {
      const why = t.check(entry, v, req, this.s.dims, this.s.topology);
      if (why === undefined) return 'placed';
      nodeReasons.set(why, (nodeReasons.get(why) ?? 0) + 1);
    }
    const poolReasons = this.s.pools.length > 0 ? (this.onNewClaim(entry, v) ?? []) : [];
    return unschedulableReason(this.s.targets.length, nodeReasons, poolReasons);
  }
}

/**
 * For a pod with required hostname affinity to pods that exist: the indices of the only targets
 * that can take it (those hosting a matching pod), in order; undefined when any target may.
 */
function hostAffinityCandidates(v: Variant, index: ReadonlyMap<string, number>): number[] | undefined {
  let out: number[] | undefined;
  for (const a of v.topology.affinities) {
    if (a.group.topologyKey !== HOSTNAME || (a.selfMatch && a.group.total === 0)) continue;
    const found: number[] = [];
    for (const [domain, n] of a.group.counts) {
      const i = index.get(domain);
      if (n > 0 && i !== undefined && (!out || out.includes(i))) found.push(i);
    }
    out = found.sort((x, y) => x - y);
  }
  return out;
}

/**
 * Whether a pod with pod affinity that matches itself would, placed first, start its own domain
 * while pending pods without affinity that the term also selects are still to come: it then waits
 * for them, so that it follows them (as Karpenter, which places larger pods first, and the
 * kube-scheduler, which needs the matching pods that exist, would have it).
 */
function bootstrapsBefore(cls: PodClass, leaders: readonly PodClass[]): boolean {
  const affinities = cls.variants[0]?.topology.affinities ?? [];
  return affinities.some(
    (a) =>
      a.selfMatch && leaders.some((l) => l !== cls && !l.error && a.group.selects(l.namespace, l.labels)),
  );
}

function waitsForOthers(entry: PodEntry): boolean {
  return entry.cls.variants.some((v) => v.topology.affinities.length > 0);
}

/** Forgets the recorded failures of pods about to be retried. */
function forget(placer: Placer, retry: readonly PodEntry[]): void {
  const ids = new Set(retry.map((e) => e.id));
  const kept = placer.unschedulable.filter((u) => !ids.has(u.pod));
  placer.unschedulable.length = 0;
  placer.unschedulable.push(...kept);
}

/**
 * Places pods in order; pods that wait for others get more rounds while rounds make progress.
 * Returns the waiting pods still unplaced.
 */
function placeRounds(placer: Placer, order: readonly PodEntry[]): PodEntry[] {
  let retry = order.filter((entry) => !placer.place(entry) && waitsForOthers(entry));
  while (retry.length > 0) {
    forget(placer, retry);
    const next = retry.filter((entry) => !placer.place(entry));
    if (next.length === retry.length) return next;
    retry = next;
  }
  return retry;
}

/**
 * Places pending pods, largest first (cpu, then memory, then name). Pods with required pod
 * affinity go first, so the nodes of the pods they follow still have room for them. `open` claims
 * (from an earlier placement on the same state) are filled before new ones are made, and come
 * back first in the claims.
 */
export function placeAll(s: RunState, open: readonly Claim[] = []): Placement {
  const placer = new Placer(s, open);
  const cpu = s.dims.names.indexOf('cpu');
  const mem = s.dims.names.indexOf('memory');
  const order = [...s.entries].sort((a, b) => {
    const va = s.vectors.get(a.cls);
    const vb = s.vectors.get(b.cls);
    if (va && vb) {
      const d = vb[cpu] - va[cpu] || vb[mem] - va[mem];
      if (d !== 0) return d;
    }
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  });
  const leaders = order.filter((e) => !waitsForOthers(e));
  const follows = order.filter(waitsForOthers);
  const leaderClasses = [...new Set(leaders.map((e) => e.cls))];
  const lateClasses = new Set(
    [...new Set(follows.map((e) => e.cls))].filter((c) => bootstrapsBefore(c, leaderClasses)),
  );
  const late = follows.filter((e) => lateClasses.has(e.cls));
  const waiting = placeRounds(
    placer,
    follows.filter((e) => !lateClasses.has(e.cls)),
  );
  placeRounds(placer, leaders);
  const rest = [...waiting, ...late];
  if (rest.length > 0) {
    forget(placer, waiting);
    placeRounds(placer, rest);
  }
  return { claims: placer.claims, unschedulable: placer.unschedulable };
}
