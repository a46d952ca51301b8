/**
 * A shipped scenario at another size: its `scale` steps' replicas, the counts of its waits (`nodes`,
 * `nodesRemoved`) and expected pod, node and removed-node counts multiplied by one factor (rounded,
 * at least 1). CI runs the scale suite's scenarios this way at a fraction of their size; the
 * benchmark runs them whole.
 */

import type { LoadedStep, Scenario } from '../../functions/simulator/scenario/load-scenario.js';
import type { Expectation } from '../../functions/simulator/scenario/scenario-schema.js';

const times = (n: number | undefined, factor: number): number | undefined =>
  n === undefined ? undefined : n === 0 ? 0 : Math.max(1, Math.round(n * factor));

/** The counts of `counts` that are given, multiplied (absent ones stay absent). */
function scaledCounts<T extends Record<string, number | undefined>>(counts: T, factor: number): T {
  return Object.fromEntries(
    Object.entries(counts)
      .filter(([, n]) => n !== undefined)
      .map(([k, n]) => [k, times(n, factor)]),
  ) as T;
}

function scaledExpectation(e: Expectation, factor: number): Expectation {
  return {
    ...e,
    ...(e.pods ? { pods: scaledCounts(e.pods, factor) } : {}),
    ...(e.nodes ? { nodes: { ...e.nodes, count: times(e.nodes.count, factor) } } : {}),
    ...(e.nodesRemoved ? { nodesRemoved: scaledCounts(e.nodesRemoved, factor) } : {}),
  };
}

function scaledStep(step: LoadedStep, factor: number): LoadedStep {
  if (step.kind === 'scale')
    return { ...step, spec: { ...step.spec, replicas: times(step.spec.replicas, factor) ?? 0 } };
  if (step.kind === 'expect') return { ...step, spec: scaledExpectation(step.spec, factor) };
  if (step.kind === 'wait' && typeof step.spec === 'object' && step.spec.count !== undefined)
    return { ...step, spec: { ...step.spec, count: times(step.spec.count, factor) } };
  return step;
}

/** `scenario` with its sizes multiplied by `factor` (> 0); the name says the size. */
export function scaledScenario(scenario: Scenario, factor: number): Scenario {
  if (!(factor > 0)) throw new Error(`scaledScenario: factor must be a positive number, got ${factor}`);
  if (factor === 1) return scenario;
  return {
    ...scenario,
    name: `${scenario.name} x${factor}`,
    steps: scenario.steps.map((s) => scaledStep(s, factor)),
    ...(scenario.expect ? { expect: scaledExpectation(scenario.expect, factor) } : {}),
  };
}
