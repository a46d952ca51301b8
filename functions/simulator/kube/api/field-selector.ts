/**
 * Field selectors of list/watch queries: `spec.nodeName=n1,status.phase!=Succeeded`. Fields are
 * dotted paths into the object (`metadata.name`, `metadata.namespace`, `spec.nodeName`, `status.phase`,
 * `spec.unschedulable`, ...); a missing field compares as the empty string, like the real server.
 */
import { badRequest } from './api-error.js';

/** One parsed field requirement. */
export interface FieldRequirement {
  readonly path: readonly string[];
  readonly equal: boolean;
  readonly value: string;
}

const TERM = /^\s*([A-Za-z0-9_.]+)\s*(==|=|!=)\s*(.*?)\s*$/;

/** Parses a field selector; throws a 400 naming the bad term. */
export function parseFieldSelector(input: string | undefined): FieldRequirement[] {
  if (!input) return [];
  return input
    .split(',')
    .filter((t) => t.trim() !== '')
    .map((term) => {
      const m = TERM.exec(term);
      if (!m)
        throw badRequest(
          `invalid field selector term ${JSON.stringify(term)}: expected field=value or field!=value`,
        );
      return { path: m[1].split('.'), equal: m[2] !== '!=', value: m[3] };
    });
}

function fieldValue(obj: unknown, path: readonly string[]): string {
  let cur: unknown = obj;
  for (const p of path) {
    if (cur === null || typeof cur !== 'object') return '';
    cur = (cur as Record<string, unknown>)[p];
  }
  if (cur === undefined || cur === null) return path.join('.') === 'spec.unschedulable' ? 'false' : '';
  return String(cur);
}

/** Whether the object satisfies every field requirement. */
export function matchesFields(reqs: readonly FieldRequirement[], obj: unknown): boolean {
  return reqs.every((r) => (fieldValue(obj, r.path) === r.value) === r.equal);
}
