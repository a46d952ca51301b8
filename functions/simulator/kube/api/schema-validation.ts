/**
 * Validation of a custom object against its CRD's structural schema, as the API server does on
 * every create and update (after defaulting and before admission): types, enums, numeric bounds,
 * patterns, lengths, item and property counts, required fields, then the CEL rules
 * (`x-kubernetes-validations`, evaluated with `self` bound to the field's value). Each failure is
 * worded like the real server's field error, with the field path.
 */

import { celEnv, isCelError, parse, plan } from '@bufbuild/cel';
import { toCel } from '../admission/cel-conditions.js';
import { ApiError } from './api-error.js';
import { hasSchemaType } from './schema-type.js';

/** A node of a CRD's structural schema. */
export interface StructuralNode {
  readonly type?: string;
  readonly properties?: Readonly<Record<string, StructuralNode>>;
  readonly additionalProperties?: StructuralNode | boolean;
  readonly items?: StructuralNode;
  readonly required?: readonly string[];
  readonly enum?: readonly unknown[];
  readonly pattern?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: boolean;
  readonly exclusiveMaximum?: boolean;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly minProperties?: number;
  readonly maxProperties?: number;
  readonly 'x-kubernetes-int-or-string'?: boolean;
  readonly 'x-kubernetes-preserve-unknown-fields'?: boolean;
  readonly 'x-kubernetes-validations'?: readonly { rule: string; message?: string }[];
}

/** One field error: the path and the sentence after it. */
export interface FieldError {
  readonly field: string;
  readonly detail: string;
}

const show = (v: unknown): string => (typeof v === 'string' ? JSON.stringify(v) : String(JSON.stringify(v)));

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

const patterns = new Map<string, RegExp>();
function regex(source: string): RegExp {
  let r = patterns.get(source);
  if (!r) {
    r = new RegExp(source, 'u');
    patterns.set(source, r);
  }
  return r;
}

type Program = (bindings: never) => unknown;
const programs = new Map<string, Program>();
function program(rule: string): Program {
  let p = programs.get(rule);
  if (!p) {
    p = plan(celEnv(), parse(rule)) as unknown as Program;
    programs.set(rule, p);
  }
  return p;
}

function values(node: StructuralNode, value: unknown, path: string, out: FieldError[]): void {
  const at = path || '<root>';
  if (node.enum && !node.enum.some((e) => e === value)) {
    out.push({
      field: path,
      detail: `Unsupported value: ${show(value)}: supported values: ${node.enum.map(show).join(', ')}`,
    });
  }
  if (typeof value === 'number') {
    if (node.minimum !== undefined && (node.exclusiveMinimum ? value <= node.minimum : value < node.minimum))
      out.push({
        field: path,
        detail: `Invalid value: ${value}: ${at} in body should be greater than ${node.exclusiveMinimum ? '' : 'or equal to '}${node.minimum}`,
      });
    if (node.maximum !== undefined && (node.exclusiveMaximum ? value >= node.maximum : value > node.maximum))
      out.push({
        field: path,
        detail: `Invalid value: ${value}: ${at} in body should be less than ${node.exclusiveMaximum ? '' : 'or equal to '}${node.maximum}`,
      });
  }
  if (typeof value === 'string') {
    if (node.pattern !== undefined && !regex(node.pattern).test(value))
      out.push({
        field: path,
        detail: `Invalid value: ${show(value)}: ${at} in body should match '${node.pattern}'`,
      });
    if (node.minLength !== undefined && [...value].length < node.minLength)
      out.push({
        field: path,
        detail: `Invalid value: ${show(value)}: ${at} in body should be at least ${node.minLength} chars long`,
      });
    if (node.maxLength !== undefined && [...value].length > node.maxLength)
      out.push({ field: path, detail: `Too long: may not be more than ${node.maxLength} bytes` });
  }
  if (Array.isArray(value)) {
    if (node.maxItems !== undefined && value.length > node.maxItems)
      out.push({
        field: path,
        detail: `Too many: ${value.length}: must have at most ${node.maxItems} items`,
      });
    if (node.minItems !== undefined && value.length < node.minItems)
      out.push({
        field: path,
        detail: `Invalid value: ${value.length}: ${at} in body should have at least ${node.minItems} items`,
      });
  }
}

function cel(node: StructuralNode, value: unknown, path: string, out: FieldError[]): void {
  for (const { rule, message } of node['x-kubernetes-validations'] ?? []) {
    let result: unknown;
    try {
      result = program(rule)({ self: toCel(value) } as never);
    } catch (error) {
      result = error;
    }
    if (result === true) continue;
    const what =
      typeName(value) === 'object' || typeName(value) === 'array' ? `"${typeName(value)}"` : show(value);
    if (result === false)
      out.push({ field: path, detail: `Invalid value: ${what}: ${message ?? `failed rule: ${rule}`}` });
    else {
      const why =
        isCelError(result) || result instanceof Error ? String((result as Error).message) : String(result);
      out.push({
        field: path,
        detail: `Invalid value: ${what}: rule compiled or evaluated with an error: ${why}`,
      });
    }
  }
}

/**
 * The field errors of `value` against `node`, `path` being the value's field path (`spec.x[0]`).
 * Unknown fields are not errors here (the API server prunes them, or refuses them under strict
 * field validation: see `http/field-validation.ts`).
 */
export function schemaErrors(node: StructuralNode, value: unknown, path = ''): FieldError[] {
  const out: FieldError[] = [];
  walk(node, value, path, out);
  return out;
}

function walk(node: StructuralNode, value: unknown, path: string, out: FieldError[]): void {
  if (value === null || value === undefined) return;
  if (!hasSchemaType(node, value)) {
    const got = typeName(value);
    const want = node['x-kubernetes-int-or-string'] ? 'integer or string' : node.type;
    out.push({
      field: path,
      detail: `Invalid value: "${got}": ${path || '<root>'} in body must be of type ${want}: "${got}"`,
    });
    return;
  }
  const before = out.length;
  values(node, value, path, out);
  if (Array.isArray(value)) {
    if (node.items) for (const [i, item] of value.entries()) walk(node.items, item, `${path}[${i}]`, out);
  } else if (typeof value === 'object') {
    const object = value as Record<string, unknown>;
    const keys = Object.keys(object);
    if (node.maxProperties !== undefined && keys.length > node.maxProperties)
      out.push({
        field: path,
        detail: `Too many: ${keys.length}: must have at most ${node.maxProperties} items`,
      });
    for (const name of node.required ?? [])
      if (object[name] === undefined || object[name] === null)
        out.push({ field: path ? `${path}.${name}` : name, detail: 'Required value' });
    for (const [key, child] of Object.entries(object)) {
      const at = path ? `${path}.${key}` : key;
      const declared = node.properties?.[key];
      if (declared) walk(declared, child, at, out);
      else if (typeof node.additionalProperties === 'object') walk(node.additionalProperties, child, at, out);
    }
  }
  // As the API server: a field's rules run only when its value passed the schema checks.
  if (out.length === before) cel(node, value, path, out);
}

/** The reason of a cause, as the API server names it from the error's wording. */
function causeReason(detail: string): string {
  if (detail.startsWith('Required value')) return 'FieldValueRequired';
  if (detail.startsWith('Unsupported value')) return 'FieldValueNotSupported';
  if (detail.startsWith('Too many')) return 'FieldValueTooMany';
  if (detail.startsWith('Too long')) return 'FieldValueTooLong';
  return 'FieldValueInvalid';
}

/**
 * Checks a custom object about to be stored against its CRD's schema; throws the API server's
 * 422 Invalid (`<Kind>.<group> "<name>" is invalid: <field>: <error>, ...`, one cause per error).
 */
export function assertMatchesSchema(
  schema: StructuralNode | undefined,
  kind: string,
  group: string,
  object: { metadata?: { name?: string } },
): void {
  if (!schema) return;
  const errors = schemaErrors(schema, object);
  if (errors.length === 0) return;
  const name = object.metadata?.name ?? '';
  const lines = errors.map((e) => `${e.field}: ${e.detail}`);
  const list = lines.length === 1 ? lines[0] : `[${lines.join(', ')}]`;
  throw new ApiError(422, 'Invalid', `${kind}.${group} "${name}" is invalid: ${list}`, {
    name,
    group,
    kind,
    causes: errors.map((e) => ({ reason: causeReason(e.detail), message: e.detail, field: e.field })),
  });
}
