/**
 * EC2 `Filter.N.Name` / `Filter.N.Value.M` semantics: values of one filter are OR-ed, filters are
 * AND-ed, `*` and `?` are wildcards, `tag:<key>` matches a tag's value and `tag-key` a tag's key.
 * An unknown filter name is an error, as in EC2.
 */
import { Ec2Error } from './ec2-error.js';
import type { QueryParams } from './query.js';

export interface Filter {
  readonly name: string;
  readonly values: readonly string[];
}

/** Reads the request's filters. */
export function parseFilters(params: QueryParams, listName = 'Filter'): Filter[] {
  return params.list(listName).map((f) => ({ name: f.required('Name'), values: f.strings('Value') }));
}

/** The values a resource has for a filter name; `undefined` means the filter name is not supported. */
export type FilterFields = Readonly<Record<string, readonly (string | number | boolean | undefined)[]>>;

/** Tags of a resource, for `tag:<key>` and `tag-key`. */
export type TagMap = Readonly<Record<string, string>>;

const isTagFilter = (filter: Filter): boolean => filter.name.startsWith('tag:') || filter.name === 'tag-key';

/**
 * Whether a resource passes every filter. `fields` may be given as a function: it is then called
 * only if a filter other than a tag filter is left once the tag filters (checked first) pass, so a
 * describe filtered by tags over many resources builds the fields of its matches only.
 */
export function matchesFilters(
  filters: readonly Filter[],
  fields: FilterFields | (() => FilterFields),
  tags: TagMap = {},
): boolean {
  if (!filters.every((filter) => !isTagFilter(filter) || matchesFilter(filter, {}, tags))) return false;
  let resolved = typeof fields === 'function' ? undefined : fields;
  return filters.every((filter) => {
    if (isTagFilter(filter)) return true;
    resolved ??= (fields as () => FilterFields)();
    return matchesFilter(filter, resolved, tags);
  });
}

/** Checks the filter names before matching, so an unsupported name fails even on empty results. */
export function checkFilterNames(
  filters: readonly Filter[],
  supported: readonly string[],
  what: string,
): void {
  for (const filter of filters) {
    if (filter.name.startsWith('tag:') || filter.name === 'tag-key') continue;
    if (!supported.includes(filter.name)) {
      throw new Ec2Error(
        'InvalidParameterValue',
        `The filter '${filter.name}' is invalid for ${what}; supported: ${supported.join(', ')}, tag:<key>, tag-key`,
      );
    }
  }
}

function matchesFilter(filter: Filter, fields: FilterFields, tags: TagMap): boolean {
  let candidates: string[];
  if (filter.name.startsWith('tag:')) {
    const value = tags[filter.name.slice(4)];
    candidates = value === undefined ? [] : [value];
  } else if (filter.name === 'tag-key') {
    candidates = Object.keys(tags);
  } else {
    const values = fields[filter.name];
    if (values === undefined)
      throw new Ec2Error('InvalidParameterValue', `The filter '${filter.name}' is invalid`);
    candidates = values.filter((v) => v !== undefined).map(String);
  }
  return filter.values.some((pattern) => candidates.some((candidate) => wildcardMatch(pattern, candidate)));
}

/** EC2 wildcard match: `*` any run of characters, `?` one character, `\` escapes. */
export function wildcardMatch(pattern: string, value: string): boolean {
  if (!/[*?]/.test(pattern)) return pattern === value;
  let regex = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\' && i + 1 < pattern.length) regex += escapeRegex(pattern[++i]);
    else if (c === '*') regex += '.*';
    else if (c === '?') regex += '.';
    else regex += escapeRegex(c);
  }
  return new RegExp(`^${regex}$`, 's').test(value);
}

function escapeRegex(c: string): string {
  return c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Tags of a `TagSpecification.N` list for one resource type. */
export function tagsFor(
  params: QueryParams,
  resourceType: string,
  listName = 'TagSpecification',
): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const spec of params.list(listName)) {
    if (spec.str('ResourceType') !== resourceType) continue;
    Object.assign(tags, parseTags(spec, 'Tag'));
  }
  return tags;
}

/** `Tag.N.Key` / `Tag.N.Value` pairs. */
export function parseTags(params: QueryParams, listName = 'Tag'): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const tag of params.list(listName)) tags[tag.required('Key')] = tag.str('Value') ?? '';
  return tags;
}

/** Tags as EC2 renders them in a `tagSet`. */
export function tagSet(tags: TagMap): { key: string; value: string }[] {
  return Object.entries(tags).map(([key, value]) => ({ key, value }));
}
