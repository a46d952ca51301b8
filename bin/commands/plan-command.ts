import type { Command } from 'commander';
import { withExamples } from './help-text.js';
import { collectFile, inputFiles } from './input-files.js';
import { parseFormat } from './option-values.js';

interface PlanOptions {
  readonly file: string[];
  readonly catalog?: string;
  readonly output: 'table' | 'json';
}

/** What `joiner plan --help` says the files must hold. */
const FILES_HELP = `
The files (YAML or JSON, several documents per file, directories read recursively) hold:
  - at least one NodePool (karpenter.sh/v1) and the EC2NodeClass it names (karpenter.k8s.aws/v1),
    or the older Provisioner / AWSNodeTemplate, or a joiner NodeClass;
  - the workloads: Pods, Deployments, ReplicaSets, StatefulSets, Jobs, DaemonSets, PersistentVolumes
    and PersistentVolumeClaims; pods without spec.nodeName are the pending ones to plan for;
  - optionally existing Nodes (pods naming them in spec.nodeName run there and use their room).
\`joiner validate\` checks the same files and names every problem.`;

/**
 * Registers `joiner plan [FILE...]`: the scheduler's plan for NodePools and workloads read from
 * files. Exit 0 when every pending pod has a place, 1 when some cannot be scheduled, 2 on bad
 * input. The scheduler and the catalog load only when the command runs.
 */
export function registerPlan(program: Command): void {
  const command = program
    .command('plan')
    .description(
      'Plan nodes for the pending pods in the files: new nodeclaims, placements, unschedulable pods.\n' +
        'Exit 0 when every pending pod has a place, 1 when some pod cannot be scheduled, 2 on bad input.',
    )
    .argument('[files...]', 'YAML/JSON files or directories (same as -f)')
    .option('-f, --file <path>', 'YAML/JSON file or directory (repeatable)', collectFile, [])
    .option('--catalog <file>', 'instance-type catalog JSON (default: the bundled catalog)')
    .option('-o, --output <format>', 'table or json', parseFormat('table', 'json'), 'table' as const)
    .addHelpText('after', FILES_HELP)
    .action(async (positional: string[], opts: PlanOptions, command: Command) => {
      const files = inputFiles(command, positional, opts.file);
      const { computePlan, formatPlanTable } = await import('./plan.js');
      let out: Awaited<ReturnType<typeof computePlan>>;
      try {
        out = await computePlan(files, opts.catalog);
      } catch (error) {
        console.error(`joiner plan: ${(error as Error).message}`);
        process.exitCode = 2;
        return;
      }
      console.log(opts.output === 'json' ? JSON.stringify(out, null, 2) : formatPlanTable(out));
      process.exitCode = out.unschedulable.length > 0 ? 1 : 0;
    });
  withExamples(command, [
    ['joiner plan examples/seed-002', 'plan for every file in a directory, as a table'],
    [
      'joiner plan -f nodepools.yaml -f pods.yaml -o json',
      'the same as JSON (nodeClaims, unschedulable, summary)',
    ],
    [
      'joiner plan examples/seed-002 --catalog catalog.json',
      'with a catalog written by `joiner catalog fetch`',
    ],
  ]);
}
