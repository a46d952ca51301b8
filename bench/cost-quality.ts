/**
 * Scheduler benchmark 2, cost quality: seeded cases over the bundled catalog; for each, the plan's
 * cost (sum over new nodeclaims of the cheapest option's hourly price) divided by the optimum from
 * a bin-packing MILP solved with HiGHS (or by its proven lower bound where the solver hits its time
 * limit, which only makes the ratio look worse; each row says `optimum` or `bound`), and the
 * planning time (median of `--runs` runs after a warm-up run, default 3). `npm run
 * bench:cost-quality` prints a table, `-- --json` the numbers, `-- --cases N` runs the first N
 * cases (default 48: 32 uniform ones, then 16 mixed ones — memory-heavy + CPU-heavy, overlapping
 * selectors, GPU + CPU, arm64 + multi-arch), `-- --only 17,23` the listed ones, `-- --mixed` the
 * mixed ones, `-- --time-limit S` caps each pool's solve
 * (default 10 s so the whole run takes a few minutes; `-- --time-limit 120` gives the solver two
 * minutes per pool).
 */
import { bundledCatalog } from '../functions/core/catalog/bundled.js';
import { schedulingPools } from '../functions/core/scheduling/prepare.js';
import { schedule } from '../functions/core/scheduling/schedule.js';
import type { ScheduleInput } from '../functions/core/scheduling/types.js';
import { nodeClass } from '../test/builders/config.js';
import { type CostCase, costCase } from './lib/cost-cases.js';
import { optimumCost } from './lib/milp-optimum.js';
import { FIRST_MIXED_CASE, MIXED_CASES } from './lib/mixed-cases.js';
import { poolProblems } from './lib/pool-problems.js';

/** The outcome of one case. */
export interface CaseRow {
  readonly id: number;
  readonly pods: number;
  readonly pools: number;
  readonly nodeClaims: number;
  readonly unschedulable: number;
  readonly planCost: number;
  readonly optimum: number;
  readonly ratio: number;
  readonly exact: boolean;
  readonly method: string;
  readonly scheduleMs: number;
  readonly solverSeconds: number;
  readonly description: string;
}

function argValue(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

/** The case ids to run: `--only 17,23,25`, `--mixed`, else the first `--cases N` (default all). */
function caseIds(): number[] {
  const i = process.argv.indexOf('--only');
  if (i >= 0) return process.argv[i + 1].split(',').map(Number);
  if (process.argv.includes('--mixed'))
    return Array.from({ length: MIXED_CASES }, (_, k) => FIRST_MIXED_CASE + k);
  return Array.from({ length: argValue('--cases', FIRST_MIXED_CASE + MIXED_CASES - 1) }, (_, k) => k + 1);
}

function inputOf(c: CostCase): ScheduleInput {
  return {
    pods: c.pods,
    nodes: [],
    inFlight: [],
    daemonSets: [],
    persistentVolumes: [],
    persistentVolumeClaims: [],
    pools: schedulingPools(c.pools, [nodeClass()], bundledCatalog),
  };
}

/** Planning time: the median of `runs` runs after one warm-up run, and the last plan. */
function timedSchedule(input: ScheduleInput, runs: number) {
  let plan = schedule(input);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    plan = schedule(input);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { plan, scheduleMs: times[Math.floor(times.length / 2)] };
}

async function runCase(c: CostCase, timeLimit: number, runs: number): Promise<CaseRow> {
  const input = inputOf(c);
  const { plan, scheduleMs } = timedSchedule(input, runs);
  const costByPool = new Map<string, number>();
  for (const claim of plan.nodeClaims) {
    const price = claim.instanceTypeOptions[0]?.price ?? 0;
    costByPool.set(claim.nodePool, (costByPool.get(claim.nodePool) ?? 0) + price);
  }
  let optimum = 0;
  let exact = true;
  let solverSeconds = 0;
  const methods = new Set<string>();
  for (const p of poolProblems(input)) {
    const upper = costByPool.get(p.pool) ?? 0;
    const r = await optimumCost(p.types, p.shapes, upper, timeLimit);
    optimum += r.cost;
    exact &&= r.exact;
    solverSeconds += r.seconds;
    methods.add(r.method);
  }
  const planCost = [...costByPool.values()].reduce((a, b) => a + b, 0);
  return {
    id: c.id,
    pods: c.pods.length,
    pools: c.pools.length,
    nodeClaims: plan.nodeClaims.length,
    unschedulable: plan.unschedulable.length,
    planCost: round(planCost),
    optimum: round(optimum),
    ratio: optimum > 0 ? Number((planCost / optimum).toFixed(4)) : 1,
    exact,
    method: [...methods].join(', '),
    scheduleMs: Number(scheduleMs.toFixed(2)),
    solverSeconds: Number(solverSeconds.toFixed(2)),
    description: c.description,
  };
}

function round(n: number): number {
  return Number(n.toFixed(4));
}

function printRow(r: CaseRow): void {
  console.log(
    `case ${String(r.id).padStart(2)}  ${String(r.pods).padStart(3)} pods  ${r.pools} pool(s)  ` +
      `${String(r.nodeClaims).padStart(3)} claims  plan $${r.planCost.toFixed(4)}  ` +
      `${r.exact ? 'optimum' : 'bound  '} $${r.optimum.toFixed(4)}  ratio ${r.ratio.toFixed(4)}  ` +
      `schedule ${r.scheduleMs.toFixed(1)} ms  solver ${r.solverSeconds.toFixed(1)} s` +
      `${r.unschedulable > 0 ? `  unschedulable ${r.unschedulable}` : ''}`,
  );
}

async function main(): Promise<void> {
  const json = process.argv.includes('--json');
  const timeLimit = argValue('--time-limit', 10);
  const runs = argValue('--runs', 3);
  const rows: CaseRow[] = [];
  for (const id of caseIds()) {
    const row = await runCase(costCase(id), timeLimit, runs);
    rows.push(row);
    if (!json) printRow(row);
  }
  const worst = rows.reduce((w, r) => (r.ratio > w.ratio ? r : w), rows[0]);
  const mean = rows.reduce((s, r) => s + r.ratio, 0) / rows.length;
  const ms = rows.map((r) => r.scheduleMs).sort((a, b) => a - b);
  const summary = {
    cases: rows.length,
    timeLimitSeconds: timeLimit,
    exact: rows.filter((r) => r.exact).length,
    worstRatio: worst.ratio,
    worstCase: worst.id,
    meanRatio: Number(mean.toFixed(4)),
    medianScheduleMs: ms[Math.floor(ms.length / 2)],
    maxScheduleMs: ms[ms.length - 1],
    target: 1.02,
    meetsTarget: worst.ratio <= 1.02,
  };
  if (json) {
    console.log(
      JSON.stringify({ benchmark: 'cost-quality', catalog: bundledCatalog.region, summary, rows }, null, 2),
    );
    return;
  }
  console.log(
    `${summary.cases} cases (${summary.exact} solved to optimality, the others against the lower bound ` +
      `proven within ${timeLimit} s): ` +
      `worst ratio ${summary.worstRatio} (case ${summary.worstCase}), mean ${summary.meanRatio}, ` +
      `target <= 1.02: ${summary.meetsTarget ? 'met' : 'MISSED'}; planning median ` +
      `${summary.medianScheduleMs.toFixed(1)} ms, max ${summary.maxScheduleMs.toFixed(1)} ms`,
  );
}

await main();
