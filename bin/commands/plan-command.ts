import type { Command } from 'commander';
import { collectFile, inputFiles } from './input-files.js';

interface PlanOptions {
  readonly file: string[];
  readonly catalog?: string;
  readonly output: string;
}

/**
 * Registers `joiner plan [FILE...]`: the scheduler's plan for NodePools and workloads read from
 * files. The scheduler and the catalog load only when the command runs.
 */
export function registerPlan(program: Command): void {
  program
    .command('plan')
    .description(
      'plan nodes for the pending pods in the files: new nodeclaims, placements, unschedulable pods',
    )
    .argument('[files...]', 'YAML/JSON files or directories (same as -f)')
    .option('-f, --file <path>', 'YAML/JSON file or directory (repeatable)', collectFile, [])
    .option('--catalog <file>', 'instance-type catalog JSON (default: the bundled catalog)')
    .option('-o, --output <format>', 'table or json', 'table')
    .action(async (positional: string[], opts: PlanOptions, command: Command) => {
      const files = inputFiles(command, positional, opts.file);
      if (opts.output !== 'table' && opts.output !== 'json') {
        console.error(`joiner plan: unknown output format "${opts.output}": use table or json`);
        process.exitCode = 2;
        return;
      }
      const { computePlan, formatPlanTable } = await import('./plan.js');
      try {
        const out = await computePlan(files, opts.catalog);
        console.log(opts.output === 'json' ? JSON.stringify(out, null, 2) : formatPlanTable(out));
      } catch (error) {
        console.error(`joiner plan: ${(error as Error).message}`);
        process.exitCode = 1;
      }
    });
}
