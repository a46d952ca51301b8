import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Command } from 'commander';
import type { Catalog } from '../../functions/core/model/instance-type.js';
import type { ReportContext } from '../../functions/simulator/report/html-report.js';
import type { Scenario } from '../../functions/simulator/scenario/load-scenario.js';
import type { ScenarioResult } from '../../functions/simulator/scenario/run-scenario.js';
import { withExamples } from './help-text.js';
import { parseFormat, parseSeed, parseSpeed } from './option-values.js';

interface SimulateOptions {
  readonly catalog?: string;
  readonly seed?: number;
  readonly speed?: number;
  readonly output: 'text' | 'json';
  readonly report?: string;
  /** commander's `--no-iam`: false turns IAM off. */
  readonly iam: boolean;
  readonly stackTemplate?: string;
}

/**
 * Registers `joiner simulate SCENARIO.yaml`: runs a scenario in the simulated cloud with joiner's
 * real handlers, prints the Karpenter-style log as it happens (text mode) and a summary. Exit
 * code 0 when the scenario's expectations hold, 1 when one fails, 2 on bad input.
 */
export function registerSimulate(program: Command): void {
  const command = program
    .command('simulate')
    .description(
      'Run a scenario (scenarios/*.yaml) in the simulated cloud with joiner’s real handlers; print the log and a ' +
        'summary of pods, nodes, Multus ENIs, hourly cost, latencies (virtual ms) and orphaned instances. ' +
        'Exit 0 when the scenario’s expectations hold, 1 when one fails, 2 on bad input.',
    )
    .argument('<scenario>', 'scenario file (YAML)')
    .option('--catalog <file>', 'instance catalog JSON (default: the scenario’s, else the bundled catalog)')
    .option('--seed <n>', 'seed of the simulated randomness (default: the scenario’s)', parseSeed)
    .option('--speed <x>', 'virtual seconds per wall second (default: the scenario’s)', parseSpeed)
    .option('-o, --output <format>', 'text or json', parseFormat('text', 'json'), 'text' as const)
    .option('--report <file>', 'also write an HTML report (charts and tables, one self-contained file)')
    .option(
      '--stack-template <file>',
      'enforce the IAM of an already synthesized stack (template file or `cdk synth -o DIR`) instead of synthesizing joiner’s stack',
    )
    .option('--no-iam', 'DEBUGGING ONLY: turn the simulated account’s IAM off (every AWS call is allowed)')
    .action(async (path: string, options: SimulateOptions) => {
      process.exitCode = await simulate(path, options);
    });
  withExamples(command, [
    ['joiner simulate scenarios/seed-000-multus.yaml', 'run a scenario, print its log and summary'],
    ['joiner simulate scenarios/seed-000-multus.yaml --report report.html', 'also write the HTML report'],
    ['joiner simulate scenarios/seed-000-multus.yaml -o json --seed 7', 'the summary as JSON, another seed'],
  ]);
}

async function prepare(
  path: string,
  options: SimulateOptions,
): Promise<{ scenario: Scenario; catalog?: Catalog }> {
  const [{ loadScenario }, { readCatalog }] = await Promise.all([
    import('../../functions/simulator/scenario/load-scenario.js'),
    import('../../functions/adapters/files/read-catalog.js'),
  ]);
  const scenario = await loadScenario(path);
  if (options.stackTemplate) {
    // A template that is not joiner's stack is bad input (exit 2), found before anything runs.
    const { loadStackTemplate } = await import(
      '../../functions/simulator/iam/authorization/stack-template-file.js'
    );
    loadStackTemplate(options.stackTemplate);
  }
  const catalogPath = options.catalog ?? scenario.catalogPath;
  return { scenario, catalog: catalogPath ? await readCatalog(catalogPath) : undefined };
}

async function simulate(path: string, options: SimulateOptions): Promise<number> {
  let input: { scenario: Scenario; catalog?: Catalog };
  try {
    input = await prepare(path, options);
  } catch (error) {
    console.error(`joiner simulate: ${(error as Error).message}`);
    return 2;
  }
  const json = options.output === 'json';
  // The simulator and the handlers load only when a scenario runs (`joiner --help` stays instant).
  const [{ runScenario }, { formatSummary }, { Progress }] = await Promise.all([
    import('../../functions/simulator/scenario/run-scenario.js'),
    import('../../functions/simulator/scenario/format-summary.js'),
    import('../../functions/simulator/progress.js'),
  ]);
  // Text mode prints the log as it happens; with -o json, stderr shows the scenario's steps as
  // progress (in place on a terminal, plain lines elsewhere).
  const progress = new Progress(process.stderr);
  const step = /^(\S+) INFO simulate (step .*)$/;
  try {
    const result = await runScenario(input.scenario, {
      seed: options.seed,
      speed: options.speed,
      catalog: input.catalog,
      iam: options.iam,
      stackTemplate: options.stackTemplate,
      onLog: json
        ? (line) => {
            const match = step.exec(line);
            if (match) progress.update(`${input.scenario.name}: ${match[2]} (virtual ${match[1]})`);
          }
        : (line) => process.stdout.write(`${line}\n`),
    });
    progress.done();
    if (json) {
      process.stdout.write(
        `${JSON.stringify({ ...result.summary, failures: result.failures, notes: result.notes }, null, 2)}\n`,
      );
    } else process.stdout.write(`${formatSummary(result)}\n`);
    if (options.report) {
      const file = await writeReport(options.report, result, {
        seed: options.seed ?? input.scenario.seed,
        file: path,
        description: input.scenario.description,
      });
      (json ? process.stderr : process.stdout).write(`report: ${file}\n`);
    }
    for (const failure of result.failures) console.error(`joiner simulate: expectation failed: ${failure}`);
    return result.ok ? 0 : 1;
  } catch (error) {
    console.error(`joiner simulate: ${input.scenario.file}: ${(error as Error).message}`);
    return 2;
  }
}

/** Writes the HTML report (creating its directory); returns its absolute path. */
async function writeReport(file: string, result: ScenarioResult, context: ReportContext): Promise<string> {
  const target = resolve(file);
  const { renderReport } = await import('../../functions/simulator/report/html-report.js');
  try {
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, renderReport(result, context));
  } catch (error) {
    throw new Error(`--report: cannot write ${target}: ${(error as Error).message}`);
  }
  return target;
}
