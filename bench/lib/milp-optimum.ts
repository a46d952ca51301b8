/**
 * The cheapest packing of one pool's pods, by MILP (HiGHS), as variable-size vector bin packing
 * over patterns (pods per shape one node of a type holds):
 *
 * - Exact pattern model (when the patterns are few enough to enumerate): every maximal pattern (no
 *   further pod of a shape with pods left fitting), kept only when no strictly cheaper type holds
 *   it, gets an integer node count; demand rows ask for at least each shape's pods. An optimal plan
 *   can always be rewritten with such patterns (move a node to a strictly cheaper type holding it,
 *   impossible at the optimum; then fill it up to a maximal pattern at the same price), so the
 *   optimum is the true one.
 * - Else, when it is small, the compact model (milp-compact.ts: a node variable per type and
 *   possible node, pod counts per shape), exact too.
 * - Otherwise the lower bound is the pattern model's linear relaxation, found by column generation
 *   (milp-colgen.ts), and a feasible packing comes from an integer solve over the patterns it
 *   generated: the optimum lies between the two, and the result says how far apart they are. Both
 *   take memory for the patterns generated only (the compact model grows with the cluster and
 *   exhausted the heap at 2,000 nodes when it was the fallback for every size).
 *
 * A cheap aggregate relaxation (whole nodes per type, pods only against a type's summed capacity)
 * is solved first: when the known plan meets it, that plan is optimal.
 *
 * A shape may be limited to some of the pool's types (`allowed`: its pods' node selector or
 * affinity narrows the pool, e.g. arm64 only): it fits no other type, and a type only dominates
 * (or undercuts a pattern of) another when it allows every shape the other holds.
 *
 * Types dominated by a cheaper type with at least as much of every resource are dropped: they
 * never improve the optimum. Benchmark only.
 */
import highsModule, { type Highs } from 'highs';
import { columnGeneration, fitsOne } from './milp-colgen.js';
import { compactColumns, packingModel } from './milp-compact.js';

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

/** Columns of the compact model at most (larger problems: column generation). */
const MAX_COMPACT_COLUMNS = 50_000;
/** Patterns enumerated at most (more: the compact model or column generation instead). */
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

/** The LP optimum of `lp` and its rows' duals. */
async function solveLp(lp: string): Promise<{ value: number; rowDual: Float64Array }> {
  const solver = await highs();
  const model = solver.createModel({ format: 'lp', data: lp });
  try {
    model.options.set({ output_flag: false });
    const run = model.run();
    if (run.modelStatus !== OPTIMAL) throw new Error(`pattern LP: solver status ${run.modelStatus}`);
    return { value: model.getObjectiveValue(), rowDual: model.getSolution().rowDual };
  } finally {
    model.dispose();
  }
}

/**
 * The cheapest packing's cost (see the file comment). `upperCost` is the cost of a known feasible
 * plan: when it meets a lower bound it is proven optimal, and it is the best packing known until
 * the solver finds a cheaper one.
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
  const left = () => Math.max(1, timeLimitSeconds - elapsed());
  if (shapes.length === 0)
    return { cost: 0, exact: true, method: 'optimal', seconds: 0, types: 0, columns: 0, best: 0, gap: 0 };
  const result = (bound: number, incumbent: number, method: string, columns: number): MilpResult => {
    const best = Math.min(incumbent, upperCost);
    const exact = best <= bound * (1 + 1e-7) + 1e-9;
    return {
      cost: exact ? best : bound,
      exact,
      method: exact ? `optimal (${method})` : `lower bound (${method})`,
      seconds: elapsed(),
      types: types.length,
      columns,
      best,
      gap: exact || best <= 0 ? 0 : Math.max(0, (best - bound) / best),
    };
  };
  const relaxed = await solve(aggregateModel(types, shapes), Math.max(1, timeLimitSeconds / 4));
  if (upperCost <= relaxed.value * (1 + 1e-7) + 1e-9)
    return result(relaxed.value, upperCost, 'plan meets the aggregate relaxation', 0);
  const patterns = maximalPatterns(types, shapes);
  if (patterns) {
    const byPattern = await solve(patternModel(types, shapes, patterns), left());
    if (byPattern.optimal) return result(byPattern.value, byPattern.value, 'pattern model', patterns.length);
    const bound = Math.max(byPattern.value, relaxed.value);
    const why = `pattern model, time limit, solver status ${byPattern.status}`;
    return result(bound, byPattern.incumbent, why, patterns.length);
  }
  if (compactColumns(types, shapes, upperCost) <= MAX_COMPACT_COLUMNS) {
    const { lp, columns } = packingModel(types, shapes, upperCost + 1e-6, relaxed.value);
    const full = await solve(lp, left());
    if (full.optimal) return result(full.value, full.value, 'compact model', columns);
    const why = `compact model, time limit, solver status ${full.status}`;
    return result(Math.max(full.value, relaxed.value), full.incumbent, why, columns);
  }
  const deadline =
    performance.now() + Math.max(1000, start + timeLimitSeconds * 1000 - performance.now()) * 0.6;
  const generated = await columnGeneration(types, shapes, solveLp, deadline);
  if (!generated) throw new Error('packing problem: a pod shape fits no instance type of the pool');
  const bound = Math.max(generated.bound, relaxed.value);
  const integer = await solve(patternModel(types, shapes, generated.patterns), left());
  const how = generated.converged
    ? 'the LP relaxation by column generation'
    : 'column generation stopped at its time limit, Farley bound';
  const why = `${how}, ${generated.iterations} rounds; packing from its patterns`;
  return result(bound, integer.incumbent, why, generated.patterns.length);
}
