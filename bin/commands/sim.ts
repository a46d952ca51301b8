import type { Command } from 'commander';

/** Registers `joiner sim`. */
export function registerSim(program: Command): void {
  program
    .command('sim')
    .description('(not built yet)')
    .action(() => {
      console.error('joiner sim: not built yet');
      process.exitCode = 2;
    });
}
