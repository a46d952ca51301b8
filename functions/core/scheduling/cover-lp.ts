/**
 * The linear relaxation of pattern cover, solved in its primal form: `min sum(price_p x_p)` subject
 * to `sum(counts_p x_p) >= demand`, `x >= 0`, by a revised simplex whose basis has one column per
 * pod group (a few groups, any number of patterns), so an iteration costs a pass over the patterns
 * and a small basis update. Starts from the single-group patterns (a diagonal basis), prices by
 * the largest reduced cost and falls back to Bland's rule when the objective stalls. Returns the
 * pattern values and the groups' dual prices. Pure and deterministic.
 */

/** One column: pods per group and the price of the node holding them. */
export interface LpColumn {
  readonly counts: Int32Array;
  readonly price: number;
}

/** An optimal solution of the relaxation. */
export interface LpSolution {
  /** Value per column (same order as the columns given). */
  readonly x: Float64Array;
  /** Dual price per group: what one more pod of the group would cost. */
  readonly y: Float64Array;
  readonly cost: number;
  /** Simplex iterations it took. */
  readonly iterations: number;
}

const EPS = 1e-9;
/** Iterations between refactorizations of the basis inverse. */
const REFACTOR = 40;

/** Inverts a square matrix (rows as arrays) by Gauss-Jordan with partial pivoting, or undefined. */
function invert(m: readonly Float64Array[]): Float64Array[] | undefined {
  const n = m.length;
  const a = m.map((row) => Float64Array.from(row));
  const inv = Array.from({ length: n }, (_, i) => {
    const row = new Float64Array(n);
    row[i] = 1;
    return row;
  });
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(a[r][c]) > Math.abs(a[p][c])) p = r;
    if (Math.abs(a[p][c]) < 1e-12) return undefined;
    [a[c], a[p]] = [a[p], a[c]];
    [inv[c], inv[p]] = [inv[p], inv[c]];
    const f = a[c][c];
    for (let j = 0; j < n; j++) {
      a[c][j] /= f;
      inv[c][j] /= f;
    }
    for (let r = 0; r < n; r++) {
      const k = a[r][c];
      if (r === c || k === 0) continue;
      for (let j = 0; j < n; j++) {
        a[r][j] -= k * a[c][j];
        inv[r][j] -= k * inv[c][j];
      }
    }
  }
  return inv;
}

/**
 * Solves the relaxation over `columns`, or returns undefined when some group with demand has no
 * column covering it alone (the start needs one per group) or the simplex does not settle.
 */
export function solveCoverLp(
  demand: Int32Array,
  columns: readonly LpColumn[],
  maxIterations = 1000,
): LpSolution | undefined {
  const g = demand.length;
  const m = columns.length;
  // Variables: columns 0..m-1, then one surplus variable per group (column -e_i, price 0).
  const entry = (j: number, i: number) => (j < m ? columns[j].counts[i] : j - m === i ? -1 : 0);
  const price = (j: number) => (j < m ? columns[j].price : 0);
  const basis = new Int32Array(g);
  for (let i = 0; i < g; i++) {
    let best = -1;
    for (let j = 0; j < m; j++) {
      const c = columns[j].counts;
      if (c[i] <= 0) continue;
      let alone = true;
      for (let k = 0; k < g; k++) if (k !== i && c[k] !== 0) alone = false;
      if (alone && (best < 0 || columns[j].price / c[i] < columns[best].price / columns[best].counts[i]))
        best = j;
    }
    if (best < 0) {
      if (demand[i] > 0) return undefined;
      best = m + i;
    }
    basis[i] = best;
  }
  const matrix = () =>
    Array.from({ length: g }, (_, r) => Float64Array.from({ length: g }, (_, c) => entry(basis[c], r)));
  let inv = invert(matrix());
  if (!inv) return undefined;
  const xB = new Float64Array(g);
  const y = new Float64Array(g);
  const alpha = new Float64Array(g);
  let lastCost = Number.POSITIVE_INFINITY;
  let stalled = 0;
  for (let it = 0; it < maxIterations; it++) {
    if (it > 0 && it % REFACTOR === 0) {
      inv = invert(matrix());
      if (!inv) return undefined;
    }
    let cost = 0;
    for (let r = 0; r < g; r++) {
      let v = 0;
      for (let k = 0; k < g; k++) v += inv[r][k] * demand[k];
      xB[r] = v;
      cost += price(basis[r]) * v;
    }
    for (let k = 0; k < g; k++) {
      let v = 0;
      for (let r = 0; r < g; r++) v += price(basis[r]) * inv[r][k];
      y[k] = v;
    }
    stalled = cost < lastCost - 1e-12 ? 0 : stalled + 1;
    lastCost = Math.min(lastCost, cost);
    const bland = stalled > 2 * g;
    let enter = -1;
    let best = -EPS;
    for (let j = 0; j < m + g; j++) {
      let rc = price(j);
      if (j < m) {
        const c = columns[j].counts;
        for (let k = 0; k < g; k++) if (c[k] !== 0) rc -= y[k] * c[k];
      } else rc += y[j - m];
      if (rc < best) {
        enter = j;
        if (bland) break;
        best = rc;
      }
    }
    if (enter < 0) {
      const x = new Float64Array(m);
      for (let r = 0; r < g; r++) if (basis[r] < m) x[basis[r]] += Math.max(0, xB[r]);
      return { x, y: Float64Array.from(y), cost, iterations: it + 1 };
    }
    for (let r = 0; r < g; r++) {
      let v = 0;
      for (let k = 0; k < g; k++) v += inv[r][k] * entry(enter, k);
      alpha[r] = v;
    }
    let leave = -1;
    let ratio = Number.POSITIVE_INFINITY;
    for (let r = 0; r < g; r++) {
      if (alpha[r] <= EPS) continue;
      const q = Math.max(0, xB[r]) / alpha[r];
      if (q < ratio - 1e-12 || (q <= ratio + 1e-12 && leave >= 0 && basis[r] < basis[leave])) {
        ratio = q;
        leave = r;
      }
    }
    if (leave < 0) return undefined;
    const pivotRow = inv[leave];
    const f = alpha[leave];
    for (let k = 0; k < g; k++) pivotRow[k] /= f;
    for (let r = 0; r < g; r++) {
      if (r === leave || alpha[r] === 0) continue;
      const row = inv[r];
      const a = alpha[r];
      for (let k = 0; k < g; k++) row[k] -= a * pivotRow[k];
    }
    basis[leave] = enter;
  }
  return undefined;
}
