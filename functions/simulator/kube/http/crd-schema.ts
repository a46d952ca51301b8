/** The structural schema a CustomResourceDefinition declares for one served version. */
import type { KubeApi } from '../api/kube-api.js';
import type { ResourceType } from '../api/resource-registry.js';

/** An OpenAPI v3 schema (the structural subset CRDs use). */
export interface Schema {
  readonly type?: string;
  readonly properties?: Readonly<Record<string, Schema>>;
  readonly additionalProperties?: Schema | boolean;
  readonly items?: Schema;
  readonly required?: readonly string[];
  readonly 'x-kubernetes-preserve-unknown-fields'?: boolean;
  readonly 'x-kubernetes-int-or-string'?: boolean;
  readonly 'x-kubernetes-embedded-resource'?: boolean;
  readonly [key: string]: unknown;
}

/**
 * The schema of `type`'s objects when `type` is a custom resource with a schema: the CRD's
 * `openAPIV3Schema`, with `apiVersion`, `kind` and `metadata` declared as the API server adds them.
 */
export function crdSchemaOf(api: KubeApi, type: ResourceType): Schema | undefined {
  const crdType = api.registry.byKind('apiextensions.k8s.io/v1', 'CustomResourceDefinition');
  if (!crdType || !type.group) return undefined;
  const crd = api.view(crdType).find((c) => c.metadata.name === `${type.plural}.${type.group}`) as
    | { spec?: { versions?: { name: string; schema?: { openAPIV3Schema?: Schema } }[] } }
    | undefined;
  const schema = crd?.spec?.versions?.find((v) => v.name === type.version)?.schema?.openAPIV3Schema;
  if (!schema) return undefined;
  return {
    ...schema,
    type: 'object',
    properties: {
      ...(schema.properties ?? {}),
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    },
  };
}
