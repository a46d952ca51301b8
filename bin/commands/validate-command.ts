import type { Command } from 'commander';
import { withExamples } from './help-text.js';
import { collectFile, inputFiles } from './input-files.js';

/**
 * Registers `joiner validate [FILE...]` (or `-f FILE_OR_DIR`): checks NodePools, NodeClasses and
 * workload files (exit 0 all valid, 1 a document is invalid, 2 a path cannot be read). The loaders are imported only when the command runs.
 */
export function registerValidate(program: Command): void {
  const command = program
    .command('validate')
    .description(
      'Check NodePool / EC2NodeClass / Provisioner / AWSNodeTemplate / joiner NodeClass and workload documents.\n' +
        'Prints each document as "file: Kind/name: ok" or its errors (file, document, field path), and warnings\n' +
        '(among them requirement values that match no instance type, zone or capacity type of the bundled catalog).\n' +
        'Exit 0 when every document is valid, 1 when one is not, 2 when a path is missing or unreadable.',
    )
    .argument('[files...]', 'YAML/JSON files or directories (same as -f)')
    .option(
      '-f, --file <path>',
      'a .yaml/.yml/.json file or a directory of them (repeatable)',
      collectFile,
      [],
    )
    .action(async (positional: string[], options: { file: string[] }, command: Command) => {
      const files = inputFiles(command, positional, options.file);
      const [{ loadFiles }, { renderValidation }, { bundledCatalog }] = await Promise.all([
        import('../../functions/adapters/files/load-files.js'),
        import('./validate.js'),
        import('../../functions/core/catalog/bundled.js'),
      ]);
      const loaded = await loadFiles(files);
      const { lines, ok } = renderValidation(loaded, bundledCatalog);
      for (const line of lines) console.log(line);
      // A path that cannot be read is bad input (2); documents that were read and are wrong are a "no" (1).
      const unreadable = loaded.diagnostics.some((d) => d.severity === 'error' && d.document === '');
      process.exitCode = unreadable ? 2 : ok ? 0 : 1;
    });
  withExamples(command, [
    ['joiner validate examples/seed-003', 'every .yaml/.yml/.json file under a directory'],
    ['joiner validate -f nodepool.yaml -f ec2nodeclass.yaml', 'two files'],
  ]);
}
