import type { Command } from 'commander';
import { collectFile, inputFiles } from './input-files.js';

/**
 * Registers `joiner validate [FILE...]` (or `-f FILE_OR_DIR`): checks NodePools, NodeClasses and
 * workload files. The loaders are imported only when the command runs.
 */
export function registerValidate(program: Command): void {
  program
    .command('validate')
    .description(
      'Check NodePool / EC2NodeClass / Provisioner / AWSNodeTemplate / joiner NodeClass and workload documents.\n' +
        'Prints each document as "file: Kind/name: ok" or its errors (file, document, field path), and warnings\n' +
        '(among them requirement values that match no instance type, zone or capacity type of the bundled catalog).\n' +
        'Exits 0 only when every document is valid.',
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
      const { lines, ok } = renderValidation(await loadFiles(files), bundledCatalog);
      for (const line of lines) console.log(line);
      process.exitCode = ok ? 0 : 1;
    });
}
