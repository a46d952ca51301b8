/**
 * The compact packing model (exact, for small problems): for each instance type t the pool allows,
 * nodes k = 1..K_t with a binary `u` (node used, costing the type's cheapest allowed offering) and
 * integer pod counts per pod shape, capacity rows per resource, and demand rows per shape. K_t is
 * bounded safely: an optimal plan costs at most the heuristic's plan (so at most cost/price_t nodes
 * of t), and no two nodes of one type could be merged (so at most 2 x demand/capacity + 1 of them).
 * Its size grows with types x nodes x shapes, so it is only built when {@link compactColumns} is
 * small (at 2,000 nodes it exhausted the heap). Benchmark only.
 */
import { fitsOne } from './milp-colgen.js';
import type { MilpShape, MilpType } from './milp-optimum.js';

/** The model's column count, without building it. */
export function compactColumns(
  types: readonly MilpType[],
  shapes: readonly MilpShape[],
  upperCost: number,
): number {
  let columns = 0;
  for (const t of types) {
    const fitting = shapes.filter((s) => fitsOne(t, s) > 0).length;
    columns += nodeBound(t, shapes, upperCost) * (1 + fitting);
  }
  return columns;
}

function nodeBound(t: MilpType, shapes: readonly MilpShape[], upperCost: number): number {
  const byCost = Math.floor(upperCost / t.price + 1e-9);
  let ratio = 0;
  for (let d = 0; d < t.alloc.length; d++) {
    const demand = shapes.reduce((sum, s) => sum + s.requests[d] * s.count, 0);
    if (demand > 0) ratio = Math.max(ratio, demand / t.alloc[d]);
  }
  const byMerge = Math.floor(2 * ratio) + 1;
  const pods = shapes.reduce((sum, s) => sum + s.count, 0);
  return Math.max(0, Math.min(byCost, byMerge, pods));
}

/** The model in CPLEX LP format, and its column count. */
export function packingModel(
  types: readonly MilpType[],
  shapes: readonly MilpShape[],
  upperCost: number,
  lowerCost = 0,
): { lp: string; columns: number } {
  const obj: string[] = [];
  const rows: string[] = [];
  const bounds: string[] = [];
  const binaries: string[] = [];
  const generals: string[] = [];
  const demand: string[][] = shapes.map(() => []);
  types.forEach((t, ti) => {
    const k = nodeBound(t, shapes, upperCost);
    for (let b = 0; b < k; b++) {
      const u = `u_${ti}_${b}`;
      binaries.push(u);
      obj.push(`${t.price} ${u}`);
      if (b > 0) rows.push(` s_${ti}_${b}: u_${ti}_${b - 1} - ${u} >= 0`);
      const load: string[][] = t.alloc.map(() => []);
      shapes.forEach((s, si) => {
        const most = fitsOne(t, s);
        if (most === 0) return;
        const n = `n_${ti}_${b}_${si}`;
        generals.push(n);
        bounds.push(` 0 <= ${n} <= ${most}`);
        demand[si].push(n);
        rows.push(` l_${ti}_${b}_${si}: ${n} - ${most} ${u} <= 0`);
        s.requests.forEach((r, d) => {
          if (r > 0) load[d].push(`${r} ${n}`);
        });
      });
      load.forEach((terms, d) => {
        if (terms.length > 0) rows.push(` c_${ti}_${b}_${d}: ${terms.join(' + ')} - ${t.alloc[d]} ${u} <= 0`);
      });
    }
  });
  shapes.forEach((s, si) => {
    rows.push(` d_${si}: ${demand[si].length > 0 ? demand[si].join(' + ') : '0 u_none'} = ${s.count}`);
  });
  if (lowerCost > 0 && obj.length > 0) rows.push(` lb: ${obj.join(' + ')} >= ${lowerCost * (1 - 1e-9)}`);
  const lp = [
    'Minimize',
    ` cost: ${obj.length > 0 ? obj.join(' + ') : '0 u_none'}`,
    'Subject To',
    ...rows,
    'Bounds',
    ...bounds,
    'Binaries',
    ...binaries,
    'Generals',
    ...generals,
    'End',
  ].join('\n');
  return { lp, columns: binaries.length + generals.length };
}
