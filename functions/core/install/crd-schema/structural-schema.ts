/**
 * The OpenAPI v3 schema of a CustomResourceDefinition, generated from the zod schema joiner
 * validates the same documents with: zod's JSON Schema (draft 2020-12), then cut down to the
 * structural subset the API server accepts (a type on every node, no `$ref`, no `oneOf`/`anyOf`
 * but an int-or-string's, no `additionalProperties: false`, no `propertyNames`), keeping the value
 * checks (enum, minimum / maximum, patterns, lengths, item counts, required) and the CEL rules the
 * zod schemas carry as metadata (see `model/config/schema/crd-rules.ts`).
 */
import * as z from 'zod';

/** A node of a structural schema. */
export type StructuralSchema = { [key: string]: unknown };

/** Keywords copied as they are. */
const KEPT = [
  'type',
  'description',
  'enum',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'required',
  'x-kubernetes-validations',
] as const;

/** Bounds zod writes for plain integers; they say nothing to a user. */
const NO_BOUND = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);

type Json = { [key: string]: unknown };

/**
 * The structural schema of a zod schema. `path` names the node in errors (a zod construct with no
 * structural form is a programming error, reported at generation, never a silent open object).
 */
export function structuralSchema(schema: z.ZodType): StructuralSchema {
  const json = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any', reused: 'inline' }) as Json;
  return convert(json, '');
}

function convert(node: Json, path: string): StructuralSchema {
  if (node.$ref !== undefined) throw new Error(`${path || '<root>'}: a $ref cannot be part of a CRD schema`);
  const types = Array.isArray(node.type) ? (node.type as string[]) : undefined;
  if (node['x-kubernetes-int-or-string'] === true || isStringOrNumber(node, types)) return intOrString(node);
  const out: StructuralSchema = {};
  for (const key of KEPT) if (node[key] !== undefined) out[key] = node[key];
  if (typeof node.exclusiveMinimum === 'number') out.minimum = node.exclusiveMinimum;
  if (typeof node.exclusiveMinimum === 'number') out.exclusiveMinimum = true;
  if (typeof node.exclusiveMaximum === 'number') out.maximum = node.exclusiveMaximum;
  if (typeof node.exclusiveMaximum === 'number') out.exclusiveMaximum = true;
  if (node.const !== undefined) out.enum = [node.const];
  for (const bound of ['minimum', 'maximum'] as const)
    if (NO_BOUND.has(out[bound] as number)) delete out[bound];
  if (node.anyOf !== undefined || node.oneOf !== undefined || types !== undefined) {
    // A union of shapes (a taint as an object or a string): the API server keeps it as written;
    // joiner's validation decides.
    return { 'x-kubernetes-preserve-unknown-fields': true, ...pick(out, 'description') };
  }
  if (out.type === undefined) {
    return { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, ...pick(out, 'description') };
  }
  if (out.type === 'object') objectPart(node, out, path);
  if (out.type === 'array' && node.items !== undefined) out.items = convert(node.items as Json, `${path}[]`);
  return out;
}

function objectPart(node: Json, out: StructuralSchema, path: string): void {
  const properties = node.properties as Record<string, Json> | undefined;
  if (properties) {
    out.properties = Object.fromEntries(
      Object.entries(properties).map(([key, child]) => [key, convert(child, `${path}.${key}`)]),
    );
  }
  const extra = node.additionalProperties;
  if (extra !== undefined && extra !== false && typeof extra === 'object') {
    if (Object.keys(extra as Json).length === 0 || properties)
      out['x-kubernetes-preserve-unknown-fields'] = true;
    else out.additionalProperties = convert(extra as Json, `${path}.*`);
  }
  if (!properties && out.additionalProperties === undefined)
    out['x-kubernetes-preserve-unknown-fields'] = true;
}

function isStringOrNumber(node: Json, types: string[] | undefined): boolean {
  if (types) return types.includes('string') && (types.includes('number') || types.includes('integer'));
  const alternatives = node.anyOf as Json[] | undefined;
  if (!alternatives) return false;
  const kinds = alternatives.map((a) => a.type);
  return (
    kinds.includes('string') && (kinds.includes('number') || kinds.includes('integer')) && kinds.length === 2
  );
}

function intOrString(node: Json): StructuralSchema {
  return {
    'x-kubernetes-int-or-string': true,
    anyOf: [{ type: 'integer' }, { type: 'string' }],
    ...pick(node, 'description', 'pattern', 'maxLength', 'minimum', 'maximum', 'x-kubernetes-validations'),
  };
}

function pick(node: Json, ...keys: string[]): Json {
  return Object.fromEntries(keys.filter((k) => node[k] !== undefined).map((k) => [k, node[k]]));
}
