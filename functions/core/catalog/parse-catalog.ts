import type { z } from 'zod';
import type { Catalog } from '../model/instance-type.js';
import { CatalogError, type CatalogProblem, formatPath } from './catalog-error.js';
import { type CatalogInput, catalogSchema } from './catalog-schema.js';

export { CatalogError } from './catalog-error.js';

/**
 * Validates a catalog in the documented JSON format (docs/catalog.md) and returns it as a
 * {@link Catalog}. Throws a {@link CatalogError} listing every problem with its field path, e.g.
 * `instanceTypes[3].offerings[0].price: expected a number, got a string`.
 * @param json the parsed JSON value
 * @param source where it came from (a file name), for the error message
 */
export function parseCatalog(json: unknown, source: string): Catalog {
  const result = catalogSchema.safeParse(json, { reportInput: true });
  if (!result.success) throw new CatalogError(source, result.error.issues.flatMap(describeIssue));
  const problems = crossCheck(result.data);
  if (problems.length > 0) throw new CatalogError(source, problems);
  return result.data;
}

function describeValue(input: unknown): string {
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'an array';
  if (typeof input === 'object') return 'an object';
  return `${typeof input === 'string' ? 'a string' : typeof input} ${JSON.stringify(input)}`;
}

function describeIssue(issue: z.core.$ZodIssue): CatalogProblem[] {
  const path = formatPath(issue.path);
  switch (issue.code) {
    case 'invalid_type': {
      const input = (issue as { input?: unknown }).input;
      const expected = issue.expected === 'array' || issue.expected === 'object' ? 'an' : 'a';
      if (input === undefined)
        return [{ path, message: `required field is missing (${expected} ${issue.expected})` }];
      const kind = issue.expected === 'int' ? 'an integer' : `${expected} ${issue.expected}`;
      return [{ path, message: `expected ${kind}, got ${describeValue(input)}` }];
    }
    case 'unrecognized_keys':
      return issue.keys.map((key) => ({
        path: formatPath([...issue.path, key]),
        message: 'unknown field (check the spelling against docs/catalog.md)',
      }));
    case 'invalid_value':
      return [{ path, message: `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}` }];
    case 'too_small':
      if (issue.origin === 'array') return [{ path, message: `expected at least ${issue.minimum} entries` }];
      return [{ path, message: `expected a value ${issue.inclusive ? '>=' : '>'} ${issue.minimum}` }];
    default:
      return [{ path, message: issue.message }];
  }
}

/** Checks what the schema cannot: unique names, zones of the catalog's region, unique offerings. */
function crossCheck(catalog: CatalogInput): CatalogProblem[] {
  const problems: CatalogProblem[] = [];
  const seen = new Map<string, number>();
  catalog.instanceTypes.forEach((it, i) => {
    const first = seen.get(it.name);
    if (first !== undefined) {
      problems.push({
        path: `instanceTypes[${i}].name`,
        message: `duplicate of instanceTypes[${first}] (${it.name})`,
      });
    } else seen.set(it.name, i);
    if (it.networkCards !== undefined && it.networkCards > it.maxEnis) {
      problems.push({ path: `instanceTypes[${i}].networkCards`, message: 'must not exceed maxEnis' });
    }
    if (it.maxEfaInterfaces !== undefined && it.maxEfaInterfaces > (it.networkCards ?? 1)) {
      problems.push({
        path: `instanceTypes[${i}].maxEfaInterfaces`,
        message: `must not exceed networkCards (${it.networkCards ?? 1}): EC2 attaches at most one EFA per network card`,
      });
    }
    const offers = new Set<string>();
    it.offerings.forEach((o, j) => {
      const at = `instanceTypes[${i}].offerings[${j}]`;
      if (!o.zone.startsWith(catalog.region) || !/^[a-z]$/.test(o.zone.slice(catalog.region.length))) {
        problems.push({
          path: `${at}.zone`,
          message: `"${o.zone}" is not a zone of region ${catalog.region}`,
        });
      }
      const key = `${o.zone}/${o.capacityType}`;
      if (offers.has(key)) problems.push({ path: at, message: `duplicate offering for ${key}` });
      offers.add(key);
    });
  });
  return problems;
}
