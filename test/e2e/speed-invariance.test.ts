import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../functions/simulator/scenario/load-scenario.js';
import { runScenario, type ScenarioResult } from '../../functions/simulator/scenario/run-scenario.js';
import type { Percentiles } from '../../functions/simulator/scenario/summary.js';
import { scenarioPath } from './scenario-runner.js';

// The inflate deployment (4 x 1 CPU) on a spot Provisioner: a scale-out from zero. Kubelet stages are
// shortened, and the slow run is at speed 2 (two virtual seconds per wall second while waiting), so
// that the pair stays around ten seconds; `joiner simulate` at speed 1 behaves the same.
const SCENARIO = `
name: speed-invariance
seed: 7
clusterName: karpenter-demo
cluster:
  - file: ../examples/seed-002/provisioner.yaml
steps:
  - apply:
      - file: ../examples/seed-002/workloads.yaml
  - wait: { for: podsRunning, timeout: 3m }
`;

const FAST_KUBELETS = {
  nodeRegistered: { delayMs: 1_500, jitterMs: 500 },
  nodeReady: { delayMs: 500, jitterMs: 500 },
  multusReady: { delayMs: 200, jitterMs: 200 },
  podRunning: { delayMs: 300, jitterMs: 300 },
};

async function run(speed: number): Promise<ScenarioResult> {
  const scenario = await parseScenario(SCENARIO, scenarioPath('speed-invariance'));
  return runScenario(scenario, { speed, kubeTimings: FAST_KUBELETS });
}

/** What the run decided: its nodes (type, zone, capacity type, pods) and the pods' outcome. */
const decisions = (r: ScenarioResult) => ({
  pods: r.summary.pods,
  nodes: r.summary.nodes.map((n) => `${n.instanceType} ${n.zone} ${n.capacityType} ${n.pods}`).sort(),
});

/** Tolerance of the virtual latencies (joiner's compute is modeled: they should be equal). */
const NOISE_MS = 1_000;

const closeTo = (a: Percentiles, b: Percentiles) => {
  expect(a.samples).toBe(b.samples);
  expect(Math.abs((a.p50 ?? 0) - (b.p50 ?? 0))).toBeLessThanOrEqual(NOISE_MS);
  expect(Math.abs((a.p99 ?? 0) - (b.p99 ?? 0))).toBeLessThanOrEqual(NOISE_MS);
};

describe('--speed changes wall time only', () => {
  it('gives the same decisions and virtual latencies at speed 2 and at speed 50', {
    timeout: 120_000,
  }, async () => {
    const slow = await run(2);
    const fast = await run(50);
    expect(slow.ok, [...slow.failures, ...slow.notes].join('\n')).toBe(true);
    expect(fast.ok, [...fast.failures, ...fast.notes].join('\n')).toBe(true);
    expect(decisions(fast)).toEqual(decisions(slow));
    expect(slow.summary.pods.running).toBe(4);
    closeTo(fast.summary.latency.unschedulableToLaunchMs, slow.summary.latency.unschedulableToLaunchMs);
    closeTo(fast.summary.latency.unschedulableToReadyMs, slow.summary.latency.unschedulableToReadyMs);
    closeTo(fast.summary.latency.unschedulableToRunningMs, slow.summary.latency.unschedulableToRunningMs);
    // joiner reacts like Karpenter (a ~1 s batch and a few seconds of API calls), not 20 x slower.
    expect(fast.summary.latency.unschedulableToLaunchMs.p50).toBeLessThan(8_000);
    // The fast run waited less wall time for the same virtual time.
    expect(fast.summary.wallDurationMs).toBeLessThan(slow.summary.wallDurationMs);
  });
});
