import type { z } from 'zod';
import type { NodeClass } from '../node-class.js';
import type { NodeOverlay } from '../node-overlay.js';
import type { DocumentSource, NodePool } from '../node-pool.js';
import type { Diagnostic } from './diagnostic.js';
import { documentLabel, formatPath } from './diagnostic.js';
import { unimplementedKarpenterField } from './karpenter-fields.js';
import type { ConfigKind } from './kinds.js';
import { unknownFieldPaths } from './unknown-fields.js';

/** The outcome of loading one configuration document. */
export interface ConfigDocumentResult {
  readonly nodePools: NodePool[];
  readonly nodeClasses: NodeClass[];
  readonly nodeOverlays: NodeOverlay[];
  readonly diagnostics: Diagnostic[];
  readonly ok: boolean;
}

function issueToDiagnostic(issue: z.core.$ZodIssue, base: Omit<Diagnostic, 'path' | 'message'>): Diagnostic {
  const params = (issue as { params?: { hint?: string } }).params;
  const d: Diagnostic = { ...base, path: formatPath(issue.path), message: issue.message };
  return params?.hint === undefined ? d : { ...d, hint: params.hint };
}

/** Validates one document with its kind's schema, reports unknown fields, and converts it. */
export function loadConfigDocument(
  kind: ConfigKind,
  object: unknown,
  source: DocumentSource,
): ConfigDocumentResult {
  const base = { file: source.file, document: documentLabel(source) };
  const parsed = kind.schema().safeParse(object);
  if (!parsed.success) {
    const diagnostics = parsed.error.issues.map((i) => issueToDiagnostic(i, { ...base, severity: 'error' }));
    return { nodePools: [], nodeClasses: [], nodeOverlays: [], diagnostics, ok: false };
  }
  const diagnostics: Diagnostic[] = unknownFieldPaths(object, parsed.data).map((path) =>
    unknownFieldDiagnostic(path, source, base),
  );
  const converted = kind.convert(parsed.data as never, source);
  diagnostics.push(...converted.issues.map((i) => ({ ...base, ...i })));
  const ok = !diagnostics.some((d) => d.severity === 'error');
  return {
    nodePools: ok ? converted.nodePools : [],
    nodeClasses: ok ? converted.nodeClasses : [],
    nodeOverlays: ok ? converted.nodeOverlays : [],
    diagnostics,
    ok,
  };
}

/**
 * A field the schema does not know: an error when it is a Karpenter field joiner does not
 * implement (never accepted and ignored), a warning otherwise (most often a typo).
 */
function unknownFieldDiagnostic(
  path: (string | number)[],
  source: DocumentSource,
  base: Pick<Diagnostic, 'file' | 'document'>,
): Diagnostic {
  const name = String(path[path.length - 1]);
  const refused = unimplementedKarpenterField(source.apiVersion, source.kind, path);
  if (refused !== undefined) {
    return {
      ...base,
      severity: 'error',
      path: formatPath(path),
      message: `field "${name}" is not supported, joiner does not implement it: ${refused}`,
      hint: 'remove the field (joiner refuses what it would otherwise ignore)',
    };
  }
  return {
    ...base,
    severity: 'warning',
    path: formatPath(path),
    message: `unknown field "${name}" is ignored`,
    hint: `check the spelling and the indentation; ${source.apiVersion} ${source.kind} has no such field here`,
  };
}
