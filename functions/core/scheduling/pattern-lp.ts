/**
 * The value of each pod group in the linear relaxation of pattern cover: the dual of
 * `min sum(price_p x_p) subject to sum(counts_p x_p) >= demand, x >= 0` over a set of patterns,
 * i.e. `max demand . y subject to counts_p . y <= price_p, y >= 0`, solved with a small dense
 * simplex (the origin is feasible since prices are positive). Pure and deterministic.
 */

/** One pattern: pods per group and the price of the node holding them. */
export interface LpPattern {
  readonly counts: Int32Array;
  readonly price: number;
}

const EPS = 1e-10;

function pivot(tab: Float64Array[], obj: Float64Array, row: number, col: number): void {
  const r = tab[row];
  const f = r[col];
  for (let j = 0; j < r.length; j++) r[j] /= f;
  const eliminate = (x: Float64Array) => {
    const k = x[col];
    if (Math.abs(k) > 0) for (let j = 0; j < x.length; j++) x[j] -= k * r[j];
  };
  for (let i = 0; i < tab.length; i++) if (i !== row) eliminate(tab[i]);
  eliminate(obj);
}

function entering(obj: Float64Array, n: number): number {
  let col = -1;
  for (let j = 0; j < n; j++) if (obj[j] < -EPS && (col < 0 || obj[j] < obj[col])) col = j;
  return col;
}

function leaving(tab: Float64Array[], col: number, rhs: number): number {
  let row = -1;
  let best = Number.POSITIVE_INFINITY;
  tab.forEach((r, i) => {
    if (r[col] <= EPS) return;
    const ratio = r[rhs] / r[col];
    if (ratio < best - EPS) {
      best = ratio;
      row = i;
    }
  });
  return row;
}

/**
 * Dual prices of the groups (one per entry of `demand`), or undefined when the relaxation is
 * unbounded (a group no pattern holds) or the simplex does not settle.
 */
export function dualPrices(demand: Int32Array, patterns: readonly LpPattern[]): Float64Array | undefined {
  const g = demand.length;
  const m = patterns.length;
  const width = g + m + 1;
  const tab = patterns.map((p, i) => {
    const r = new Float64Array(width);
    for (let j = 0; j < g; j++) r[j] = p.counts[j];
    r[g + i] = 1;
    r[width - 1] = p.price;
    return r;
  });
  const obj = new Float64Array(width);
  for (let j = 0; j < g; j++) obj[j] = -demand[j];
  const basis = Int32Array.from({ length: m }, (_, i) => g + i);
  for (let it = 0; it < 50 * (g + m); it++) {
    const col = entering(obj, g + m);
    if (col < 0) return Float64Array.from({ length: g }, (_, j) => basicValue(tab, basis, j));
    const row = leaving(tab, col, width - 1);
    if (row < 0) return undefined;
    pivot(tab, obj, row, col);
    basis[row] = col;
  }
  return undefined;
}

function basicValue(tab: readonly Float64Array[], basis: Int32Array, j: number): number {
  const i = basis.indexOf(j);
  return i < 0 ? 0 : tab[i][tab[i].length - 1];
}
