import type { Command } from 'commander';
import { loadFiles } from '../../functions/adapters/files/load-files.js';
import type { Diagnostic } from '../../functions/core/model/config/diagnostic.js';
import { documentLabel, formatDiagnostic } from '../../functions/core/model/config/diagnostic.js';
import type { LoadedConfig } from '../../functions/core/model/config/load.js';

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** Renders the result of loading: per document `file: Kind/name: ok` or its errors, then warnings. */
export function renderValidation(loaded: LoadedConfig): { lines: string[]; ok: boolean } {
  const lines: string[] = [];
  const printed = new Set<Diagnostic>();
  for (const { source, ok } of loaded.documents) {
    const label = documentLabel(source);
    const mine = loaded.diagnostics.filter((d) => d.file === source.file && d.document === label);
    lines.push(`${source.file}: ${label}: ${ok ? 'ok' : 'invalid'}`);
    for (const d of mine) {
      lines.push(`  ${d.severity}: ${formatDiagnostic(d)}`);
      printed.add(d);
    }
  }
  for (const d of loaded.diagnostics)
    if (!printed.has(d)) lines.push(`${d.severity}: ${formatDiagnostic(d)}`);
  const errors = loaded.diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = loaded.diagnostics.length - errors;
  const ok = errors === 0 && loaded.documents.length > 0;
  const summary = `${loaded.documents.length} document(s), ${errors} error(s), ${warnings} warning(s)`;
  lines.push(loaded.documents.length === 0 ? `${summary}: nothing to validate` : summary);
  return { lines, ok };
}

/** Registers `joiner validate -f FILE_OR_DIR...`: checks NodePools, NodeClasses and workload files. */
export function registerValidate(program: Command): void {
  program
    .command('validate')
    .description(
      'Check NodePool / EC2NodeClass / Provisioner / AWSNodeTemplate / joiner NodeClass and workload documents.\n' +
        'Prints each document as "file: Kind/name: ok" or its errors (file, document, field path), and warnings.\n' +
        'Exits 0 only when every document is valid.',
    )
    .requiredOption(
      '-f, --file <path>',
      'a .yaml/.yml/.json file or a directory of them (repeatable)',
      collect,
      [],
    )
    .action(async (options: { file: string[] }) => {
      const { lines, ok } = renderValidation(await loadFiles(options.file));
      for (const line of lines) console.log(line);
      process.exitCode = ok ? 0 : 1;
    });
}
