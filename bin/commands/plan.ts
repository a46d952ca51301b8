import type { Command } from 'commander';

/** Registers `joiner plan`. */
export function registerPlan(program: Command): void {
  program
    .command('plan')
    .description('(not built yet)')
    .action(() => {
      console.error('joiner plan: not built yet');
      process.exitCode = 2;
    });
}
