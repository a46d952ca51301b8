/** List query options and `limit`/`continue` pagination. */
import { badRequest } from './api-error.js';
import { matchesFields, parseFieldSelector } from './field-selector.js';
import { matchesParsed, parseLabelSelector } from './label-selector.js';
import type { KubeObject } from './object-store.js';

/** The query options of a list or watch. */
export interface ListOptions {
  readonly namespace?: string;
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
  readonly limit?: number;
  readonly continue?: string;
}

/** A page of a list. */
export interface ListPage {
  readonly items: KubeObject[];
  readonly resourceVersion: string;
  readonly continue?: string;
  readonly remainingItemCount?: number;
}

/** A predicate for the selectors of `options`. */
export function selectorFilter(options: ListOptions): (obj: KubeObject) => boolean {
  const labels = parseLabelSelector(options.labelSelector);
  const fields = parseFieldSelector(options.fieldSelector);
  return (obj) =>
    (options.namespace === undefined || obj.metadata.namespace === options.namespace) &&
    matchesParsed(labels, obj.metadata.labels) &&
    matchesFields(fields, obj);
}

interface ContinueToken {
  readonly rv: number;
  readonly after: string;
  /** The list's kept state (see list-snapshots.ts). */
  readonly snapshot?: number;
}

/** The kept state a continue token names, if any (an unreadable token is refused by paginate). */
export function continuedSnapshot(options: ListOptions): number | undefined {
  if (!options.continue) return undefined;
  try {
    const token = JSON.parse(Buffer.from(options.continue, 'base64').toString('utf8')) as ContinueToken;
    return typeof token.snapshot === 'number' ? token.snapshot : undefined;
  } catch {
    return undefined;
  }
}

const itemKey = (o: KubeObject): string => `${o.metadata.namespace ?? ''}/${o.metadata.name}`;

/** The index of the first item whose key comes after `after` (items sorted by key). */
function firstAfter(items: readonly KubeObject[], after: string): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (itemKey(items[mid]) > after) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** A page of the items from `start` on that pass `filter`: up to `limit`, and whether more follow. */
function filteredPage(
  items: readonly KubeObject[],
  start: number,
  limit: number,
  filter: (obj: KubeObject) => boolean,
  rv: number,
  snapshot: number | undefined,
): ListPage {
  const page: KubeObject[] = [];
  let i = start;
  for (; i < items.length && page.length < limit; i++) if (filter(items[i])) page.push(items[i]);
  let more = false;
  for (; i < items.length && !more; i++) more = filter(items[i]);
  if (!more) return { items: page, resourceVersion: String(rv) };
  const token: ContinueToken = { rv, after: itemKey(page[page.length - 1]), snapshot };
  return {
    items: page,
    resourceVersion: String(rv),
    continue: Buffer.from(JSON.stringify(token)).toString('base64'),
  };
}

/**
 * Cuts `items` (sorted by namespace and name) into the page that `options` asks for. With a
 * `filter` (selectors), items are filtered from the page's start on until the page is full, and
 * `remainingItemCount` is not given (as the API server does not for selectors).
 */
export function paginate(
  items: readonly KubeObject[],
  options: ListOptions,
  currentVersion: number,
  filter?: (obj: KubeObject) => boolean,
  snapshot?: number,
): ListPage {
  let start = 0;
  let rv = currentVersion;
  if (options.continue) {
    let token: ContinueToken;
    try {
      token = JSON.parse(Buffer.from(options.continue, 'base64').toString('utf8')) as ContinueToken;
    } catch {
      throw badRequest('continue token is not valid: pass the metadata.continue value of the previous page');
    }
    rv = token.rv;
    start = firstAfter(items, token.after);
  }
  const limit = options.limit && options.limit > 0 ? options.limit : items.length;
  if (filter) return filteredPage(items, start, limit, filter, rv, snapshot);
  const page = items.slice(start, start + limit);
  const remaining = items.length - start - page.length;
  if (remaining <= 0) return { items: page, resourceVersion: String(rv) };
  const token: ContinueToken = { rv, after: itemKey(page[page.length - 1]), snapshot };
  return {
    items: page,
    resourceVersion: String(rv),
    continue: Buffer.from(JSON.stringify(token)).toString('base64'),
    remainingItemCount: remaining,
  };
}
