/**
 * Packing by pattern cover: the unconstrained pods of a pool become a `CoverProblem` (groups of
 * identical pods, the pool's undominated node types as candidates), `planCover` chooses nodes
 * within the work budget, and every node becomes a claim holding its pods (each pod added with the
 * claim's own checks, options right-sized to the cheapest type that holds them).
 */
import { Claim, type ClaimEnv } from './claim.js';
import { planCover } from './cover-plan.js';
import { shapePrices, undominatedFor } from './node-shapes.js';
import type { CoverGroup, CoverPlan, CoverProblem } from './pattern-cover.js';
import type { PodEntry } from './pod-class.js';
import type { PoolContext } from './pool-context.js';
import { Requirements } from './requirements.js';
import type { RunState } from './setup.js';
import type { WorkBudget } from './work-budget.js';

/** What a packing works with: the pool, the run, and the claims' view of it. */
export interface PackContext {
  readonly pool: PoolContext;
  readonly state: RunState;
  readonly env: ClaimEnv;
}

interface PodGroup {
  readonly vec: Float64Array;
  readonly reqKey: string;
  /** The group's requirements on labels instance types do not carry (zone, capacity type, ...). */
  readonly familyKey: string;
  readonly pods: PodEntry[];
}

/**
 * The part of a pod's requirements that an instance type cannot settle: keys no type carries as a
 * label. Two groups that agree on it can share a node of any type both allow (the type's labels
 * satisfy both), e.g. pods selecting categories r/m and c/m on an m type, or arm64-only and
 * multi-arch pods on an arm64 type.
 */
function familyKeyOf(ctx: PackContext, alt: Requirements): string {
  const keys = ctx.pool.instanceKeys;
  let other = false;
  for (const key of alt.sets.keys()) if (!keys.has(key)) other = true;
  if (!other) return '';
  return Requirements.of(alt.toList().filter((r) => !keys.has(r.key))).key();
}

function podGroups(ctx: PackContext, pods: readonly PodEntry[]): PodGroup[] {
  const byKey = new Map<string, PodGroup>();
  for (const p of pods) {
    const vec = ctx.state.vectors.get(p.cls)!;
    const alt = p.cls.variants[0].alternatives[0];
    const reqKey = alt.key();
    const key = `${vec.join(',')}|${reqKey}`;
    let g = byKey.get(key);
    if (!g) {
      g = { vec, reqKey, familyKey: familyKeyOf(ctx, alt), pods: [] };
      byKey.set(key, g);
    }
    g.pods.push(p);
  }
  return [...byKey.values()].sort((a, b) => (a.pods[0].id < b.pods[0].id ? -1 : 1));
}

/** The types a pod of the group may use: a fresh claim's options once it holds the pod. */
function allowedTypes(ctx: PackContext, g: PodGroup): ReadonlySet<number> {
  const { pool, state } = ctx;
  const probe = new Claim(`${pool.name}-probe`, pool, pool.reqs, pool.baseOptions, state.dims);
  const entry = g.pods[0];
  if (probe.tryAdd(entry, entry.cls.variants[0], ctx.env) !== undefined) return new Set();
  return new Set(probe.options);
}

/** The cover problem of these pods, with the pod groups and type indices it refers to. */
function problemOf(ctx: PackContext, pods: readonly PodEntry[]) {
  const groups = podGroups(ctx, pods);
  const prices = shapePrices(ctx.pool);
  const allowed = groups.map((g) => allowedTypes(ctx, g));
  const typeIndex = undominatedFor(ctx.pool, allowed)
    .filter((i) => allowed.some((a) => a.has(i)))
    .sort((a, b) => prices[a] - prices[b] || a - b);
  const families = new Map<string, number>();
  const coverGroups: CoverGroup[] = groups.map((g, gi) => {
    const family = families.get(g.familyKey) ?? families.size;
    families.set(g.familyKey, family);
    const ok = Uint8Array.from(typeIndex, (i) => (allowed[gi].has(i) ? 1 : 0));
    return { vec: g.vec, count: g.pods.length, family, allowed: ok };
  });
  const types = typeIndex.map((i) => ({ alloc: ctx.pool.types[i].alloc, price: prices[i] }));
  const problem: CoverProblem = { groups: coverGroups, types };
  return { problem, groups };
}

function claimsOf(ctx: PackContext, plan: CoverPlan, groups: readonly PodGroup[]): Claim[] | undefined {
  const { pool, state } = ctx;
  const next = new Int32Array(groups.length);
  const claims: Claim[] = [];
  for (const node of plan.nodes) {
    const claim = new Claim(
      `${pool.name}-c${claims.length + 1}`,
      pool,
      pool.reqs,
      pool.baseOptions,
      state.dims,
    );
    for (let gi = 0; gi < groups.length; gi++) {
      for (let k = 0; k < node.counts[gi]; k++) {
        const entry = groups[gi].pods[next[gi]++];
        if (claim.tryAdd(entry, entry.cls.variants[0], ctx.env) !== undefined) return undefined;
      }
    }
    claims.push(claim);
  }
  return claims;
}

/** Claims for these pods chosen by pattern cover, or undefined when it finds none. */
export function coverPacking(
  ctx: PackContext,
  pods: readonly PodEntry[],
  budget: WorkBudget,
): Claim[] | undefined {
  if (pods.length === 0) return undefined;
  const { problem, groups } = problemOf(ctx, pods);
  if (problem.types.length === 0) return undefined;
  const plan = planCover(problem, budget);
  if (!plan) return undefined;
  return claimsOf(ctx, plan, groups);
}
