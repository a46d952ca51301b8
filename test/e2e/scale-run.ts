import { type ScaleRow, scaleRow } from '../../bench/lib/scale-row.js';
import { scaledScenario } from '../../bench/lib/scaled-scenario.js';
import { loadScenario, type Scenario } from '../../functions/simulator/scenario/load-scenario.js';
import { runScenario } from '../../functions/simulator/scenario/run-scenario.js';
import { scenarioPath } from './scenario-runner.js';

/** A scale-suite scenario played at `factor` of its size, with its bench row and log. */
export interface ScaledRun {
  readonly scenario: Scenario;
  readonly result: Awaited<ReturnType<typeof runScenario>>;
  readonly row?: ScaleRow;
  /** What to print when an expectation fails: the notes and the log's tail. */
  readonly explain: string;
}

/**
 * Plays the shipped scenario `name` at `factor` of its size, timers jumping (see bench:scale);
 * `adjust` changes the scaled scenario first (e.g. its account's EC2 throttling limits).
 */
export async function runScaled(
  name: string,
  factor: number,
  adjust: (scenario: Scenario) => Scenario = (s) => s,
): Promise<ScaledRun> {
  const scenario = adjust(scaledScenario(await loadScenario(scenarioPath(name)), factor));
  const log: string[] = [];
  let row: ScaleRow | undefined;
  const result = await runScenario(scenario, {
    speed: Number.POSITIVE_INFINITY,
    onLog: (line) => log.push(line),
    inspect: async (cloud, outcome) => {
      row = scaleRow(scenario.name, cloud, outcome);
    },
  });
  return { scenario, result, row, explain: [...result.notes, ...log.slice(-30)].join('\n') };
}
