import { fileURLToPath } from 'node:url';
import { loadScenario } from '../../functions/simulator/scenario/load-scenario.js';
import {
  type RunScenarioOptions,
  runScenario,
  type ScenarioResult,
} from '../../functions/simulator/scenario/run-scenario.js';

/** Path of a scenario shipped in scenarios/. */
export function scenarioPath(name: string): string {
  return fileURLToPath(new URL(`../../scenarios/${name}.yaml`, import.meta.url));
}

/**
 * Speed of the scenarios in tests: the speed changes only the wall time a run waits on timers, not
 * what happens in it (test/e2e/speed-invariance.test.ts), so tests do not wait at all: the clock
 * jumps to the next timer whenever everything waits (as the scale and chaos runs do).
 */
const TEST_SPEED = Number.POSITIVE_INFINITY;

/** Loads and runs a shipped scenario (at {@link TEST_SPEED} unless told), keeping its log lines for failure messages. */
export async function runShippedScenario(
  name: string,
  options: Omit<RunScenarioOptions, 'onLog'> = {},
): Promise<ScenarioResult & { log: string[] }> {
  const log: string[] = [];
  const scenario = await loadScenario(scenarioPath(name));
  const result = await runScenario(scenario, {
    speed: TEST_SPEED,
    ...options,
    onLog: (line) => log.push(line),
  });
  return { ...result, log };
}

/** A failure report: the failed expectations, the notes and the end of the log. */
export function explain(result: ScenarioResult & { log: string[] }): string {
  return [...result.failures, ...result.notes, '--- log tail ---', ...result.log.slice(-30)].join('\n');
}
