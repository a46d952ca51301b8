/**
 * Consolidation benchmark: synthetic clusters of 500, 2,000 and 5,000 nodes packed from a mixed
 * workload, with 50% and 75% of the pods then removed. For each case: one evaluation (candidates
 * and planConsolidation, median of several), its heap, and the move found; then, up to 2,000 nodes
 * unless `--sizes` names a larger size, moves applied until none remains, with budgets 100% and
 * 10%, every applied move re-checked with the scheduler.
 * The final cost is compared with the HiGHS MILP optimum of re-packing the remaining pods (their
 * requests only, placement rules left out: a lower bound of any valid packing; its proven bound
 * when the time limit is hit), and with a fresh re-pack by `schedule()` (a heuristic, labelled so).
 * `npm run bench:consolidation` prints a table; `-- --json` prints JSON; `-- --sizes 500` picks sizes,
 * `-- --shares 0.5` the removed shares and `-- --budgets 100` the loops' budgets; `-- --milp-seconds
 * 0` skips the MILP reference (default 60). Every evaluation is bounded as in joiner, by a count of
 * candidate evaluations (search-budget.ts), so a run is the same on any host; its CPU time is
 * reported (process user + system time, which another process on the machine does not inflate).
 * `-- --loop-seconds N` caps each apply loop by wall time (off by default: a capped loop depends on
 * the host and is reported CAPPED). The MILP's memory is its patterns, not the cluster's nodes.
 */
import { consolidationCandidates } from '../functions/core/disruption/consolidation/candidates.js';
import {
  type ConsolidationMove,
  planConsolidation,
} from '../functions/core/disruption/consolidation/plan-consolidation.js';
import { prepareCluster } from '../functions/core/disruption/consolidation/removal-simulation.js';
import { SearchBudget } from '../functions/core/disruption/consolidation/search-budget.js';
import { disruptionView } from '../functions/core/disruption/disruption-view.js';
import { isReschedulable } from '../functions/core/disruption/pod-policy.js';
import { existingNodes } from '../functions/core/scheduling/cluster-view.js';
import { schedule } from '../functions/core/scheduling/schedule.js';
import {
  bind,
  buildCluster,
  materialize,
  podKey,
  type SyntheticCluster,
} from './lib/consolidation-cluster.js';
import { optimumCost } from './lib/milp-optimum.js';
import { repackProblem } from './lib/repack-problem.js';

const SIZES = [500, 2000, 5000];
/**
 * Without `--sizes`, the apply loops run up to this size; larger clusters get one evaluation and
 * the MILP (their loops take hours of CPU on 2 cores). Naming a size in `--sizes` runs its loops.
 */
const DEFAULT_LOOPS_UP_TO = 2000;
const SHARES = [0.5, 0.75];
/** Targets printed next to the numbers. */
export const TARGETS = { evalSeconds2000: 10, heapMiB2000: 1024, costRatio: 1.05, badDecisions: 0 };
/**
 * The search's wall-time safety net where no invocation time is known, set far above what a search
 * takes here so that only the evaluation count bounds it (a search it cut is reported).
 */
const SEARCH_SAFETY_MS = 30 * 60_000;

export interface LoopResult {
  budget: string;
  evaluations: number;
  moves: number;
  seconds: number;
  capped: boolean;
  /** CPU seconds of the loop's evaluations (user + system) and of its longest one. */
  cpuSeconds: number;
  maxEvalCpuSeconds: number;
  /** Candidate evaluations (nodes in removal trials) of all searches, and searches cut by their budget. */
  trials: number;
  cutSearches: number;
  /**
   * Moves by kind: delete, replace (one new node), exchange (two nodes into two new ones), re-pack
   * into smaller nodes (one node into two or more, two into three or four).
   */
  kinds: Record<string, number>;
  nodesBefore: number;
  nodesAfter: number;
  costBefore: number;
  costAfter: number;
  badDecisions: number;
}

export interface CaseResult {
  nodes: number;
  removedShare: number;
  pods: number;
  candidates: number;
  evalSeconds: number;
  /** CPU seconds (user + system) of the measured evaluation (median). */
  evalCpuSeconds: number;
  /** Candidate evaluations the measured search made. */
  evalTrials: number;
  /** True when the measured search was cut by its budget and settled for the best set found. */
  evalCapped: boolean;
  heapMiB: number;
  moveMethod: string;
  moveNodes: number;
  repackCost: number;
  /** The MILP's optimum or proven lower bound of the re-pack (undefined when not run). */
  milpCost?: number;
  milpMethod?: string;
  milpSeconds?: number;
  /** The cheapest packing known to the MILP (its incumbent or the scheduler's re-pack): the optimum is in [milpCost, milpBest]. */
  milpBest?: number;
  /** (milpBest - milpCost) / milpBest: the MIP gap left when the solver stopped (0: proven optimum). */
  milpGap?: number;
  loops: (LoopResult & { costRatio: number; milpRatio?: number })[];
}

/** A long apply loop reports where it is on stderr every this many moves (set by `main`, not in tests). */
const PROGRESS_EVERY = 25;
let progress: ((line: string) => void) | undefined;

function cost(c: SyntheticCluster): number {
  return c.claims.reduce((s, x) => s + (x.instance?.price ?? 0), 0);
}

function evaluate(
  c: SyntheticCluster,
  allowed: (pool: string) => number,
  deadline = Number.POSITIVE_INFINITY,
) {
  const cpu = process.cpuUsage();
  const view = disruptionView(c.now, c.claims, c.nodes, c.pods, c.pdbs, c.config);
  const { candidates } = consolidationCandidates(view, 0);
  const budget = new SearchBudget({ wallLimitMs: SEARCH_SAFETY_MS });
  const prepared = prepareCluster({
    nodes: c.nodes,
    boundPods: c.pods,
    daemonSets: [],
    persistentVolumes: [],
    persistentVolumeClaims: [],
    pools: c.pools,
    leaving: new Set(),
  });
  let hitDeadline = false;
  const expired = () => {
    if (budget.expired()) return true;
    if (performance.now() > deadline) hitDeadline = true;
    return hitDeadline;
  };
  const move = planConsolidation(budget.counting(prepared), candidates, { allowed, expired });
  const used = process.cpuUsage(cpu);
  return {
    candidates,
    move,
    cut: budget.cutBy !== undefined,
    capped: hitDeadline,
    trials: budget.spent,
    cpuSeconds: (used.user + used.system) / 1e6,
  };
}

/**
 * Applies a move: its nodes go, their pods are planned as the drain's provisioning run plans them
 * (onto the rest of the cluster, new nodes with the packing improvement). Returns 1 for a bad
 * decision (a pod left without a place, a delete that needed a new node, a replace whose new nodes
 * cost no less than the nodes it removed), else 0.
 */
function apply(c: SyntheticCluster, move: ConsolidationMove): number {
  const gone = new Set(move.candidates.map((x) => x.node.metadata.name));
  const moving = c.pods.filter((p) => gone.has(p.spec?.nodeName ?? '') && isReschedulable(p));
  const staying = c.pods.filter((p) => !gone.has(p.spec?.nodeName ?? ''));
  const nodes = c.nodes.filter((n) => !gone.has(n.metadata.name));
  const plan = schedule({
    pods: moving.map((p) => ({ ...p, spec: { ...p.spec, nodeName: undefined } })),
    nodes: existingNodes(nodes, staying),
    inFlight: [],
    daemonSets: [],
    persistentVolumes: [],
    persistentVolumeClaims: [],
    pools: c.pools,
  });
  const byKey = new Map(moving.map((p) => [podKey(p), p]));
  const placed: typeof c.pods = [];
  for (const e of plan.existingPlacements)
    for (const key of e.pods) {
      const pod = byKey.get(key);
      if (pod) placed.push(bind(pod, e.node, c.now));
    }
  const fresh = materialize(plan.nodeClaims, byKey, c.pools, c.now);
  const removed = c.claims.filter((x) => gone.has(x.nodeName ?? ''));
  const price = (list: typeof c.claims) => list.reduce((s, x) => s + (x.instance?.price ?? 0), 0);
  const bad =
    plan.unschedulable.length > 0 ||
    (move.method === 'delete' ? fresh.claims.length > 0 : price(fresh.claims) >= price(removed) - 1e-9);
  c.claims = [...c.claims.filter((x) => !gone.has(x.nodeName ?? '')), ...fresh.claims];
  c.nodes = [...nodes, ...fresh.nodes];
  c.pods = [...staying, ...placed, ...fresh.pods];
  return bad ? 1 : 0;
}

function loop(build: () => SyntheticCluster, budget: number, capMs = Number.POSITIVE_INFINITY): LoopResult {
  const c = build();
  const nodesBefore = c.nodes.length;
  const costBefore = cost(c);
  const allowed = () => Math.max(1, Math.ceil((c.nodes.length * budget) / 100));
  const start = performance.now();
  let evaluations = 0;
  let moves = 0;
  let bad = 0;
  let capped = false;
  let cpuSeconds = 0;
  let maxEvalCpuSeconds = 0;
  let trials = 0;
  let cutSearches = 0;
  const kinds: Record<string, number> = {};
  for (;;) {
    if (performance.now() - start > capMs) {
      capped = true;
      break;
    }
    evaluations++;
    const result = evaluate(c, allowed, start + capMs);
    cpuSeconds += result.cpuSeconds;
    maxEvalCpuSeconds = Math.max(maxEvalCpuSeconds, result.cpuSeconds);
    trials += result.trials;
    if (result.cut) cutSearches++;
    if (result.capped) capped = true;
    const move = result.move;
    if (!move) break;
    moves++;
    const launched = move.replacements?.length ?? 1;
    const kind =
      move.method === 'delete'
        ? 'delete'
        : launched === 1
          ? 'replace'
          : move.candidates.length === 1 || launched > 2
            ? 're-pack into smaller nodes'
            : 'exchange';
    kinds[kind] = (kinds[kind] ?? 0) + 1;
    bad += apply(c, move);
    if (moves % PROGRESS_EVERY === 0)
      progress?.(
        `   ... budget ${budget}%: ${moves} moves, ${c.nodes.length} nodes, $${cost(c).toFixed(2)}/h, ${cpuSeconds.toFixed(1)} CPU s in evaluations`,
      );
  }
  return {
    budget: `${budget}%`,
    evaluations,
    moves,
    seconds: (performance.now() - start) / 1000,
    capped,
    cpuSeconds,
    maxEvalCpuSeconds,
    trials,
    cutSearches,
    kinds,
    nodesBefore,
    nodesAfter: c.nodes.length,
    costBefore,
    costAfter: cost(c),
    badDecisions: bad,
  };
}

/** The cost of a fresh re-pack of the cluster's pods by the scheduler. */
function repack(c: SyntheticCluster): number {
  const plan = schedule({
    pods: c.pods.map((p) => ({ ...p, spec: { ...p.spec, nodeName: undefined } })),
    nodes: [],
    inFlight: [],
    daemonSets: [],
    persistentVolumes: [],
    persistentVolumeClaims: [],
    pools: c.pools,
  });
  return plan.nodeClaims.reduce((s, x) => s + (x.instanceTypeOptions[0]?.price ?? 0), 0);
}

/** Measures one case. */
export async function measureCase(
  nodes: number,
  share: number,
  runs = 3,
  milpTimeLimitSeconds = 60,
  withLoops = true,
  loopCapMs = Number.POSITIVE_INFINITY,
  budgets: readonly number[] = [100, 10],
): Promise<CaseResult> {
  const build = () => buildCluster(nodes, share);
  const c = build();
  const times: number[] = [];
  const cpus: number[] = [];
  let heap = 0;
  // With several runs the first is a warm-up (JIT); with one it is the measured run.
  const heapBefore = process.memoryUsage().heapUsed;
  const first = performance.now();
  let result = evaluate(c, () => Number.POSITIVE_INFINITY);
  if (runs <= 1) {
    times.push((performance.now() - first) / 1000);
    cpus.push(result.cpuSeconds);
    heap = process.memoryUsage().heapUsed - heapBefore;
  }
  for (let i = 0; i < (runs <= 1 ? 0 : runs); i++) {
    const before = process.memoryUsage().heapUsed;
    const start = performance.now();
    result = evaluate(c, () => Number.POSITIVE_INFINITY);
    times.push((performance.now() - start) / 1000);
    cpus.push(result.cpuSeconds);
    heap = Math.max(heap, process.memoryUsage().heapUsed - before);
  }
  times.sort((a, b) => a - b);
  cpus.sort((a, b) => a - b);
  const loops = withLoops ? budgets.map((b) => loop(build, b, loopCapMs)) : [];
  const repackCost = repack(c);
  let milp: Awaited<ReturnType<typeof optimumCost>> | undefined;
  if (milpTimeLimitSeconds > 0) {
    const { types, shapes } = repackProblem(c.pods, c.pools);
    milp = await optimumCost(types, shapes, repackCost, milpTimeLimitSeconds);
  }
  return {
    nodes: c.nodes.length,
    removedShare: share,
    pods: c.pods.length,
    candidates: result.candidates.length,
    evalCapped: result.cut || result.capped,
    evalSeconds: times[Math.floor(times.length / 2)],
    evalCpuSeconds: cpus[Math.floor(cpus.length / 2)],
    evalTrials: result.trials,
    heapMiB: Number((Math.max(0, heap) / 2 ** 20).toFixed(1)),
    moveMethod: result.move?.method ?? 'none',
    moveNodes: result.move?.candidates.length ?? 0,
    repackCost,
    ...(milp
      ? {
          milpCost: milp.cost,
          milpMethod: milp.method,
          milpSeconds: milp.seconds,
          milpBest: milp.best,
          milpGap: milp.gap,
        }
      : {}),
    loops: loops.map((l) => ({
      ...l,
      costRatio: repackCost > 0 ? l.costAfter / repackCost : 1,
      ...(milp && milp.cost > 0 ? { milpRatio: l.costAfter / milp.cost } : {}),
    })),
  };
}

async function main(): Promise<void> {
  const json = process.argv.includes('--json');
  progress = (line) => process.stderr.write(`${line}\n`);
  const list = (flag: string, fallback: number[]) => {
    const k = process.argv.indexOf(flag);
    if (k < 0) return fallback;
    const values = (process.argv[k + 1] ?? '').split(',').map(Number);
    if (values.some((v) => !(v > 0)))
      throw new Error(
        `${flag} takes positive numbers separated by commas, got '${process.argv[k + 1] ?? ''}'`,
      );
    return values;
  };
  const sizesNamed = process.argv.includes('--sizes');
  const sizes = list('--sizes', SIZES);
  if (sizes.some((n) => !Number.isInteger(n))) throw new Error('--sizes takes whole numbers of nodes');
  const m = process.argv.indexOf('--milp-seconds');
  const milpSeconds = m >= 0 ? Number(process.argv[m + 1]) : 60;
  const l = process.argv.indexOf('--loop-seconds');
  const loopCap = l >= 0 ? Number(process.argv[l + 1]) * 1000 : Number.POSITIVE_INFINITY;
  const shares = list('--shares', SHARES);
  const budgets = list('--budgets', [100, 10]);
  const rows: CaseResult[] = [];
  for (const size of sizes)
    for (const share of shares) {
      const r = await measureCase(
        size,
        share,
        size >= 2000 ? 1 : 3,
        milpSeconds,
        !process.argv.includes('--evaluate-only') && (sizesNamed || size <= DEFAULT_LOOPS_UP_TO),
        loopCap,
        budgets,
      );
      rows.push(r);
      if (json) continue;
      const evalTarget =
        size === 2000 ? ` (target <= ${TARGETS.evalSeconds2000}s, <= ${TARGETS.heapMiB2000} MiB)` : '';
      console.log(
        `${size} nodes, ${share * 100}% pods removed: ${r.nodes} nodes ${r.pods} pods ${r.candidates} candidates | ` +
          `one evaluation ${r.evalSeconds.toFixed(2)} s wall, ${r.evalCpuSeconds.toFixed(2)} CPU s, ${r.evalTrials} candidate evaluations${r.evalCapped ? ' (CUT by its budget, best set so far)' : ''} heap +${r.heapMiB} MiB${evalTarget} | move ${r.moveMethod} ${r.moveNodes} nodes`,
      );
      if (r.milpCost !== undefined)
        console.log(
          `   MILP re-pack (requests only): $${r.milpCost.toFixed(2)}/h, ${r.milpMethod}, ${r.milpSeconds?.toFixed(1)} s` +
            (r.milpGap
              ? `; NOT the optimum: it lies in [$${r.milpCost.toFixed(2)}, $${r.milpBest?.toFixed(2)}]/h (MIP gap ${(r.milpGap * 100).toFixed(1)}%)`
              : '') +
            `; scheduler re-pack $${r.repackCost.toFixed(2)}/h`,
        );
      if (r.loops.length === 0 && !process.argv.includes('--evaluate-only'))
        console.log(`   apply loops not run by default at ${size} nodes (\`-- --sizes ${size}\` runs them)`);
      for (const l of r.loops)
        console.log(
          `   budget ${l.budget.padStart(4)}: ${l.evaluations} evaluations ${l.moves} moves (${Object.entries(
            l.kinds,
          )
            .map(([k, n]) => `${n} ${k}`)
            .join(', ')}) ` +
            `${l.cpuSeconds.toFixed(1)} CPU s (longest evaluation ${l.maxEvalCpuSeconds.toFixed(2)}), ${l.seconds.toFixed(1)} wall s, ${l.trials} candidate evaluations${l.cutSearches ? `, ${l.cutSearches} searches cut by their budget` : ''}${l.capped ? ' (CAPPED by --loop-seconds)' : ''} | ` +
            `nodes ${l.nodesBefore} -> ${l.nodesAfter} | $${l.costBefore.toFixed(2)}/h -> $${l.costAfter.toFixed(2)}/h | ` +
            `/ MILP ${r.milpGap ? 'bound' : 'optimum'} ${l.milpRatio?.toFixed(3) ?? 'n/a'} (target <= ${TARGETS.costRatio})` +
            (r.milpGap && r.milpBest
              ? `, / best known packing ${(l.costAfter / r.milpBest).toFixed(3)}`
              : '') +
            ` / scheduler re-pack ${l.costRatio.toFixed(3)} | ` +
            `bad decisions ${l.badDecisions} (target 0)`,
        );
    }
  if (json)
    console.log(
      JSON.stringify(
        {
          benchmark: 'consolidation',
          references: {
            milpCost:
              'HiGHS MILP re-pack of the remaining pods by requests only (optimum, or proven lower bound with milpBest the best packing known and milpGap the gap between them)',
            repackCost:
              'scheduler re-pack of the remaining pods as pending (heuristic, not a proven optimum)',
          },
          targets: TARGETS,
          rows,
        },
        null,
        2,
      ),
    );
}

if (process.argv[1]?.endsWith('consolidation.ts')) await main();
