import type { DocumentSource } from '../node-pool.js';

/** One problem found while loading configuration or workload documents. */
export interface Diagnostic {
  readonly severity: 'error' | 'warning';
  /** The file the document came from. */
  readonly file: string;
  /**
   * `Kind/name` of the document, or `document N` (1-based) when it has no kind or name; empty
   * when the problem is the whole path (missing, unreadable, a directory without documents).
   */
  readonly document: string;
  /** Dotted field path inside the document, e.g. `spec.template.spec.requirements[0].operator`; empty for the whole document. */
  readonly path: string;
  /** What is wrong. */
  readonly message: string;
  /** What to do about it, when there is something useful to say. */
  readonly hint?: string;
  /** 1-based line and column in the file, when known (YAML syntax errors). */
  readonly position?: { readonly line: number; readonly column: number };
}

/** Formats a diagnostic as `file[:line:column]: Kind/name: path: message (hint: ...)`. */
export function formatDiagnostic(d: Diagnostic): string {
  const file = d.position ? `${d.file}:${d.position.line}:${d.position.column}` : d.file;
  const parts = [file];
  if (d.document !== '') parts.push(d.document);
  if (d.path !== '') parts.push(d.path);
  const hint = d.hint === undefined ? '' : ` (hint: ${d.hint})`;
  return `${parts.join(': ')}: ${d.message}${hint}`;
}

/** The label a document gets in diagnostics: `Kind/name`, or `document N` (1-based) without one. */
export function documentLabel(source: Pick<DocumentSource, 'index' | 'kind' | 'name'>): string {
  if (source.kind !== '' && source.name !== '') return `${source.kind}/${source.name}`;
  if (source.kind !== '') return `${source.kind} (document ${source.index + 1})`;
  return `document ${source.index + 1}`;
}

/** Joins a path of keys and indices as `a.b[0].c`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}

/** True when any diagnostic is an error. */
export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}
