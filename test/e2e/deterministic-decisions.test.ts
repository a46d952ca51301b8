import { type ChildProcess, spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { Action } from '../../functions/simulator/scenario/action-log.js';
import { parseScenario } from '../../functions/simulator/scenario/load-scenario.js';
import { runScenario, type ScenarioResult } from '../../functions/simulator/scenario/run-scenario.js';
import { scenarioPath } from './scenario-runner.js';

// A scale-out and a consolidation: eight 1-CPU replicas (hostname spread) on on-demand c5 / m5
// nodes, scaled to two; joiner removes and replaces nodes within the NodePool's budget. Kubelet
// stages are shortened so that the pair of runs stays within a few minutes on a busy machine.
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
  const scenario = await parseScenario(SCENARIO, scenarioPath('deterministic-decisions'));
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

describe('decisions do not depend on how busy the host is', () => {
  it('makes the same launches and removals, in the same order, with CPU-burning neighbours', {
    timeout: 600_000,
  }, async () => {
    const idle = await run();
    const burners = burnCpus(2);
    let busy: ScenarioResult;
    try {
      busy = await run();
    } finally {
      for (const burner of burners) burner.kill('SIGKILL');
    }
    expect(idle.failures).toEqual([]);
    expect(busy.failures).toEqual([]);
    const log = decisions(idle);
    // The run launched nodes and removed some (the comparison is about decisions, not an empty log).
    expect(log.some((line) => line.includes('launched nodeclaim'))).toBe(true);
    expect(log.some((line) => /disrupting node|terminated node/.test(line))).toBe(true);
    expect(decisions(busy)).toEqual(log);
    expect(busy.summary.nodes.map((n) => `${n.name} ${n.instanceType}`)).toEqual(
      idle.summary.nodes.map((n) => `${n.name} ${n.instanceType}`),
    );
  });
});
