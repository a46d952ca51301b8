/**
 * The determinism check (outcomes independent of host load): one scale-out and consolidation
 * scenario, played once on the machine as it is and once next to CPU-burning neighbour processes,
 * and the decisions of both runs (launches and removals: nodes, types, reasons, order) with their
 * virtual times, for `npm run bench:determinism` and test/e2e/determinism.test.ts.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Action } from '../../functions/simulator/scenario/action-log.js';
import { parseScenario } from '../../functions/simulator/scenario/load-scenario.js';
import { runScenario, type ScenarioResult } from '../../functions/simulator/scenario/run-scenario.js';

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
  - wait: 150s
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

/**
 * Plays the scenario once, at `speed` virtual seconds per wall second while everything waits
 * (what happens does not depend on it; Infinity takes the least wall time).
 */
export async function playDeterminismScenario(speed = 1_000): Promise<ScenarioResult> {
  const path = fileURLToPath(new URL('../../scenarios/deterministic-decisions.yaml', import.meta.url));
  const scenario = await parseScenario(SCENARIO, path);
  return runScenario(scenario, { speed, kubeTimings: FAST_KUBELETS });
}

/** What a run decided, in order: launches and removals, their nodes, types and reasons. */
export function decisions(result: ScenarioResult): string[] {
  return result.trace.actions.map((a: Action) => {
    const f = a.fields;
    const what = [f['instance-type'], f.zone, f['capacity-type'], f.node, f.reason, f.pods]
      .filter((v) => v !== undefined)
      .join(' ');
    return `${a.function} ${a.message.split(' {')[0]} ${what}`;
  });
}

/** Each decision's virtual time in seconds from the scenario's start (3 decimals). */
export function decisionTimes(result: ScenarioResult): string[] {
  return result.trace.actions.map((a) => ((a.at - result.trace.startedAt) / 1000).toFixed(3));
}

/** Node processes that spin on a CPU each until killed: the busy neighbours. */
export function burnCpus(count: number): ChildProcess[] {
  return Array.from({ length: count }, () =>
    spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
  );
}

/** Plays the scenario with `count` CPU burners beside it (killed afterwards). */
export async function playBesideBurners(count: number, speed?: number): Promise<ScenarioResult> {
  const burners = burnCpus(count);
  try {
    return await playDeterminismScenario(speed);
  } finally {
    for (const burner of burners) burner.kill('SIGKILL');
  }
}
