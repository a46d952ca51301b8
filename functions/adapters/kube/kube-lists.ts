import type { KubeTransport } from './kube-transport.js';

/** One page of a list call: items and the continue token of the next page. */
interface ListPage<T> {
  readonly items?: T[] | null;
  readonly metadata?: { readonly continue?: string };
}

/** Page size of list calls (the API server splits larger lists into pages). */
export const PAGE_SIZE = 500;

/**
 * Reads every page of a collection (`limit` / `continue`) and returns the items as the API
 * server sent them (plain JSON). `query` adds parameters such as `fieldSelector`.
 */
export async function listAll<T>(
  rest: KubeTransport,
  path: string,
  query: Readonly<Record<string, string>> = {},
): Promise<T[]> {
  const items: T[] = [];
  let token: string | undefined;
  do {
    const page = await rest.get<ListPage<T>>(path, { ...query, limit: PAGE_SIZE, continue: token });
    if (!page || typeof page !== 'object')
      throw new Error(`GET ${path}: the API server answered a list that is not an object`);
    items.push(...(page.items ?? []));
    token = page.metadata?.continue || undefined;
  } while (token);
  return items;
}
