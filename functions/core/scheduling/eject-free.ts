/**
 * Unconstrained pods taken off constrained claims. First-fit-decreasing adds a pod to the first
 * open claim that can grow to hold it, even when that upgrades the claim's cheapest type by more
 * than a node of its own would cost: three 1-CPU replicas that may not share a node and one 3-CPU
 * pod become m5.2xlarge (a replica and the big pod) + 2 × m5.large, where 3 × m5.large + m5.xlarge
 * is cheaper. The pattern cover only re-packs claims whose pods are all unconstrained, so such a
 * mixed claim stays as placed.
 *
 * This pass visits each claim that holds both kinds of pods: it takes the unconstrained pods off
 * (the claim is re-sized to its remaining pods), puts each back where it costs least (onto a claim
 * of the same pool, itself included, charged the rise of that claim's cheapest price, or onto a
 * new claim of its own), and keeps the move only when the pool's plan gets cheaper; otherwise every claim is
 * restored. Unconstrained pods are those no topology group counts, so moving them changes no
 * topology count. Pools with limits are left alone (their claims' reservations are not recomputed),
 * and so are reservation-only pools (a new claim would need an instance of a reservation).
 */
import { Claim, type ClaimEnv, type ClaimSnapshot } from './claim.js';
import { claimPrice } from './finalize.js';
import type { PodEntry } from './pod-class.js';
import type { PoolContext } from './pool-context.js';
import type { WorkBudget } from './work-budget.js';

/** Whether a pod has no topology rules, no host ports, one way to schedule, and no group counts it. */
export function isUnconstrained(entry: PodEntry): boolean {
  const c = entry.cls;
  if (c.selecting.length > 0 || c.owned.length > 0 || c.variants.length !== 1 || c.hostPorts.length > 0)
    return false;
  const v = c.variants[0];
  const t = v.topology;
  return (
    v.alternatives.length === 1 &&
    t.spreads.length + t.affinities.length + t.antis.length + t.repelledBy.length === 0
  );
}

/** How a claim looked before a move, to put it back. */
interface Saved {
  readonly claim: Claim;
  readonly snap: ClaimSnapshot;
  readonly pods: readonly PodEntry[];
}

const EPS = 1e-9;

class Ejector {
  private readonly saved = new Map<Claim, Saved>();
  private readonly opened: Claim[] = [];
  private made = 0;

  constructor(
    private readonly pool: PoolContext,
    private readonly claims: Claim[],
    private readonly env: ClaimEnv,
    private readonly budget: WorkBudget,
  ) {}

  /** Tries the move on one claim; keeps it (true) when the pool's cost drops. */
  tryClaim(source: Claim): boolean {
    const out = source.pods.filter(isUnconstrained);
    if (out.length === 0 || out.length === source.pods.length) return false;
    const before = claimPrice(source);
    this.save(source);
    source.removeUncounted(new Set(out), this.env);
    let delta = claimPrice(source) - before;
    const cpu = this.env.dims.names.indexOf('cpu');
    const mem = this.env.dims.names.indexOf('memory');
    const order = [...out].sort((a, b) => {
      const va = this.env.vectorOf(a.cls);
      const vb = this.env.vectorOf(b.cls);
      return vb[cpu] - va[cpu] || vb[mem] - va[mem] || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
    });
    for (const entry of order) {
      const rise = this.insert(entry);
      if (rise === undefined) return this.undo(false);
      delta += rise;
    }
    if (delta < -EPS) return this.undo(true);
    return this.undo(false);
  }

  /** The claims of the pool now, with the claims opened by kept moves at the end. */
  result(): Claim[] {
    return [...this.claims, ...this.opened];
  }

  /** Puts the pod where its price rise is least; answers the rise, or undefined (budget spent). */
  private insert(entry: PodEntry): number | undefined {
    const variant = entry.cls.variants[0];
    let best: Claim | undefined;
    let bestRise = Number.POSITIVE_INFINITY;
    for (const claim of [...this.claims, ...this.opened]) {
      if (!this.budget.spend()) return undefined;
      const snap = claim.snapshot();
      const before = claimPrice(claim);
      if (claim.tryAdd(entry, variant, this.env) !== undefined) continue;
      const rise = claimPrice(claim) - before;
      claim.restore(snap);
      if (rise < bestRise - EPS) {
        best = claim;
        bestRise = rise;
      }
    }
    if (!this.budget.spend()) return undefined;
    this.made++;
    const fresh = new Claim(
      `${this.pool.name}-e${this.made}`,
      this.pool,
      this.pool.reqs,
      this.pool.baseOptions,
      this.env.dims,
    );
    const opens = fresh.tryAdd(entry, variant, this.env) === undefined ? claimPrice(fresh) : undefined;
    if (best && (opens === undefined || bestRise <= opens + EPS)) {
      this.save(best);
      best.tryAdd(entry, variant, this.env);
      return bestRise;
    }
    if (opens === undefined) return Number.POSITIVE_INFINITY;
    this.opened.push(fresh);
    this.pendingOpened.push(fresh);
    return opens;
  }

  /** Claims opened during the move under way (dropped on undo). */
  private readonly pendingOpened: Claim[] = [];

  private save(claim: Claim): void {
    if (this.saved.has(claim) || this.pendingOpened.includes(claim)) return;
    this.saved.set(claim, { claim, snap: claim.snapshot(), pods: [...claim.pods] });
  }

  /** Ends a move: keeps it, or puts every claim it touched back. Answers `keep`. */
  private undo(keep: boolean): boolean {
    if (!keep) {
      for (const s of this.saved.values()) {
        s.claim.restore(s.snap);
        s.claim.pods.length = 0;
        s.claim.pods.push(...s.pods);
      }
      const dropped = new Set(this.pendingOpened);
      const kept = this.opened.filter((c) => !dropped.has(c));
      this.opened.length = 0;
      this.opened.push(...kept);
    }
    this.saved.clear();
    this.pendingOpened.length = 0;
    return keep;
  }
}

/**
 * Moves unconstrained pods off the pool's constrained claims where that lowers the pool's cost
 * (see the file's comment). Returns the pool's claims, with any new ones at the end. Deterministic
 * for a given budget; a move the budget cuts short is undone.
 */
export function ejectUnconstrained(
  pool: PoolContext,
  claims: Claim[],
  env: ClaimEnv,
  budget: WorkBudget,
): Claim[] {
  if (Object.keys(pool.limits).length > 0 || pool.reservedOnly) return claims;
  const ejector = new Ejector(pool, claims, env, budget);
  for (const claim of claims) {
    if (!budget.open) break;
    ejector.tryClaim(claim);
  }
  return ejector.result();
}
