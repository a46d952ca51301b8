import { createHash } from 'node:crypto';
import type { NodeClass } from '../model/node-class.js';

/** JSON with object keys sorted at every level, so equal values always serialize the same. */
export function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** A short hex sha256 of a value's stable JSON. */
export function shortHash(value: unknown, length = 16): string {
  return createHash('sha256').update(stableStringify(value)).digest('hex').slice(0, length);
}

/**
 * The NodeClass hash: changes whenever anything that shapes a launched node changes (drift), and
 * not when only where the document came from changes.
 */
export function nodeClassHash(nodeClass: NodeClass): string {
  const { source: _source, ...spec } = nodeClass;
  return shortHash(spec);
}
