/**
 * Determinism check (issue: outcomes independent of host load): plays one scale-out and
 * consolidation scenario twice, the second time next to CPU-burning neighbour processes, and
 * compares the decisions (launches and removals: nodes, types, reasons, order). Prints both logs
 * and exits 1 when they differ. Not part of `npm test`: it does not hold yet on every run (the
 * simulated cloud's concurrent HTTP traffic still interleaves with host load), and a test that
 * fails at random would hide every other result.
 *
 * Run: npm run bench:determinism
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Action } from '../functions/simulator/scenario/action-log.js';
import { parseScenario } from '../functions/simulator/scenario/load-scenario.js';
import { runScenario, type ScenarioResult } from '../functions/simulator/scenario/run-scenario.js';

const SCENARIO = `
name: deterministic-decisions
seed: 3
clusterName: demo
cluster:
  - file: ../examples/consolidation/nodepool.yaml
steps:
  - apply:
      - file: ../examples/consolidation/workloads.yaml
  - scale: { deployment: web, replicas: 8 }
  - wait: { for: idle, timeout: 5m }
  - scale: { deployment: web, replicas: 2 }
  - wait: 4m
stack:
  nodeRoleArns:
    - arn:aws:iam::111122223333:role/KarpenterNodeRole-demo
`;

const FAST_KUBELETS = {
  nodeRegistered: { delayMs: 1_500, jitterMs: 500 },
  nodeReady: { delayMs: 500, jitterMs: 500 },
  multusReady: { delayMs: 200, jitterMs: 200 },
  podRunning: { delayMs: 300, jitterMs: 300 },
};

async function run(): Promise<ScenarioResult> {
  const path = fileURLToPath(new URL('../scenarios/deterministic-decisions.yaml', import.meta.url));
  const scenario = await parseScenario(SCENARIO, path);
  return runScenario(scenario, { speed: 1_000, kubeTimings: FAST_KUBELETS });
}

/**
 * What the run decided, in order: launches and removals, their nodes, types and reasons (the
 * virtual times are left out: a drain's steps can still land a few seconds apart).
 */
const decisions = (r: ScenarioResult): string[] =>
  r.trace.actions.map((a: Action) => {
    const f = a.fields;
    const what = [f['instance-type'], f.zone, f['capacity-type'], f.node, f.reason, f.pods]
      .filter((v) => v !== undefined)
      .join(' ');
    return `${a.function} ${a.message.split(' {')[0]} ${what}`;
  });

/** Node processes that spin on a CPU each until killed: the busy neighbours. */
function burnCpus(count: number): ChildProcess[] {
  return Array.from({ length: count }, () =>
    spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
  );
}

const idle = await run();
const burners = burnCpus(2);
let busy: ScenarioResult;
try {
  busy = await run();
} finally {
  for (const burner of burners) burner.kill('SIGKILL');
}
const a = decisions(idle);
const b = decisions(busy);
console.log(
  `idle run (${a.length} decisions${idle.failures.length ? `, failed: ${idle.failures.join('; ')}` : ''}):`,
);
for (const line of a) console.log(`  ${line}`);
console.log(
  `busy run (${b.length} decisions${busy.failures.length ? `, failed: ${busy.failures.join('; ')}` : ''}):`,
);
for (const line of b) console.log(`  ${line}`);
const same = a.length === b.length && a.every((line, i) => line === b[i]);
console.log(same ? 'decisions: identical' : 'decisions: DIFFERENT');
process.exitCode = same && idle.failures.length === 0 && busy.failures.length === 0 ? 0 : 1;
