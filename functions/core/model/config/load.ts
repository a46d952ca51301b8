import type { NodeClass } from '../node-class.js';
import type { NodeOverlay } from '../node-overlay.js';
import type { DocumentSource, NodePool } from '../node-pool.js';
import { isWorkloadKind, loadWorkloadDocument } from '../workloads/load-workload.js';
import type { Workloads } from '../workloads/workloads.js';
import { emptyWorkloads } from '../workloads/workloads.js';
import { crossCheck } from './cross-check.js';
import type { Diagnostic } from './diagnostic.js';
import { documentLabel, formatPath } from './diagnostic.js';
import { CONFIG_GROUPS, findConfigKind, supportedConfigKinds } from './kinds.js';
import { loadConfigDocument } from './load-config-document.js';
import type { RawDocument } from './raw-document.js';
import { findUnexpandedVariables } from './unexpanded-vars.js';

export type { Workloads } from '../workloads/workloads.js';
export type { RawDocument } from './raw-document.js';

/** Everything read from a set of documents: converted configuration, workloads and diagnostics. */
export interface LoadedConfig {
  nodePools: NodePool[];
  nodeClasses: NodeClass[];
  /** NodeOverlays (karpenter.sh/v1alpha1), valid ones only. */
  nodeOverlays: NodeOverlay[];
  workloads: Workloads;
  diagnostics: Diagnostic[];
  /** Every configuration or workload document read, in order, and whether it loaded without error. */
  documents: { source: DocumentSource; ok: boolean }[];
  /** Documents of kinds joiner does not use (Service, ConfigMap, ...): read, then left out. */
  skipped: DocumentSource[];
}

function sourceOf(doc: RawDocument): DocumentSource | undefined {
  const o = doc.object as { apiVersion?: unknown; kind?: unknown; metadata?: { name?: unknown } };
  if (typeof o !== 'object' || o === null || Array.isArray(o)) return undefined;
  if (typeof o.apiVersion !== 'string' || typeof o.kind !== 'string') return undefined;
  const name = typeof o.metadata?.name === 'string' ? o.metadata.name : '';
  return { file: doc.file, index: doc.index, apiVersion: o.apiVersion, kind: o.kind, name };
}

function variableWarnings(object: unknown, source: DocumentSource): Diagnostic[] {
  return findUnexpandedVariables(object)
    .filter((v) => !v.path.includes('userData'))
    .map((v) => ({
      severity: 'warning',
      file: source.file,
      document: documentLabel(source),
      path: formatPath(v.path),
      message: `"${v.text}" looks like an unexpanded shell variable ${v.variable}`,
      hint: 'run the file through envsubst (e.g. envsubst < file.yaml > out.yaml) or write the value',
    }));
}

function garbage(doc: RawDocument): Diagnostic {
  return {
    severity: 'error',
    file: doc.file,
    document: `document ${doc.index + 1}`,
    path: '',
    message: 'not a Kubernetes object: apiVersion and kind must be strings',
    hint: 'every document needs apiVersion, kind and metadata.name',
  };
}

/** Expands `kind: List` documents into their items. */
function flatten(documents: readonly RawDocument[]): RawDocument[] {
  return documents.flatMap((d) => {
    const o = d.object as { kind?: unknown; items?: unknown };
    if (o !== null && typeof o === 'object' && o.kind === 'List' && Array.isArray(o.items)) {
      return o.items.map((object) => ({ file: d.file, index: d.index, object }));
    }
    return [d];
  });
}

/**
 * Validates and converts documents of any mix of kinds: NodePools / NodeClasses of every supported
 * version into the internal model, workload objects into plain Kubernetes objects. One bad document
 * never stops the others: it is left out, listed with `ok: false`, and its errors are diagnostics.
 * Kinds outside configuration and workloads (Service, ConfigMap, ...) are listed in `skipped`.
 */
export function loadDocuments(documents: RawDocument[]): LoadedConfig {
  const result: LoadedConfig = {
    nodePools: [],
    nodeClasses: [],
    nodeOverlays: [],
    workloads: emptyWorkloads(),
    diagnostics: [],
    documents: [],
    skipped: [],
  };
  for (const doc of flatten(documents)) {
    const source = sourceOf(doc);
    if (source === undefined) {
      result.diagnostics.push(garbage(doc));
      result.documents.push({
        source: { file: doc.file, index: doc.index, apiVersion: '', kind: '', name: '' },
        ok: false,
      });
      continue;
    }
    const diagnostics = loadOne(doc.object, source, result);
    if (diagnostics === undefined) {
      result.skipped.push(source);
      continue;
    }
    result.diagnostics.push(...diagnostics, ...variableWarnings(doc.object, source));
    result.documents.push({ source, ok: !diagnostics.some((d) => d.severity === 'error') });
  }
  const checked = crossCheck(result.nodePools, result.nodeClasses);
  result.nodePools = checked.nodePools;
  result.nodeClasses = checked.nodeClasses;
  result.diagnostics.push(...checked.diagnostics);
  for (const failed of checked.failed) {
    const entry = result.documents.find(
      (d) =>
        d.source.file === failed.file && d.source.index === failed.index && d.source.name === failed.name,
    );
    if (entry !== undefined) entry.ok = false;
  }
  return result;
}

/** Loads one document into `result`; `undefined` when its kind is not one joiner reads. */
function loadOne(object: unknown, source: DocumentSource, result: LoadedConfig): Diagnostic[] | undefined {
  const kind = findConfigKind(source.apiVersion, source.kind);
  if (kind !== undefined) {
    const loaded = loadConfigDocument(kind, object, source);
    result.nodePools.push(...loaded.nodePools);
    result.nodeClasses.push(...loaded.nodeClasses);
    result.nodeOverlays.push(...loaded.nodeOverlays);
    return loaded.diagnostics;
  }
  if (CONFIG_GROUPS.has(source.apiVersion.split('/')[0])) {
    return [
      {
        severity: 'error',
        file: source.file,
        document: documentLabel(source),
        path: 'apiVersion',
        message: `unsupported kind ${source.kind} in ${source.apiVersion}`,
        hint: `supported: ${supportedConfigKinds()}`,
      },
    ];
  }
  if (isWorkloadKind(source.apiVersion, source.kind)) {
    return loadWorkloadDocument(source.kind, object, source, result.workloads);
  }
  return undefined;
}
