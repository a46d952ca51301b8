/**
 * First-fit-decreasing placement: each pod (largest first) goes to the first existing node or
 * in-flight claim that takes it, else the first open new claim, else a new claim of the heaviest
 * NodePool that can launch it; preferences are relaxed one step at a time when nothing fits.
 */
import { Claim, type ClaimEnv } from './claim.js';
import type { PodClass, PodEntry, Variant } from './pod-class.js';
import { unschedulableReason } from './reasons.js';
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
  readonly env: ClaimEnv;

  constructor(private readonly s: RunState) {
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

  place(entry: PodEntry): void {
    const cls = entry.cls;
    if (cls.error) {
      this.unschedulable.push({ pod: entry.id, reason: `invalid pod: ${cls.error}` });
      return;
    }
    for (let vi = 0; vi < cls.variants.length; vi++) {
      const v = cls.variants[vi];
      const mono = monotone(v, this.s.pools.length > 0);
      const store = this.cursorOf(cls);
      if (this.onExisting(entry, v, store, vi * 2, mono) || this.onClaims(entry, v, store, vi * 2 + 1, mono))
        return;
      if (this.onNewClaim(entry, v) === undefined) return;
    }
    this.unschedulable.push({ pod: entry.id, reason: this.explain(entry) });
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
    for (let i = store[slot]; i < targets.length; i++) {
      if (targets[i].tryAdd(entry, v, req, this.s.dims, this.s.topology) === undefined) return true;
      if (mono && store[slot] === i) store[slot] = i + 1;
    }
    return false;
  }

  private onClaims(entry: PodEntry, v: Variant, store: number[], slot: number, mono: boolean): boolean {
    const claims = this.claims;
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
      const claim = new Claim(`${pool.name}-${n}`, pool, pool.reqs, pool.baseOptions, this.s.dims);
      const why = claim.tryAdd(entry, v, this.env);
      if (why === undefined) {
        this.counters.set(pool.name, n);
        this.claims.push(claim);
        this.maybeClose(claim);
        return undefined;
      }
      reasons.push(`nodepool ${pool.name}: ${why}`);
    }
    return reasons;
  }

  private explain(entry: PodEntry): string {
    const v = entry.cls.variants[entry.cls.variants.length - 1];
    const nodeReasons = new Map<string, number>();
    const req = this.s.vectors.get(entry.cls)!;
    for (const t of this.s.targets) {
      const why = t.tryAdd(entry, v, req, this.s.dims, this.s.topology);
      if (why === undefined) return 'placed';
      nodeReasons.set(why, (nodeReasons.get(why) ?? 0) + 1);
    }
    const poolReasons = this.s.pools.length > 0 ? (this.onNewClaim(entry, v) ?? []) : [];
    return unschedulableReason(this.s.targets.length, nodeReasons, poolReasons);
  }
}

/** Places pending pods, largest first (cpu, then memory, then name). */
export function placeAll(s: RunState): Placement {
  const placer = new Placer(s);
  const order = [...s.entries].sort((a, b) => {
    const va = s.vectors.get(a.cls);
    const vb = s.vectors.get(b.cls);
    const cpu = s.dims.names.indexOf('cpu');
    const mem = s.dims.names.indexOf('memory');
    if (va && vb) {
      const d = vb[cpu] - va[cpu] || vb[mem] - va[mem];
      if (d !== 0) return d;
    }
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  });
  for (const entry of order) placer.place(entry);
  return { claims: placer.claims, unschedulable: placer.unschedulable };
}
