import type { Command } from 'commander';

/** Registers `joiner simulate`. */
export function registerSimulate(program: Command): void {
  program
    .command('simulate')
    .description('(not built yet)')
    .action(() => {
      console.error('joiner simulate: not built yet');
      process.exitCode = 2;
    });
}
