/**
 * joiner's command line: `joiner <command> --help` describes each command.
 */
import { Command } from 'commander';
import { registerPlan } from './commands/plan.js';
import { registerSim } from './commands/sim.js';
import { registerSimulate } from './commands/simulate.js';
import { registerValidate } from './commands/validate.js';

const program = new Command();
program
  .name('joiner')
  .description('A Kubernetes node autoscaler for Amazon EKS that runs entirely on AWS Lambda.')
  .showHelpAfterError()
  .enablePositionalOptions();

registerValidate(program);
registerPlan(program);
registerSim(program);
registerSimulate(program);

await program.parseAsync(process.argv);
