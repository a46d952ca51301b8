/**
 * Server-side field validation of custom resources (`?fieldValidation=Strict`, which kubectl
 * sends once the OpenAPI documents say the server supports it): fields the CRD's schema does not
 * declare are a 400 "strict decoding error", values of the wrong type a 422 Invalid, as the real
 * API server answers. Built-in kinds are not checked (the simulator carries no schema for them).
 */

import { ApiError } from '../api/api-error.js';
import type { KubeApi } from '../api/kube-api.js';
import type { ResourceType } from '../api/resource-registry.js';
import { hasSchemaType } from '../api/schema-type.js';
import { crdSchemaOf, type Schema } from './crd-schema.js';

interface Problems {
  readonly unknown: string[];
  readonly invalid: string[];
}

function typeOk(schema: Schema, value: unknown): boolean {
  return value === null || hasSchemaType(schema, value);
}

function walk(schema: Schema, value: unknown, path: string, out: Problems): void {
  if (!typeOk(schema, value)) {
    const got = Array.isArray(value) ? 'array' : typeof value;
    out.invalid.push(
      `${path}: Invalid value: "${got}": ${path} in body must be of type ${schema.type}: "${got}"`,
    );
    return;
  }
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    const items = schema.items;
    if (items) for (const [i, item] of value.entries()) walk(items, item, `${path}[${i}]`, out);
    return;
  }
  if (schema['x-kubernetes-preserve-unknown-fields'] && !schema.properties) return;
  for (const [key, child] of Object.entries(value)) {
    if (key.startsWith('$')) continue; // strategic merge patch directives
    const at = path ? `${path}.${key}` : key;
    const declared = schema.properties?.[key];
    if (declared) walk(declared, child, at, out);
    else if (typeof schema.additionalProperties === 'object')
      walk(schema.additionalProperties, child, at, out);
    else if (!schema['x-kubernetes-preserve-unknown-fields'] && schema.additionalProperties !== true)
      out.unknown.push(at);
  }
}

/**
 * Checks a request body (object, or merge patch) of a custom resource when the request asks for
 * strict field validation; throws the API server's error when it fails.
 */
export function validateFields(
  api: KubeApi,
  type: ResourceType,
  body: unknown,
  directive: string | null,
): void {
  if (directive !== 'Strict' || body === null || typeof body !== 'object') return;
  const schema = crdSchemaOf(api, type);
  if (!schema) return;
  const problems: Problems = { unknown: [], invalid: [] };
  walk(schema, body, '', problems);
  const name = String((body as { metadata?: { name?: unknown } }).metadata?.name ?? '');
  if (problems.invalid.length > 0) {
    throw new ApiError(
      422,
      'Invalid',
      `${type.kind}.${type.group} "${name}" is invalid: ${problems.invalid.join(', ')}`,
    );
  }
  if (problems.unknown.length > 0) {
    const fields = problems.unknown.map((f) => `unknown field "${f}"`).join(', ');
    throw new ApiError(
      400,
      'BadRequest',
      `${type.kind} in version "${type.version}" cannot be handled as a ${type.kind}: strict decoding error: ${fields}`,
    );
  }
}
