import type { z } from 'zod';
import { type KubeManifest, managedMetadata } from '../kube-manifest.js';
import { type StructuralSchema, structuralSchema } from './structural-schema.js';

/** The names of a custom resource kind. */
export interface CrdNames {
  readonly kind: string;
  readonly plural: string;
  readonly singular: string;
  readonly shortNames: readonly string[];
  readonly categories: readonly string[];
}

/** One served version of a CRD: its name, its schema and what `kubectl get` prints. */
export interface CrdVersion {
  readonly name: string;
  readonly schema: StructuralSchema;
  readonly columns: readonly Readonly<Record<string, unknown>>[];
  /** Serve the status subresource (default true). */
  readonly status?: boolean;
  /** The scale subresource's paths, when the kind is scalable. */
  readonly scale?: Readonly<Record<string, string>>;
}

/** An object that keeps every field as written (the status joiner writes, open specs). */
export const OPEN_OBJECT: StructuralSchema = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };

/**
 * The `openAPIV3Schema` of a kind whose documents `zodSchema` validates: its `spec` as generated
 * (see {@link structuralSchema}), `apiVersion` / `kind` / `metadata` as every object has them, and
 * the status joiner writes kept as written.
 */
export function documentSchema(zodSchema: z.ZodType): StructuralSchema {
  const generated = structuralSchema(zodSchema);
  const spec = (generated.properties as Record<string, StructuralSchema> | undefined)?.spec;
  if (!spec) throw new Error('a CRD schema needs a spec');
  return objectSchema(spec);
}

/** The `openAPIV3Schema` of a kind with the given spec schema. */
export function objectSchema(spec: StructuralSchema): StructuralSchema {
  return {
    type: 'object',
    required: ['spec'],
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { type: 'object' },
      spec,
      status: OPEN_OBJECT,
    },
  };
}

/** A cluster-scoped CustomResourceDefinition of `group` with one stored version. */
export function crdManifest(group: string, names: CrdNames, version: CrdVersion): KubeManifest {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: managedMetadata(`${names.plural}.${group}`),
    spec: {
      group,
      scope: 'Cluster',
      names: {
        kind: names.kind,
        listKind: `${names.kind}List`,
        plural: names.plural,
        singular: names.singular,
        ...(names.shortNames.length > 0 ? { shortNames: [...names.shortNames] } : {}),
        categories: [...names.categories],
      },
      versions: [
        {
          name: version.name,
          served: true,
          storage: true,
          ...(version.status === false
            ? {}
            : { subresources: { status: {}, ...(version.scale ? { scale: { ...version.scale } } : {}) } }),
          additionalPrinterColumns: [
            ...version.columns,
            { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
          ],
          schema: { openAPIV3Schema: version.schema },
        },
      ],
    },
  };
}

/** The printer column of a condition's status (`Ready`, ...). */
export function conditionColumn(type: string, name = type): Readonly<Record<string, unknown>> {
  return { name, type: 'string', jsonPath: `.status.conditions[?(@.type=="${type}")].status` };
}
