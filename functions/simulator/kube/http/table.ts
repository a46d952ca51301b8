/**
 * The API server's Table response (`Accept: application/json;as=Table;g=meta.k8s.io;v=v1`), which
 * is what `kubectl get` prints: built-in kinds get Kubernetes' columns, custom resources their
 * CRD's `additionalPrinterColumns` (evaluated with JSONPath), anything else Name and Age.
 */
import type { KubeApi } from '../api/kube-api.js';
import type { KubeObject } from '../api/object-store.js';
import type { ResourceType } from '../api/resource-registry.js';
import { BUILTIN_COLUMNS, type Column, DEFAULT_COLUMNS } from './builtin-printers.js';
import { ageOf } from './human-duration.js';
import { evalJsonPath } from './json-path.js';

/** True when the Accept header asks for a meta.k8s.io Table (v1 or v1beta1). */
export function wantsTable(accept: string | undefined): 'v1' | 'v1beta1' | undefined {
  for (const part of (accept ?? '').split(',')) {
    const params = new Map(
      part
        .split(';')
        .slice(1)
        .map((p) => p.trim().split('=') as [string, string]),
    );
    if (params.get('as') === 'Table' && params.get('g') === 'meta.k8s.io') {
      const v = params.get('v');
      if (v === 'v1' || v === 'v1beta1') return v;
    }
  }
  return undefined;
}

interface PrinterColumn {
  name: string;
  type: Column['type'];
  jsonPath: string;
  priority?: number;
  description?: string;
  format?: string;
}

/** The printer columns a CRD declares for `type`'s version, if it is a custom resource with some. */
function crdColumns(api: KubeApi, type: ResourceType): Column[] | undefined {
  const crdType = api.registry.byKind('apiextensions.k8s.io/v1', 'CustomResourceDefinition');
  if (!crdType) return undefined;
  const crd = api.view(crdType).find((c) => c.metadata.name === `${type.plural}.${type.group}`) as
    | { spec?: { versions?: { name: string; additionalPrinterColumns?: PrinterColumn[] }[] } }
    | undefined;
  const declared = crd?.spec?.versions?.find((v) => v.name === type.version)?.additionalPrinterColumns;
  if (!crd) return undefined;
  if (!declared || declared.length === 0) return [...DEFAULT_COLUMNS];
  const columns = declared.map(
    (c): Column => ({
      name: c.name,
      type: c.type,
      priority: c.priority && c.priority > 0 ? 1 : 0,
      description: c.description,
      format: c.format,
      cell: (o, now) => {
        const value = evalJsonPath(o, c.jsonPath)[0];
        if (value === undefined) return c.type === 'date' ? '<unknown>' : '';
        if (c.type === 'date') return ageOf(value, now);
        return typeof value === 'object' ? JSON.stringify(value) : value;
      },
    }),
  );
  return [DEFAULT_COLUMNS[0], ...columns];
}

function columnsOf(api: KubeApi, type: ResourceType): readonly Column[] {
  return BUILTIN_COLUMNS[`${type.group}/${type.kind}`] ?? crdColumns(api, type) ?? DEFAULT_COLUMNS;
}

/**
 * A Table of `objects`. `includeObject` is the request's query parameter: `None`, `Metadata`
 * (the default: PartialObjectMetadata) or `Object`.
 */
export function toTable(
  api: KubeApi,
  type: ResourceType,
  objects: readonly KubeObject[],
  options: {
    version: 'v1' | 'v1beta1';
    includeObject?: string | null;
    resourceVersion?: string;
    continue?: string;
  },
): Record<string, unknown> {
  const columns = columnsOf(api, type);
  const now = api.clock.now();
  const apiVersion = `meta.k8s.io/${options.version}`;
  const rowObject = (o: KubeObject): unknown => {
    if (options.includeObject === 'None') return undefined;
    if (options.includeObject === 'Object') return o;
    return { kind: 'PartialObjectMetadata', apiVersion, metadata: o.metadata };
  };
  return {
    kind: 'Table',
    apiVersion,
    metadata: {
      ...(options.resourceVersion ? { resourceVersion: options.resourceVersion } : {}),
      ...(options.continue ? { continue: options.continue } : {}),
    },
    columnDefinitions: columns.map((c) => ({
      name: c.name,
      type: c.type,
      format: c.format ?? '',
      description: c.description ?? '',
      priority: c.priority,
    })),
    rows: objects.map((o) => {
      const object = rowObject(o);
      return { cells: columns.map((c) => c.cell(o, now)), ...(object ? { object } : {}) };
    }),
  };
}
