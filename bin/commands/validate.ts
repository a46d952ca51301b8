import type { Command } from 'commander';

/** Registers `joiner validate`. */
export function registerValidate(program: Command): void {
  program
    .command('validate')
    .description('(not built yet)')
    .action(() => {
      console.error('joiner validate: not built yet');
      process.exitCode = 2;
    });
}
