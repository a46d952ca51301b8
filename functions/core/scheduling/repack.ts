/**
 * Two ways to pack a group of unconstrained pods into new claims shaped like one node type (pods
 * larger than it open nodes of the best-ranked type that holds them): item-first
 * (first-fit-decreasing) and node-first (fill each node with the pod that best matches the room
 * it has left). Every claim is right-sized to the cheapest option holding its pods afterwards.
 */
import { Claim, type ClaimEnv } from './claim.js';
import { covers } from './node-shapes.js';
import type { PodEntry } from './pod-class.js';
import type { PoolContext } from './pool-context.js';
import type { RunState } from './setup.js';

/** What a packing works with: the pool, its ranked shapes and the run. */
export interface PackContext {
  readonly pool: PoolContext;
  readonly state: RunState;
  readonly env: ClaimEnv;
  /** Ranked node shapes (type indices), best first. */
  readonly ranked: readonly number[];
  readonly optionsCache: Map<number, number[]>;
  /** The packings to try per node shape. */
  readonly strategies: readonly PackStrategy[];
}

/** A packing strategy: claims for all pods, or undefined when some pod fits no shape. */
export type PackStrategy = (ctx: PackContext, pods: readonly PodEntry[], cap: number) => Claim[] | undefined;

function optionsUpTo(ctx: PackContext, cap: number): number[] {
  let out = ctx.optionsCache.get(cap);
  if (!out) {
    const limit = ctx.pool.types[cap].alloc;
    out = ctx.pool.baseOptions.filter((i) => covers(limit, ctx.pool.types[i].alloc));
    ctx.optionsCache.set(cap, out);
  }
  return out;
}

/** The shape a node opened for a pod of requests `v` gets: `cap` when it holds the pod. */
function shapeFor(ctx: PackContext, cap: number, v: Float64Array): number | undefined {
  if (covers(ctx.pool.types[cap].alloc, v)) return cap;
  return ctx.ranked.find((i) => covers(ctx.pool.types[i].alloc, v));
}

function openClaim(ctx: PackContext, entry: PodEntry, cap: number, n: number): Claim | undefined {
  const shape = shapeFor(ctx, cap, ctx.state.vectors.get(entry.cls)!);
  if (shape === undefined) return undefined;
  const { pool, state } = ctx;
  const claim = new Claim(`${pool.name}-r${n}`, pool, pool.reqs, optionsUpTo(ctx, shape), state.dims);
  return claim.tryAdd(entry, entry.cls.variants[0], ctx.env) === undefined ? claim : undefined;
}

/**
 * Pods largest first, size being the largest share of `cap` a pod needs (or, with `dim`, its share
 * of that one resource, largest share as the tie-break).
 */
function bySize(ctx: PackContext, pods: readonly PodEntry[], cap: number, dim = -1): PodEntry[] {
  const limit = ctx.pool.types[cap].alloc;
  const share = (v: Float64Array) => v.reduce((m, r, d) => Math.max(m, limit[d] > 0 ? r / limit[d] : r), 0);
  const size = (p: PodEntry) => {
    const v = ctx.state.vectors.get(p.cls)!;
    return dim < 0 ? share(v) : (limit[dim] > 0 ? v[dim] / limit[dim] : 0) * 4 + share(v);
  };
  return pods
    .map((p) => ({ p, s: size(p) }))
    .sort((a, b) => b.s - a.s || (a.p.id < b.p.id ? -1 : 1))
    .map((x) => x.p);
}

function rightSize(claims: Claim[]): Claim[] {
  for (const c of claims) c.reopen();
  return claims;
}

/** First-fit-decreasing; with `dim`, by the pods' need of that one resource. */
export function firstFitBy(dim = -1): PackStrategy {
  return (ctx, pods, cap) => firstFit(ctx, bySize(ctx, pods, cap, dim), cap);
}

/** First-fit-decreasing by the largest share of the node a pod needs. */
export const packFirstFit: PackStrategy = firstFitBy();

function firstFit(ctx: PackContext, ordered: readonly PodEntry[], cap: number): Claim[] | undefined {
  const claims: Claim[] = [];
  for (const entry of ordered) {
    const v = entry.cls.variants[0];
    if (claims.some((c) => c.tryAdd(entry, v, ctx.env) === undefined)) continue;
    const claim = openClaim(ctx, entry, cap, claims.length + 1);
    if (!claim) return undefined;
    claims.push(claim);
  }
  return rightSize(claims);
}

interface Group {
  readonly vec: Float64Array;
  readonly pods: PodEntry[];
  next: number;
}

/** Pods with the same requests and requirements, largest first. */
function groups(ctx: PackContext, pods: readonly PodEntry[], cap: number): Group[] {
  const byKey = new Map<string, Group>();
  const keys = new Map<object, string>();
  for (const p of bySize(ctx, pods, cap)) {
    let key = keys.get(p.cls);
    if (key === undefined) {
      const v = ctx.state.vectors.get(p.cls)!;
      key = `${v.join(',')}|${p.cls.variants[0].alternatives[0].key()}`;
      keys.set(p.cls, key);
    }
    let g = byKey.get(key);
    if (!g) {
      g = { vec: ctx.state.vectors.get(p.cls)!, pods: [], next: 0 };
      byKey.set(key, g);
    }
    g.pods.push(p);
  }
  return [...byKey.values()];
}

/** How well requests `v` fill the room left in a claim (dot product, in shares of the node). */
function fitScore(claim: Claim, v: Float64Array): number {
  let score = 0;
  for (let d = 0; d < v.length; d++) {
    const room = claim.maxAlloc[d] - claim.used[d];
    if (v[d] > room) return -1;
    if (claim.maxAlloc[d] > 0) score += (v[d] / claim.maxAlloc[d]) * (room / claim.maxAlloc[d]);
  }
  return score;
}

/** Fills one claim with the best-matching pods while any fits. */
function fill(ctx: PackContext, claim: Claim, gs: Group[]): void {
  const refused = new Set<Group>();
  for (;;) {
    let best: Group | undefined;
    let bestScore = -1;
    for (const g of gs) {
      if (g.next >= g.pods.length || refused.has(g)) continue;
      const s = fitScore(claim, g.vec);
      if (s > bestScore) {
        best = g;
        bestScore = s;
      }
    }
    if (!best) return;
    const entry = best.pods[best.next];
    if (claim.tryAdd(entry, entry.cls.variants[0], ctx.env) === undefined) best.next++;
    else refused.add(best);
  }
}

/** Node-first: open a node for the largest pod left, then fill it with the best-matching pods. */
export const packBestMatch: PackStrategy = (ctx, pods, cap) => {
  const gs = groups(ctx, pods, cap);
  const claims: Claim[] = [];
  for (;;) {
    const first = gs.find((g) => g.next < g.pods.length);
    if (!first) return rightSize(claims);
    const claim = openClaim(ctx, first.pods[first.next], cap, claims.length + 1);
    if (!claim) return undefined;
    first.next++;
    fill(ctx, claim, gs);
    claims.push(claim);
  }
};
