/**
 * Runs a shipped scenario once with joiner's full stack (IAM enforced) and records every distinct
 * authorization request it made, with the template its account enforced: the input of the IAM
 * minimality check (see authorization-replay.ts).
 */
import { bundledCatalog } from '../../../core/catalog/bundled.js';
import { defaultTopology } from '../../ec2/topology.js';
import { loadScenario } from '../../scenario/load-scenario.js';
import { runScenario, type ScenarioResult } from '../../scenario/run-scenario.js';
import { synthesizeStack } from '../../stack/synthesize-stack.js';
import { type RecordedRun, RequestRecorder } from './authorization-replay.js';

/** Options of {@link recordScenarioRun}. */
export interface RecordOptions {
  /** Virtual seconds per wall second (the outcome does not depend on it). Default 200. */
  readonly speed?: number;
  /** Receives the run's log lines. */
  readonly onLog?: (line: string) => void;
}

/** A recorded run and the scenario's own result (it must have passed for the recording to count). */
export interface RecordedScenario {
  readonly run: RecordedRun;
  readonly result: ScenarioResult;
  /** The stack inputs a `--stack-template` of this scenario must be synthesized with. */
  readonly stack: { readonly nodeRoleArns: readonly string[]; readonly ebsKmsKeyArns: readonly string[] };
}

const STEP = /simulate step (\d+): (\w+)/;

/** Runs the scenario at `file` and records its requests. */
export async function recordScenarioRun(
  file: string,
  options: RecordOptions = {},
): Promise<RecordedScenario> {
  const scenario = await loadScenario(file);
  const region = scenario.region ?? bundledCatalog.region;
  const account = defaultTopology(scenario.clusterName, region).accountId;
  const template = await synthesizeStack({
    clusterName: scenario.clusterName,
    region,
    account,
    nodeRoleArns: scenario.stack.nodeRoleArns,
    ebsKmsKeyArns: scenario.stack.ebsKmsKeyArns,
  });
  let step = 'setup';
  const recorder = new RequestRecorder(() => step);
  const result = await runScenario(scenario, {
    speed: options.speed ?? 200,
    onAuthorization: recorder.observe,
    onLog: (line) => {
      const m = STEP.exec(line);
      if (m) step = `step ${m[1]}: ${m[2]}`;
      options.onLog?.(line);
    },
  });
  return {
    run: {
      scenario: scenario.name,
      clusterName: scenario.clusterName,
      region,
      account,
      template: template as unknown as RecordedRun['template'],
      requests: recorder.requests,
    },
    result,
    stack: { nodeRoleArns: scenario.stack.nodeRoleArns, ebsKmsKeyArns: scenario.stack.ebsKmsKeyArns },
  };
}
