/** The part of an OpenAPI v3 schema node that says what type its values have. */
export interface TypedNode {
  readonly type?: string;
  readonly 'x-kubernetes-int-or-string'?: boolean;
}

/**
 * Whether `value` has the node's type, as the API server checks it: an int-or-string field takes an
 * integer or a string, a node without a type takes anything. `null` is no object here; callers that
 * accept `null` (a merge patch removing a field) say so themselves.
 */
export function hasSchemaType(node: TypedNode, value: unknown): boolean {
  if (node['x-kubernetes-int-or-string']) return typeof value === 'string' || Number.isInteger(value);
  switch (node.type) {
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'array':
      return Array.isArray(value);
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    default:
      return true;
  }
}
