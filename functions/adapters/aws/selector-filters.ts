import type { Filter } from '@aws-sdk/client-ec2';
import type { SelectorTerm } from '../../core/model/node-class.js';

/**
 * EC2 filters of one selector term (subnets / security groups): tags AND-ed (`*` = any value),
 * `name` as the Name tag (subnets) or group-name (security groups). Ids are queried directly.
 */
export function termFilters(term: SelectorTerm, nameFilter: 'tag:Name' | 'group-name'): Filter[] {
  const filters: Filter[] = [];
  for (const [key, value] of Object.entries(term.tags ?? {})) {
    filters.push(
      value === '*' ? { Name: 'tag-key', Values: [key] } : { Name: `tag:${key}`, Values: [value] },
    );
  }
  if (term.name) filters.push({ Name: nameFilter, Values: [term.name] });
  if (term.ownerId) filters.push({ Name: 'owner-id', Values: [term.ownerId] });
  return filters;
}

/** Runs one query per term (terms are OR-ed) and returns the union, deduplicated by id. */
export async function selectByTerms<T>(
  terms: readonly SelectorTerm[],
  what: string,
  query: (term: SelectorTerm) => Promise<T[]>,
  idOf: (item: T) => string | undefined,
): Promise<T[]> {
  if (terms.length === 0) throw new Error(`${what}: no selector terms`);
  for (const [i, term] of terms.entries()) {
    if (!term.id && !term.name && !term.tags && !term.ownerId) {
      throw new Error(`${what}[${i}]: a selector term needs id, name or tags`);
    }
  }
  const results = await Promise.all(terms.map(query));
  const byId = new Map<string, T>();
  for (const item of results.flat()) {
    const id = idOf(item);
    if (id && !byId.has(id)) byId.set(id, item);
  }
  return [...byId.values()];
}
