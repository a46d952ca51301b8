/**
 * An exact upper bound of the pricing knapsack of column generation (milp-colgen.ts), by dynamic
 * programming over a grid: the pods' requests are whole multiples of a unit per resource (cpu in
 * steps of 50m, memory in steps of 128Mi, say), so a node's room is a whole number of units and
 * the best dual value of the pods one node holds is a bounded knapsack over (units of resource a,
 * units of resource b). The two resources with the most grid cells are kept and the others left
 * out, which can only raise the value, so the result is an upper bound; it is the exact optimum
 * whenever the left-out resources (usually the pod count) do not bind. Undefined when the requests
 * have no common unit or the grid is too large. Benchmark only.
 */
import type { MilpShape, MilpType } from './milp-optimum.js';

/** Grid cells at most (the work is cells x pod shapes x log of the counts). */
const MAX_CELLS = 250_000;
/** Resolution the units are looked for at (requests are scaled, e.g. to cores and GiB). */
const RESOLUTION = 2 ** 20 * 1000;

function gcd(a: number, b: number): number {
  while (b > 0) [a, b] = [b, a % b];
  return a;
}

/** Per resource: the common unit of the requests (in RESOLUTION steps), or undefined. */
function units(shapes: readonly MilpShape[], dims: number): (number | undefined)[] {
  const out: (number | undefined)[] = [];
  for (let d = 0; d < dims; d++) {
    let g = 0;
    let exact = true;
    for (const s of shapes) {
      const scaled = s.requests[d] * RESOLUTION;
      const whole = Math.round(scaled);
      if (Math.abs(scaled - whole) > 1e-3) exact = false;
      if (whole > 0) g = gcd(g, whole);
    }
    out.push(exact && g > 0 ? g : undefined);
  }
  return out;
}

/**
 * The most dual value pods of `shapes` (at most `most[si]` of shape si) fit in one node of `t`,
 * over the two largest grid resources only (an upper bound, see the file comment).
 */
export function gridKnapsackBound(
  t: MilpType,
  shapes: readonly MilpShape[],
  duals: readonly number[],
  most: readonly number[],
): number | undefined {
  const dims = t.alloc.length;
  const unit = units(shapes, dims);
  const cells = t.alloc.map((a, d) => {
    const u = unit[d];
    return u === undefined ? 0 : Math.floor((a * RESOLUTION) / u + 1e-9) + 1;
  });
  const keep = cells
    .map((c, d) => ({ c, d }))
    .filter((x) => x.c > 0)
    .sort((x, y) => y.c - x.c)
    .slice(0, 2)
    .map((x) => x.d);
  if (keep.length === 0) return undefined;
  const [da, db] = keep;
  const na = cells[da];
  const nb = db === undefined ? 1 : cells[db];
  if (na * nb > MAX_CELLS) return undefined;
  const best = new Float64Array(na * nb);
  for (const [si, s] of shapes.entries()) {
    if (duals[si] <= 0 || most[si] <= 0) continue;
    const wa = Math.round((s.requests[da] * RESOLUTION) / (unit[da] ?? 1));
    const wb = db === undefined ? 0 : Math.round((s.requests[db] * RESOLUTION) / (unit[db] ?? 1));
    // Binary splitting: bundles of 1, 2, 4, ... pods make every count up to most[si].
    let left = most[si];
    for (let k = 1; left > 0; k *= 2) {
      const n = Math.min(k, left);
      left -= n;
      addItem(best, na, nb, n * wa, n * wb, n * duals[si]);
    }
  }
  return best[na * nb - 1];
}

/** 0/1 knapsack step: one bundle of weight (wa, wb) and value v, cells in reverse. */
function addItem(best: Float64Array, na: number, nb: number, wa: number, wb: number, v: number): void {
  if (wa >= na || wb >= nb) return;
  for (let a = na - 1; a >= wa; a--) {
    const row = a * nb;
    const from = (a - wa) * nb - wb;
    for (let b = nb - 1; b >= wb; b--) {
      const candidate = best[from + b] + v;
      if (candidate > best[row + b]) best[row + b] = candidate;
    }
  }
}
