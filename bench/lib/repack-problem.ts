/**
 * The re-pack of a cluster's pods as one packing problem for the MILP: the instance types the
 * (single) pool allows with their cheapest allowed offering, and the pods grouped by identical
 * requests. Placement rules (topology spread, anti-affinity) are left out, so its optimum is a
 * lower bound of what any valid packing costs. Resources are scaled to cores, GiB and pods.
 */
import type { Pod } from '../../functions/core/model/kube-objects.js';
import { valueAllowed } from '../../functions/core/scheduling/requirement-set.js';
import { setupRun } from '../../functions/core/scheduling/setup.js';
import type { SchedulingPool } from '../../functions/core/scheduling/types.js';
import { CAPACITY_TYPE, ZONE } from '../../functions/core/scheduling/well-known.js';
import type { MilpShape, MilpType } from './milp-optimum.js';

const SCALE: Record<string, number> = { cpu: 1000, memory: 2 ** 30 };

/** The packing problem of `pods` (as pending) on the first pool. */
export function repackProblem(
  pods: readonly Pod[],
  pools: readonly SchedulingPool[],
): { types: MilpType[]; shapes: MilpShape[] } {
  const state = setupRun({
    pods: pods.map((p) => ({ ...p, spec: { ...p.spec, nodeName: undefined } })),
    nodes: [],
    inFlight: [],
    daemonSets: [],
    persistentVolumes: [],
    persistentVolumeClaims: [],
    pools,
  });
  const scale = state.dims.names.map((n) => SCALE[n] ?? 1);
  const scaled = (v: Float64Array) => Array.from(v, (x, d) => x / scale[d]);
  const pool = state.pools[0];
  const zone = pool.reqs.get(ZONE);
  const ct = pool.reqs.get(CAPACITY_TYPE);
  const types = pool.baseOptions
    .map((i) => {
      let price = Number.POSITIVE_INFINITY;
      for (const o of pool.types[i].offerings) {
        if (zone && !valueAllowed(zone, o.zone)) continue;
        if (ct && !valueAllowed(ct, o.capacityType)) continue;
        price = Math.min(price, o.price);
      }
      return { name: pool.types[i].it.name, alloc: scaled(pool.types[i].alloc), price };
    })
    .filter((t) => Number.isFinite(t.price));
  const counts = new Map<string, { v: Float64Array; count: number }>();
  for (const e of state.entries) {
    const v = state.vectors.get(e.cls);
    if (!v) continue;
    const key = v.join(',');
    const shape = counts.get(key) ?? { v, count: 0 };
    shape.count++;
    counts.set(key, shape);
  }
  const shapes = [...counts.values()].map(({ v, count }) => ({ requests: scaled(v), count }));
  return { types, shapes };
}
