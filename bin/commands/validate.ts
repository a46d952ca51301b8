import { efaConflicts } from '../../functions/core/catalog/efa-conflicts.js';
import {
  catalogValues,
  unknownRequirementValues,
} from '../../functions/core/catalog/unknown-requirement-values.js';
import type { Diagnostic } from '../../functions/core/model/config/diagnostic.js';
import { documentLabel, formatDiagnostic } from '../../functions/core/model/config/diagnostic.js';
import type { LoadedConfig } from '../../functions/core/model/config/load.js';
import type { Catalog } from '../../functions/core/model/instance-type.js';

/**
 * Renders the result of loading: per document `file: Kind/name: ok` or its errors, then warnings.
 * With a `catalog`, requirement values of the NodePools that match none of its instance types are
 * warned about too (unknown-requirement-values.ts), and NodeClasses whose Multus interfaces leave
 * no room for the EFA interfaces of its EFA-capable types (efa-conflicts.ts).
 */
export function renderValidation(loaded: LoadedConfig, catalog?: Catalog): { lines: string[]; ok: boolean } {
  if (catalog) {
    const known = catalogValues(catalog);
    const warnings = [
      ...loaded.nodePools.flatMap((p) => unknownRequirementValues(p, catalog, known)),
      ...loaded.nodeClasses.flatMap((c) => efaConflicts(c, catalog)),
    ];
    loaded = { ...loaded, diagnostics: [...loaded.diagnostics, ...warnings] };
  }
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
  for (const source of loaded.skipped ?? [])
    lines.push(`${source.file}: ${documentLabel(source)}: skipped (joiner does not use ${source.kind})`);
  for (const d of loaded.diagnostics)
    if (!printed.has(d)) lines.push(`${d.severity}: ${formatDiagnostic(d)}`);
  const errors = loaded.diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = loaded.diagnostics.length - errors;
  const ok = errors === 0 && loaded.documents.length > 0;
  const skipped = loaded.skipped?.length ?? 0;
  const summary =
    `${loaded.documents.length} document(s), ${errors} error(s), ${warnings} warning(s)` +
    (skipped > 0 ? `, ${skipped} skipped` : '');
  lines.push(loaded.documents.length === 0 ? `${summary}: nothing to validate` : summary);
  return { lines, ok };
}
