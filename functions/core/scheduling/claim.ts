/**
 * A new nodeclaim being packed: a virtual node whose instance-type options narrow as pods are added
 * (each option must keep fitting all pods plus daemonset overhead and meeting all requirements).
 */

import { HostPortUsage } from './host-ports.js';
import type { NodeFilter } from './node-filter.js';
import type { PodClass, PodEntry, Variant } from './pod-class.js';
import { type PoolContext, typeCompatible } from './pool-context.js';
import { describeSet, valueAllowed } from './requirement-set.js';
import type { Requirements } from './requirements.js';
import type { Dims } from './resource-vector.js';
import { formatTaint, untoleratedTaint } from './tolerations.js';
import type { Topology } from './topology.js';
import { CAPACITY_TYPE, HOSTNAME, ZONE } from './well-known.js';

/** Shared state of the run a claim lives in. */
export interface ClaimEnv {
  readonly dims: Dims;
  readonly topology: Topology;
  /**
   * Limit usage reserved by the pool's claims: each its largest option's capacity, since CreateFleet
   * may launch any option (capacity fallback, spot price-capacity-optimized), as Karpenter counts.
   */
  reservedOf(pool: string): Record<string, number>;
  /** The request vector of a pod class. */
  vectorOf(cls: PodClass): Float64Array;
}

/** A claim under construction. */
/** A claim's state at one moment (see {@link Claim.snapshot}). */
export interface ClaimSnapshot {
  readonly pods: number;
  readonly used: Float64Array;
  readonly maxAlloc: Float64Array;
  readonly closed: boolean;
  readonly reserved: Readonly<Record<string, number>>;
  readonly reqs: Requirements;
  readonly options: readonly number[];
}

export class Claim {
  readonly pods: PodEntry[] = [];
  readonly used: Float64Array;
  /** Per resource, the largest allocatable among the options (an upper bound for quick rejects). */
  maxAlloc: Float64Array;
  closed = false;
  /** Limit usage this claim reserves (per resource, the largest capacity among its options). */
  reserved: Record<string, number> = {};
  /** Host ports of the pool's daemonsets and of the pods added (made when first needed). */
  private ports?: HostPortUsage;

  constructor(
    public name: string,
    readonly pool: PoolContext,
    public reqs: Requirements,
    public options: readonly number[],
    dims: Dims,
  ) {
    this.used = new Float64Array(dims.names.length);
    this.maxAlloc = maxAllocOf(pool, options, this.used.length);
  }

  /** Tries to add a pod under one variant of its constraints; returns why not, or undefined on success. */
  tryAdd(entry: PodEntry, variant: Variant, env: ClaimEnv): string | undefined {
    const cls = entry.cls;
    const req = env.vectorOf(cls);
    const over = env.dims.overflow(this.used, req, this.maxAlloc);
    if (over >= 0) return `no instance type has enough ${env.dims.names[over]}`;
    if (cls.hostPorts.length > 0) {
      this.ports ??= portsOf(this.pool, this.pods);
      const port = this.ports.conflict(cls.hostPorts);
      if (port) return `host port ${port} is taken on the node (by another pod or a daemonset)`;
    }
    const taint = untoleratedTaint(cls.tolerations, this.pool.taints, variant.strictPreferNoSchedule);
    if (taint) return `untolerated taint ${formatTaint(taint)}`;
    const alt = variant.alternatives[0];
    let reqs = alt.size > 0 ? this.reqs.and(alt) : this.reqs;
    if (reqs !== this.reqs) {
      const why = this.undefinedLabel(alt) ?? emptyReason(reqs);
      if (why) return why;
    }
    this.candidate = reqs;
    const verdict = env.topology.check(variant.topology, this);
    this.candidate = undefined;
    if (!verdict.ok) return verdict.reason;
    for (const n of verdict.narrow) {
      if (n.key === HOSTNAME || alreadyWithin(reqs, n.key, n.domains)) continue;
      reqs = reqs.with(n.key, { complement: false, values: new Set(n.domains), allowsAbsent: false });
      const why = emptyReason(reqs);
      if (why) return why;
    }
    const options = this.narrow(reqs, req, env);
    if (typeof options === 'string') return options;
    this.commit(entry, cls, reqs, options, req, env);
    return undefined;
  }

  /** The claim's state now, to undo the pods added after it with {@link restore}. */
  snapshot(): ClaimSnapshot {
    return {
      pods: this.pods.length,
      used: this.used.slice(),
      maxAlloc: this.maxAlloc,
      closed: this.closed,
      reserved: { ...this.reserved },
      reqs: this.reqs,
      options: this.options,
    };
  }

  /** Goes back to a {@link snapshot} (the caller undoes the topology records of the pods dropped). */
  restore(s: ClaimSnapshot): void {
    this.pods.length = s.pods;
    this.used.set(s.used);
    this.maxAlloc = s.maxAlloc;
    this.closed = s.closed;
    this.reserved = { ...s.reserved };
    this.reqs = s.reqs;
    this.options = s.options;
    this.ports = undefined;
  }

  /**
   * Takes out pods that no topology group counts and that bind no host port (the caller checks),
   * then widens the options back ({@link reopen}). The requirements the pods narrowed stay: the
   * pods left still meet them. Not for pools with limits (their reservations are not recomputed).
   */
  removeUncounted(out: ReadonlySet<PodEntry>, env: ClaimEnv): void {
    const kept = this.pods.filter((p) => !out.has(p));
    for (const p of this.pods) {
      if (!out.has(p)) continue;
      const req = env.vectorOf(p.cls);
      for (let i = 0; i < req.length; i++) this.used[i] -= req[i];
    }
    this.pods.length = 0;
    this.pods.push(...kept);
    this.closed = false;
    this.ports = undefined;
    this.reopen();
  }

  /** Widens the options back to every pool type that meets the requirements and holds the pods. */
  reopen(): void {
    const options = this.pool.baseOptions.filter((i) => {
      const t = this.pool.types[i];
      for (let d = 0; d < this.used.length; d++) if (this.used[d] > t.alloc[d]) return false;
      return this.reqs === this.pool.reqs || typeCompatible(this.pool, t, this.reqs);
    });
    if (options.length === 0) return;
    this.options = options;
    this.maxAlloc = maxAllocOf(this.pool, options, this.used.length);
  }

  private commit(
    entry: PodEntry,
    cls: PodClass,
    reqs: Requirements,
    options: readonly number[],
    req: Float64Array,
    env: ClaimEnv,
  ): void {
    for (let i = 0; i < req.length; i++) this.used[i] += req[i];
    if (options !== this.options) this.maxAlloc = maxAllocOf(this.pool, options, this.used.length);
    this.reqs = reqs;
    this.options = options;
    this.pods.push(entry);
    if (cls.hostPorts.length > 0) this.ports?.add(cls.hostPorts);
    this.reserve(env);
    env.topology.record(cls.selecting, cls.owned, this);
  }

  /** Options left after adding `req` under `reqs`, or why none is left. */
  private narrow(reqs: Requirements, req: Float64Array, env: ClaimEnv): readonly number[] | string {
    const reqsChanged = reqs !== this.reqs;
    const limited = Object.keys(this.pool.limits).length > 0;
    const out: number[] = [];
    let tooSmall = 0;
    for (const i of this.options) {
      const t = this.pool.types[i];
      if (reqsChanged && !typeCompatible(this.pool, t, reqs)) continue;
      let fit = true;
      for (let d = 0; d < req.length; d++) {
        if (this.used[d] + req[d] > t.alloc[d]) {
          fit = false;
          break;
        }
      }
      if (!fit) {
        tooSmall++;
        continue;
      }
      out.push(i);
    }
    if (out.length === 0) {
      if (tooSmall > 0) return 'no instance type is large enough for the pods together';
      const zone = reqs.get(ZONE);
      if (zone && !this.pool.allZones.some((z) => valueAllowed(zone, z)))
        return `no offering is in ${ZONE} ${describeSet(zone)}`;
      return 'no instance type meets the requirements';
    }
    const result = limited ? this.withinLimits(out, env) : out;
    if (typeof result === 'string') return result;
    const short = this.minValuesShortfall(reqs, result);
    if (short) return short;
    return result.length === this.options.length && !reqsChanged ? this.options : result;
  }

  private withinLimits(options: number[], env: ClaimEnv): number[] | string {
    const others = env.reservedOf(this.pool.name);
    const base = this.pool.usedBase;
    let reason = '';
    const ok = options.filter((i) => {
      const cap = this.pool.types[i].it.capacity;
      for (const [res, limit] of Object.entries(this.pool.limits)) {
        const mine = res === 'nodes' ? 1 : (cap[res] ?? 0);
        const taken = (base[res] ?? 0) + (others[res] ?? 0) - (this.reserved[res] ?? 0);
        if (taken + mine > limit) {
          reason ||= `${res} limit ${limit} reached`;
          return false;
        }
      }
      return true;
    });
    return ok.length > 0 ? ok : reason;
  }

  private minValuesShortfall(reqs: Requirements, options: readonly number[]): string | undefined {
    for (const [key, set] of reqs.sets) {
      if (set.minValues === undefined) continue;
      const seen = new Set<string>();
      for (const i of options) {
        const v = this.pool.types[i].it.labels[key];
        if (v !== undefined && valueAllowed(set, v)) seen.add(v);
      }
      if (seen.size < set.minValues) return `minValues ${set.minValues} of ${key}: only ${seen.size} left`;
    }
    return undefined;
  }

  private reserve(env: ClaimEnv): void {
    if (Object.keys(this.pool.limits).length === 0) return;
    const all = env.reservedOf(this.pool.name);
    for (const res of Object.keys(this.pool.limits)) {
      const now = res === 'nodes' ? 1 : this.largestCapacity(res);
      all[res] = (all[res] ?? 0) - (this.reserved[res] ?? 0) + now;
      this.reserved[res] = now;
    }
  }

  /** The largest capacity of `res` among the claim's options (what it may launch at worst). */
  private largestCapacity(res: string): number {
    let max = 0;
    for (const i of this.options) max = Math.max(max, this.pool.types[i].it.capacity[res] ?? 0);
    return max;
  }

  private undefinedLabel(alt: Requirements): string | undefined {
    for (const [key, set] of alt.sets) {
      if (key === HOSTNAME) {
        if (!set.allowsAbsent) return 'requires a specific existing node (hostname)';
        continue;
      }
      if (key === ZONE || key === CAPACITY_TYPE || this.pool.instanceKeys.has(key) || this.pool.reqs.get(key))
        continue;
      if (!set.allowsAbsent)
        return `nodepool ${this.pool.name} does not set label ${key} (${describeSet(set)})`;
    }
    return undefined;
  }

  /** Requirements under test while topology looks at the claim. */
  private candidate: Requirements | undefined;
  private zoneCache: { reqs: Requirements; options: readonly number[]; zones: readonly string[] } | undefined;
  private labelCache:
    | { reqs: Requirements; options: readonly number[]; key: string; domains: readonly string[] }
    | undefined;

  private admitted?: Map<string, boolean>;

  /**
   * Whether a spread group with this node filter counts the claim's pods: its NodePool's taints
   * and requirements (fixed for the claim's life, so a count is always undone the way it was made).
   */
  admits(filter: NodeFilter): boolean {
    this.admitted ??= new Map();
    let ok = this.admitted.get(filter.key);
    if (ok === undefined) {
      ok =
        (!filter.tolerations || untoleratedTaint(filter.tolerations, this.pool.taints) === undefined) &&
        (!filter.affinity || filter.affinity.some((alt) => this.pool.reqs.and(alt).emptyKey() === undefined));
      this.admitted.set(filter.key, ok);
    }
    return ok;
  }

  /** Domains this claim may end up in for a topology key. */
  domains(key: string): readonly string[] {
    const reqs = this.candidate ?? this.reqs;
    if (key === HOSTNAME) return [this.name];
    const single = reqs.single(key);
    if (single !== undefined) return [single];
    if (key === ZONE) {
      const c = this.zoneCache;
      if (c && c.reqs === reqs && c.options === this.options) return c.zones;
      const zones = this.zonesOf(reqs);
      this.zoneCache = { reqs, options: this.options, zones };
      return zones;
    }
    const set = reqs.get(key);
    if (set && !set.complement) return [...set.values];
    if (key !== CAPACITY_TYPE && !this.pool.instanceKeys.has(key)) return [];
    const c = this.labelCache;
    if (c && c.reqs === reqs && c.options === this.options && c.key === key) return c.domains;
    const domains = this.labelDomains(reqs, key);
    this.labelCache = { reqs, options: this.options, key, domains };
    return domains;
  }

  /**
   * The values a label the instance type decides (architecture, instance type, family, capacity
   * type...) can take on this claim: those of the options that meet the requirements, sorted. As
   * Karpenter narrows a new claim's requirements to a domain, a topology rule on such a key may pin it.
   */
  private labelDomains(reqs: Requirements, key: string): string[] {
    const set = reqs.get(key);
    const zone = reqs.get(ZONE);
    const ct = reqs.get(CAPACITY_TYPE);
    const out = new Set<string>();
    for (const i of this.options) {
      const t = this.pool.types[i];
      if (reqs !== this.reqs && !typeCompatible(this.pool, t, reqs)) continue;
      if (key === CAPACITY_TYPE) {
        for (const o of t.offerings)
          if ((!zone || valueAllowed(zone, o.zone)) && (!ct || valueAllowed(ct, o.capacityType)))
            out.add(o.capacityType);
        continue;
      }
      const v = t.it.labels[key];
      if (v !== undefined && (!set || valueAllowed(set, v))) out.add(v);
    }
    return [...out].sort();
  }

  private zonesOf(reqs: Requirements): string[] {
    const all = this.pool.allZones;
    const zone = reqs.get(ZONE);
    const ct = reqs.get(CAPACITY_TYPE);
    let wanted = 0;
    for (let i = 0; i < all.length; i++) if (!zone || valueAllowed(zone, all[i])) wanted |= 1 << i;
    const spot = !ct || valueAllowed(ct, 'spot');
    const onDemand = !ct || valueAllowed(ct, 'on-demand');
    const reserved = !ct || valueAllowed(ct, 'reserved');
    let mask = 0;
    for (const i of this.options) {
      const t = this.pool.types[i];
      mask |=
        ((spot ? t.spotZones : 0) | (onDemand ? t.onDemandZones : 0) | (reserved ? t.reservedZones : 0)) &
        wanted;
      if (mask === wanted) break;
    }
    return all.filter((_, i) => (mask & (1 << i)) !== 0);
  }
}

/** Whether the key's current set already allows only values among `domains`. */
function alreadyWithin(reqs: Requirements, key: string, domains: readonly string[]): boolean {
  const set = reqs.get(key);
  if (!set || set.complement) return false;
  for (const v of set.values) if (!domains.includes(v)) return false;
  return true;
}

function portsOf(pool: PoolContext, pods: readonly PodEntry[]): HostPortUsage {
  const usage = new HostPortUsage();
  usage.add(pool.daemonPorts);
  for (const p of pods) if (p.cls.hostPorts.length > 0) usage.add(p.cls.hostPorts);
  return usage;
}

/** {@link maxAllocOf} of each pool's base options, shared (never written in place). */
const baseMaxAlloc = new WeakMap<PoolContext, Float64Array>();

function maxAllocOf(pool: PoolContext, options: readonly number[], n: number): Float64Array {
  if (options === pool.baseOptions) {
    let cached = baseMaxAlloc.get(pool);
    if (!cached || cached.length !== n) {
      cached = computeMaxAlloc(pool, options, n);
      baseMaxAlloc.set(pool, cached);
    }
    return cached;
  }
  return computeMaxAlloc(pool, options, n);
}

function computeMaxAlloc(pool: PoolContext, options: readonly number[], n: number): Float64Array {
  const max = new Float64Array(n).fill(Number.NEGATIVE_INFINITY);
  for (const i of options) {
    const a = pool.types[i].alloc;
    for (let d = 0; d < n; d++) if (a[d] > max[d]) max[d] = a[d];
  }
  return max;
}

function emptyReason(reqs: Requirements): string | undefined {
  const key = reqs.emptyKey();
  return key === undefined ? undefined : `requirements conflict on ${key}`;
}
