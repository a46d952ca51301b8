/**
 * The cheapest packing of one pool's pods, by MILP (HiGHS). Two formulations of variable-size
 * vector bin packing, both exact:
 *
 * - Pattern model (tried first): every maximal pattern (pods per shape one node of a type holds,
 *   no further pod of a shape with pods left fitting), kept only when no strictly cheaper type holds
 *   it, gets an integer node count; demand rows ask for at least each shape's pods. An optimal plan
 *   can always be rewritten with such patterns (move a node to a strictly cheaper type holding it,
 *   impossible at the optimum; then fill it up to a maximal pattern at the same price), so the
 *   optimum is the true one. Its relaxation is tight and the model has one row per shape, so HiGHS
 *   proves most optima in seconds. Used when the patterns are few enough to enumerate.
 * - Compact model (fallback): for each instance type t the pool allows, nodes k = 1..K_t with a
 *   binary `u` (node used, costing the type's cheapest allowed offering) and integer pod counts per
 *   pod shape, capacity rows per resource, and demand rows per shape. K_t is bounded safely: an
 *   optimal plan costs at most the heuristic's plan (so at most cost/price_t nodes of t), and no
 *   two nodes of one type could be merged (so at most 2 x demand/capacity + 1 of them).
 *
 * A shape may be limited to some of the pool's types (`allowed`: its pods' node selector or
 * affinity narrows the pool, e.g. arm64 only): it fits no other type, and a type only dominates
 * (or undercuts a pattern of) another when it allows every shape the other holds.
 *
 * Types dominated by a cheaper type with at least as much of every resource are dropped: they
 * never improve the optimum. Benchmark only.
 */
import highsModule, { type Highs } from 'highs';

type Loader = typeof highsModule.default;
/** The loader: the default export as ESM, `module.exports.default` as the typings describe it. */
const highsLoader: Loader =
  (highsModule as unknown as { default?: Loader }).default ?? (highsModule as unknown as Loader);

/** One instance type a pool may launch: allocatable (minus daemonset overhead) per resource, price. */
export interface MilpType {
  readonly name: string;
  readonly alloc: readonly number[];
  readonly price: number;
}

/** Identical pods: their requests per resource and how many. */
export interface MilpShape {
  readonly requests: readonly number[];
  readonly count: number;
  /** The names of the types these pods may use; undefined: every type of the pool. */
  readonly allowed?: ReadonlySet<string>;
}

/** The result: the optimum, or a proven lower bound when the solver ran out of time. */
export interface MilpResult {
  /** Optimal cost, or the best proven lower bound when `exact` is false. */
  readonly cost: number;
  readonly exact: boolean;
  /** `optimal`, or `bound (time limit)`, with the solver's status word. */
  readonly method: string;
  readonly seconds: number;
  readonly types: number;
  readonly columns: number;
  /**
   * The cheapest packing known (the solver's incumbent or the plan given as `upperCost`): the
   * optimum lies in [cost, best]; equal to `cost` when exact.
   */
  readonly best: number;
  /** The relative gap (best - cost) / best: 0 when exact. */
  readonly gap: number;
}

/** A maximal pattern: a type (position in the useful types) and pods per shape. */
export interface MilpPattern {
  readonly type: number;
  readonly counts: readonly number[];
}

let loaded: Promise<Highs> | undefined;

function highs(): Promise<Highs> {
  loaded ??= highsLoader();
  return loaded;
}

function fitsOne(t: MilpType, s: MilpShape): number {
  if (s.allowed && !s.allowed.has(t.name)) return 0;
  let n = Number.POSITIVE_INFINITY;
  for (let d = 0; d < t.alloc.length; d++)
    if (s.requests[d] > 0) n = Math.min(n, Math.floor(t.alloc[d] / s.requests[d] + 1e-9));
  return Math.min(n, s.count);
}

/** Types that hold at least one pod and are not dominated by another type. */
export function usefulTypes(types: readonly MilpType[], shapes: readonly MilpShape[]): MilpType[] {
  const holding = types.filter((t) => shapes.some((s) => fitsOne(t, s) > 0));
  return holding.filter(
    (t, i) =>
      !holding.some((o, j) => {
        if (j === i || o.price > t.price) return false;
        if (!allowsAll(o, t, shapes)) return false;
        const ge = o.alloc.every((a, d) => a >= t.alloc[d]);
        const same = o.price === t.price && o.alloc.every((a, d) => a === t.alloc[d]);
        return ge && (!same || j < i);
      }),
  );
}

/** Whether type `o` is allowed for every shape type `t` is allowed for. */
function allowsAll(o: MilpType, t: MilpType, shapes: readonly MilpShape[]): boolean {
  return shapes.every((s) => !s.allowed?.has(t.name) || s.allowed.has(o.name));
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

/** Patterns enumerated at most (more fall back to the compact model). */
const MAX_PATTERNS = 200_000;
/** Enumeration steps at most (the search is exponential in the number of shapes). */
const MAX_STEPS = 20_000_000;

/**
 * Every maximal pattern of every type that no strictly cheaper type holds (see the file comment),
 * or undefined when there are more than `maxPatterns` or the enumeration takes more than
 * `maxSteps` steps. Shapes are enumerated most numerous per node last, and the last one only at
 * its largest count (a smaller count leaves room for one more, so the pattern is not maximal).
 */
export function maximalPatterns(
  types: readonly MilpType[],
  shapes: readonly MilpShape[],
  maxPatterns = MAX_PATTERNS,
  maxSteps = MAX_STEPS,
): MilpPattern[] | undefined {
  const out: MilpPattern[] = [];
  const dims = shapes[0]?.requests.length ?? 0;
  let steps = 0;
  for (let ti = 0; ti < types.length; ti++) {
    const t = types[ti];
    const cheaper = types.filter((o) => o.price < t.price);
    const order = shapes
      .map((_, si) => si)
      .filter((si) => fitsOne(t, shapes[si]) > 0)
      .sort((a, b) => fitsOne(t, shapes[a]) - fitsOne(t, shapes[b]) || a - b);
    if (order.length === 0) continue;
    const room = [...t.alloc];
    const counts = new Array<number>(shapes.length).fill(0);
    const most = (si: number) => {
      let n = shapes[si].count - counts[si];
      shapes[si].requests.forEach((r, d) => {
        if (r > 0) n = Math.min(n, Math.floor(room[d] / r + 1e-9));
      });
      return Math.max(0, n);
    };
    const place = (si: number, n: number) => {
      counts[si] += n;
      shapes[si].requests.forEach((r, d) => {
        room[d] -= n * r;
      });
    };
    const leaf = () => {
      if (order.some((si) => most(si) > 0) || counts.every((c) => c === 0)) return;
      const sum = new Array<number>(dims).fill(0);
      counts.forEach((c, si) => {
        shapes[si].requests.forEach((r, d) => {
          sum[d] += c * r;
        });
      });
      const undercut = (o: MilpType) =>
        o.alloc.every((a, d) => a >= sum[d] - 1e-9) &&
        counts.every((c, si) => c === 0 || !shapes[si].allowed || shapes[si].allowed!.has(o.name));
      if (cheaper.some(undercut)) return;
      out.push({ type: ti, counts: [...counts] });
    };
    const walk = (k: number): boolean => {
      if (++steps > maxSteps || out.length > maxPatterns) return false;
      const si = order[k];
      const top = most(si);
      if (k === order.length - 1) {
        place(si, top);
        leaf();
        place(si, -top);
        return true;
      }
      for (let n = top; n >= 0; n--) {
        place(si, n);
        const ok = walk(k + 1);
        place(si, -n);
        if (!ok) return false;
      }
      return true;
    };
    if (!walk(0)) return undefined;
  }
  return out;
}

/** The pattern model in CPLEX LP format: integer node counts per pattern, demand rows `>=`. */
export function patternModel(
  types: readonly MilpType[],
  shapes: readonly MilpShape[],
  patterns: readonly MilpPattern[],
): string {
  const obj: string[] = [];
  const bounds: string[] = [];
  const generals: string[] = [];
  const demand: string[][] = shapes.map(() => []);
  patterns.forEach((p, pi) => {
    const x = `x_${pi}`;
    obj.push(`${types[p.type].price} ${x}`);
    generals.push(x);
    let most = 0;
    p.counts.forEach((c, si) => {
      if (c === 0) return;
      demand[si].push(`${c} ${x}`);
      most = Math.max(most, Math.ceil(shapes[si].count / c));
    });
    bounds.push(` 0 <= ${x} <= ${most}`);
  });
  const rows = shapes.map(
    (s, si) => ` d_${si}: ${demand[si].length > 0 ? demand[si].join(' + ') : '0 x_none'} >= ${s.count}`,
  );
  return [
    'Minimize',
    ` cost: ${obj.length > 0 ? obj.join(' + ') : '0 x_none'}`,
    'Subject To',
    ...rows,
    'Bounds',
    ...bounds,
    'Generals',
    ...generals,
    'End',
  ].join('\n');
}

const OPTIMAL = 7;

/**
 * A relaxation that is much easier to solve: whole nodes per type, but a type's pods only need to
 * fit its nodes' summed capacity (at most `fitsOne` of a shape per node). Its optimum is a lower
 * bound of the real one.
 */
export function aggregateModel(types: readonly MilpType[], shapes: readonly MilpShape[]): string {
  const obj: string[] = [];
  const rows: string[] = [];
  const generals: string[] = [];
  const demand: string[][] = shapes.map(() => []);
  types.forEach((t, ti) => {
    obj.push(`${t.price} z_${ti}`);
    generals.push(`z_${ti}`);
    const load: string[][] = t.alloc.map(() => []);
    shapes.forEach((s, si) => {
      const most = fitsOne(t, s);
      if (most === 0) return;
      const x = `x_${ti}_${si}`;
      generals.push(x);
      demand[si].push(x);
      rows.push(` f_${ti}_${si}: ${x} - ${most} z_${ti} <= 0`);
      s.requests.forEach((r, d) => {
        if (r > 0) load[d].push(`${r} ${x}`);
      });
    });
    load.forEach((terms, d) => {
      if (terms.length > 0) rows.push(` c_${ti}_${d}: ${terms.join(' + ')} - ${t.alloc[d]} z_${ti} <= 0`);
    });
  });
  shapes.forEach((s, si) => {
    rows.push(` d_${si}: ${demand[si].join(' + ')} = ${s.count}`);
  });
  return [
    'Minimize',
    ` cost: ${obj.join(' + ')}`,
    'Subject To',
    ...rows,
    'Generals',
    ...generals,
    'End',
  ].join('\n');
}

interface Solved {
  readonly value: number;
  readonly optimal: boolean;
  readonly status: number;
  /** The best feasible objective found (Infinity when none). */
  readonly incumbent: number;
}

async function solve(lp: string, timeLimit: number): Promise<Solved> {
  const solver = await highs();
  const model = solver.createModel({ format: 'lp', data: lp });
  try {
    model.options.set({ output_flag: false, time_limit: timeLimit, mip_rel_gap: 1e-6 });
    const run = model.run();
    if (run.modelStatus === OPTIMAL) {
      const value = model.getObjectiveValue();
      return { value, optimal: true, status: OPTIMAL, incumbent: value };
    }
    const bound = Number(model.info.get('mip_dual_bound'));
    const primal = Number(model.info.get('objective_function_value'));
    const feasible = Number(model.info.get('primal_solution_status')) === 2;
    return {
      value: Number.isFinite(bound) ? bound : 0,
      optimal: false,
      status: run.modelStatus,
      incumbent: feasible && Number.isFinite(primal) ? primal : Number.POSITIVE_INFINITY,
    };
  } finally {
    model.dispose();
  }
}

/**
 * The cheapest packing's cost. `upperCost` is the cost of a known feasible plan: it bounds the node
 * counts, and when it meets the relaxation's bound it is proven optimal without the full model.
 */
export async function optimumCost(
  allTypes: readonly MilpType[],
  shapes: readonly MilpShape[],
  upperCost: number,
  timeLimitSeconds = 60,
): Promise<MilpResult> {
  const start = performance.now();
  const types = usefulTypes(allTypes, shapes);
  const elapsed = () => (performance.now() - start) / 1000;
  if (shapes.length === 0)
    return { cost: 0, exact: true, method: 'optimal', seconds: 0, types: 0, columns: 0, best: 0, gap: 0 };
  const known = (incumbent: number, bound: number) => {
    const best = Math.min(incumbent, upperCost);
    return { best, gap: best > 0 ? Math.max(0, (best - bound) / best) : 0 };
  };
  const relaxed = await solve(aggregateModel(types, shapes), timeLimitSeconds);
  if (upperCost <= relaxed.value * (1 + 1e-7) + 1e-9) {
    const method = 'optimal (plan meets the relaxation bound)';
    return {
      cost: upperCost,
      exact: true,
      method,
      seconds: elapsed(),
      types: types.length,
      columns: 0,
      best: upperCost,
      gap: 0,
    };
  }
  const patterns = maximalPatterns(types, shapes);
  let bound = relaxed.value;
  if (patterns) {
    const byPattern = await solve(
      patternModel(types, shapes, patterns),
      Math.max(1, timeLimitSeconds - elapsed()),
    );
    const base = { seconds: elapsed(), types: types.length, columns: patterns.length };
    if (byPattern.optimal)
      return {
        ...base,
        cost: byPattern.value,
        exact: true,
        method: 'optimal (pattern model)',
        best: byPattern.value,
        gap: 0,
      };
    return {
      ...base,
      ...known(byPattern.incumbent, Math.max(byPattern.value, bound)),
      cost: Math.max(byPattern.value, bound),
      exact: false,
      method: `lower bound (pattern model, time limit, solver status ${byPattern.status})`,
    };
  }
  const { lp, columns } = packingModel(types, shapes, upperCost + 1e-6, bound);
  const full = await solve(lp, Math.max(1, timeLimitSeconds - elapsed()));
  if (full.optimal)
    return {
      cost: full.value,
      exact: true,
      method: 'optimal',
      seconds: elapsed(),
      types: types.length,
      columns,
      best: full.value,
      gap: 0,
    };
  bound = Math.max(full.value, bound);
  return {
    ...known(full.incumbent, bound),
    cost: bound,
    exact: false,
    method: `lower bound (time limit, solver status ${full.status})`,
    seconds: elapsed(),
    types: types.length,
    columns,
  };
}
