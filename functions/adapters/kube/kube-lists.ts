/** One page of a list call: items and the continue token of the next page. */
export interface ListPage<T> {
  readonly items: T[];
  readonly metadata?: { readonly _continue?: string };
}

/** Page size of list calls (the API server splits larger lists into pages). */
export const PAGE_SIZE = 500;

/** Reads every page of a list call and returns the items as plain JSON objects. */
export async function listAll<T>(
  call: (page: { limit: number; _continue?: string }) => Promise<ListPage<unknown>>,
): Promise<T[]> {
  const items: T[] = [];
  let token: string | undefined;
  do {
    const page = await call({ limit: PAGE_SIZE, ...(token ? { _continue: token } : {}) });
    for (const item of page.items) items.push(toPlain<T>(item));
    token = page.metadata?._continue || undefined;
  } while (token);
  return items;
}

/**
 * The client deserialises timestamps into Date objects; the core reads the wire shapes (ISO
 * strings), so objects are turned back into plain JSON.
 */
export function toPlain<T>(value: unknown): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
