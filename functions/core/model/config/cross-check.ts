import type { NodeClass } from '../node-class.js';
import type { DocumentSource, NodePool } from '../node-pool.js';
import type { Diagnostic } from './diagnostic.js';
import { documentLabel } from './diagnostic.js';

/** Checks across documents: unique names and NodePool -> NodeClass references. */
export interface CrossCheckResult {
  readonly nodePools: NodePool[];
  readonly nodeClasses: NodeClass[];
  readonly diagnostics: Diagnostic[];
  /** Sources of documents that failed a cross-document check. */
  readonly failed: DocumentSource[];
}

function error(source: DocumentSource, path: string, message: string, hint?: string): Diagnostic {
  const d: Diagnostic = {
    severity: 'error',
    file: source.file,
    document: documentLabel(source),
    path,
    message,
  };
  return hint === undefined ? d : { ...d, hint };
}

function unique<T extends { name: string; source: DocumentSource }>(
  items: readonly T[],
  what: string,
  out: CrossCheckResult,
): T[] {
  const seen = new Map<string, T>();
  for (const item of items) {
    const first = seen.get(item.name);
    if (first === undefined) {
      seen.set(item.name, item);
      continue;
    }
    const where = `${first.source.file} (${documentLabel(first.source)})`;
    out.diagnostics.push(
      error(
        item.source,
        'metadata.name',
        `${what} "${item.name}" is already defined in ${where}`,
        'give each one a distinct name',
      ),
    );
    out.failed.push(item.source);
  }
  return [...seen.values()];
}

function refPath(pool: NodePool): string {
  if (pool.source.kind !== 'Provisioner') return 'spec.template.spec.nodeClassRef.name';
  return pool.nodeClassRef.kind === 'AWSNodeTemplate' ? 'spec.providerRef.name' : 'spec.provider';
}

/** Drops duplicates and NodePools whose NodeClass is not loaded, with an error for each. */
export function crossCheck(
  nodePools: readonly NodePool[],
  nodeClasses: readonly NodeClass[],
): CrossCheckResult {
  const out: CrossCheckResult = { nodePools: [], nodeClasses: [], diagnostics: [], failed: [] };
  out.nodeClasses.push(...unique(nodeClasses, 'NodeClass', out));
  const names = new Set(out.nodeClasses.map((c) => c.name));
  for (const pool of unique(nodePools, 'NodePool', out)) {
    if (names.has(pool.nodeClassRef.name)) {
      out.nodePools.push(pool);
      continue;
    }
    const known = [...names].map((n) => `"${n}"`).join(', ') || 'none';
    out.diagnostics.push(
      error(
        pool.source,
        refPath(pool),
        `${pool.nodeClassRef.kind} "${pool.nodeClassRef.name}" is not among the loaded node classes (loaded: ${known})`,
        `add ${/^[AEIOU]/.test(pool.nodeClassRef.kind) ? 'an' : 'a'} ${pool.nodeClassRef.kind} named "${pool.nodeClassRef.name}" to the files, or fix the reference`,
      ),
    );
    out.failed.push(pool.source);
  }
  return out;
}
