/**
 * joiner's command line as a commander program: `joiner <command> --help` describes each command.
 * Registering a command loads no more than commander: each command imports what it runs when it
 * runs, so `joiner --help` starts at once.
 */
import { Command, CommanderError } from 'commander';
import packageJson from '../package.json' with { type: 'json' };
import { registerCatalog } from './commands/catalog.js';
import { EXIT_CODES, withExamples } from './commands/help-text.js';
import { registerPlan } from './commands/plan-command.js';
import { registerSim } from './commands/sim.js';
import { registerSimulate } from './commands/simulate.js';
import { registerValidate } from './commands/validate-command.js';

/** Options of {@link createProgram}. */
export interface ProgramOptions {
  /** Throw a CommanderError instead of exiting the process (in-process callers and tests). */
  readonly exitOverride?: boolean;
}

/** Exit code of a usage error (unknown command or option, bad or missing value): bad input. */
export const USAGE_EXIT_CODE = 2;

/**
 * commander exits 1 on usage errors; joiner's convention is 2 for any bad input (1 means "the
 * answer is no"). Help and version keep their 0.
 */
export function usageExitCode(error: CommanderError): number {
  return error.exitCode !== 0 && error.code.startsWith('commander.') ? USAGE_EXIT_CODE : error.exitCode;
}

/** Builds the `joiner` program with every command registered. */
export function createProgram(options: ProgramOptions = {}): Command {
  const program = new Command();
  program
    .name('joiner')
    .description(
      'A Kubernetes node autoscaler for Amazon EKS that runs entirely on AWS Lambda.\n' +
        'Supported Node.js versions: 20 and 22 (the functions run on the Lambda nodejs22.x runtime).',
    )
    .version(packageJson.version, '-V, --version', 'print the version of joiner')
    .showHelpAfterError()
    .enablePositionalOptions()
    // Set before the commands are registered, so every command and subcommand inherits it.
    .exitOverride((error) => {
      const code = usageExitCode(error);
      if (options.exitOverride) throw new CommanderError(code, error.code, error.message);
      process.exit(code);
    });
  withExamples(program, [
    [
      'joiner simulate scenarios/seed-000-multus.yaml --report report.html',
      'run a scenario, write an HTML report',
    ],
    ['joiner plan examples/seed-002', 'the nodes joiner would launch for the pending pods in a directory'],
    ['joiner validate -f nodepools.yaml', 'check NodePool and EC2NodeClass documents'],
    ['joiner sim up', 'run joiner in the simulated cloud and use it with kubectl'],
    ['joiner catalog fetch --region eu-west-1 --output-file catalog.json', "write a region's live catalog"],
  ]).addHelpText('after', `\n${EXIT_CODES}\n`);
  registerValidate(program);
  registerPlan(program);
  registerSim(program);
  registerSimulate(program);
  registerCatalog(program);
  return program;
}
