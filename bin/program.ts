/**
 * joiner's command line as a commander program: `joiner <command> --help` describes each command.
 * Registering a command loads no more than commander: each command imports what it runs when it
 * runs, so `joiner --help` starts at once.
 */
import { Command } from 'commander';
import packageJson from '../package.json' with { type: 'json' };
import { registerCatalog } from './commands/catalog.js';
import { registerPlan } from './commands/plan-command.js';
import { registerSim } from './commands/sim.js';
import { registerSimulate } from './commands/simulate.js';
import { registerValidate } from './commands/validate-command.js';

/** Options of {@link createProgram}. */
export interface ProgramOptions {
  /** Throw a CommanderError instead of exiting the process (in-process callers and tests). */
  readonly exitOverride?: boolean;
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
    .enablePositionalOptions();
  if (options.exitOverride) program.exitOverride();
  registerValidate(program);
  registerPlan(program);
  registerSim(program);
  registerSimulate(program);
  registerCatalog(program);
  return program;
}
