/**
 * joiner's command line as a commander program: `joiner <command> --help` describes each command.
 */
import { Command } from 'commander';
import { registerCatalog } from './commands/catalog.js';
import { registerPlan } from './commands/plan.js';
import { registerSim } from './commands/sim.js';
import { registerSimulate } from './commands/simulate.js';
import { registerValidate } from './commands/validate.js';

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
    .description('A Kubernetes node autoscaler for Amazon EKS that runs entirely on AWS Lambda.')
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
