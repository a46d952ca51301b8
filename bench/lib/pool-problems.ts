/**
 * The packing problem of each pool of a cost-quality case, as the scheduler sees the pool: the
 * instance types it allows (allocatable minus daemonset overhead, cheapest allowed offering) and
 * the shapes of the pods that select it (pods with identical requests form one shape). Resources
 * are scaled to cores, GiB and pods.
 */

import { type PoolContext, typeCompatible } from '../../functions/core/scheduling/pool-context.js';
import { valueAllowed } from '../../functions/core/scheduling/requirement-set.js';
import { setupRun } from '../../functions/core/scheduling/setup.js';
import type { ScheduleInput } from '../../functions/core/scheduling/types.js';
import { CAPACITY_TYPE, ZONE } from '../../functions/core/scheduling/well-known.js';
import { POOL_LABEL } from './cost-cases.js';
import type { MilpShape, MilpType } from './milp-optimum.js';

/** One pool's packing problem. */
export interface PoolProblem {
  readonly pool: string;
  readonly types: MilpType[];
  readonly shapes: MilpShape[];
}

const SCALE: Record<string, number> = { cpu: 1000, memory: 2 ** 30 };

function price(pool: PoolContext, index: number): number {
  const zone = pool.reqs.get(ZONE);
  const ct = pool.reqs.get(CAPACITY_TYPE);
  let best = Number.POSITIVE_INFINITY;
  for (const o of pool.types[index].offerings) {
    if (zone && !valueAllowed(zone, o.zone)) continue;
    if (ct && !valueAllowed(ct, o.capacityType)) continue;
    best = Math.min(best, o.price);
  }
  return best;
}

/** Splits a case into per-pool problems (pods select their pool with the `bench/pool` label). */
export function poolProblems(input: ScheduleInput): PoolProblem[] {
  const state = setupRun(input);
  const scale = state.dims.names.map((n) => SCALE[n] ?? 1);
  const scaled = (v: Float64Array) => Array.from(v, (x, d) => x / scale[d]);
  return state.pools.map((pool) => {
    const types = pool.baseOptions
      .map((i) => ({
        name: pool.types[i].it.name,
        alloc: scaled(pool.types[i].alloc),
        price: price(pool, i),
      }))
      .filter((t) => Number.isFinite(t.price));
    // Pods with identical requests and allowed types are one shape (interchangeable, whatever
    // their deployment); the types a pod allows are those meeting its node selector / affinity.
    const counts = new Map<string, { v: Float64Array; count: number; allowed?: Set<string> }>();
    const allowedOf = new Map<object, Set<string> | undefined>();
    for (const e of state.entries) {
      if (e.pod.spec?.nodeSelector?.[POOL_LABEL] !== pool.name) continue;
      if (!allowedOf.has(e.cls)) {
        const alt = e.cls.variants[0]?.alternatives[0];
        const reqs = alt && alt.size > 0 ? pool.reqs.and(alt) : undefined;
        const names = reqs
          ? new Set(
              pool.baseOptions
                .filter((i) => typeCompatible(pool, pool.types[i], reqs))
                .map((i) => pool.types[i].it.name),
            )
          : undefined;
        allowedOf.set(e.cls, names && names.size < pool.baseOptions.length ? names : undefined);
      }
      const allowed = allowedOf.get(e.cls);
      const v = state.vectors.get(e.cls)!;
      const key = `${v.join(',')}|${allowed ? [...allowed].sort().join(',') : '*'}`;
      const shape = counts.get(key) ?? { v, count: 0, ...(allowed ? { allowed } : {}) };
      shape.count++;
      counts.set(key, shape);
    }
    const shapes = [...counts.values()].map(({ v, count, allowed }) => ({
      requests: scaled(v),
      count,
      ...(allowed ? { allowed } : {}),
    }));
    return { pool: pool.name, types, shapes };
  });
}
