/**
 * Requirement values that no instance type of the catalog has, for the well-known keys whose
 * values the catalog knows (instance type, family, category, generation, size, architecture, zone,
 * capacity type). Such a value is most often a typo or a type of another region: with `In` it
 * selects nothing, so a NodePool whose every value is unknown launches nothing. It is a warning,
 * not an error — the catalog of the region the functions read may offer what the bundled one does
 * not — naming the first few unknown values and how many there are.
 */
import type { Diagnostic } from '../model/config/diagnostic.js';
import { documentLabel } from '../model/config/diagnostic.js';
import type { Catalog } from '../model/instance-type.js';
import type { NodePool } from '../model/node-pool.js';
import { instanceTypeLabels } from './labels.js';
import * as L from './well-known-labels.js';
import { isZoneIdOf, zoneIdPrefix } from './zone-id-format.js';

/** The keys checked: their every valid value is a label value of some instance type or offering. */
export const CATALOG_KEYS: readonly string[] = [
  L.LABEL_INSTANCE_TYPE,
  L.LABEL_INSTANCE_FAMILY,
  L.LABEL_INSTANCE_CATEGORY,
  L.LABEL_INSTANCE_GENERATION,
  L.LABEL_INSTANCE_SIZE,
  L.LABEL_ARCH,
  L.LABEL_ZONE,
  L.LABEL_CAPACITY_TYPE,
];

/** How many unknown values a warning names. */
export const NAMED_VALUES = 5;
/** Longest value quoted in a warning (longer ones are cut). */
const MAX_VALUE_CHARS = 64;

/** The values of each checked key that the catalog's instance types and offerings carry. */
export function catalogValues(catalog: Catalog): ReadonlyMap<string, ReadonlySet<string>> {
  const values = new Map<string, Set<string>>(CATALOG_KEYS.map((k) => [k, new Set<string>()]));
  for (const it of catalog.instanceTypes) {
    const labels = instanceTypeLabels(it, catalog.region);
    for (const key of CATALOG_KEYS) if (labels[key] !== undefined) values.get(key)?.add(labels[key]);
    for (const o of it.offerings) {
      values.get(L.LABEL_ZONE)?.add(o.zone);
      values.get(L.LABEL_CAPACITY_TYPE)?.add(o.capacityType);
    }
  }
  return values;
}

/**
 * One warning per `In` requirement of `pool` with values the catalog does not know, and one per
 * requirement on `topology.k8s.aws/zone-id` with values that are not zone IDs of the catalog's
 * region (which zone an ID is only the NodeClass's subnets say, when joiner runs).
 */
export function unknownRequirementValues(
  pool: NodePool,
  catalog: Catalog,
  known: ReadonlyMap<string, ReadonlySet<string>> = catalogValues(catalog),
): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const r of pool.requirements) {
    if (r.key === L.LABEL_ZONE_ID) {
      const bad = r.values.filter((v) => !isZoneIdOf(catalog.region, v));
      if (bad.length > 0) out.push(zoneIdWarning(pool, r.key, r.values.length, bad, catalog.region));
      continue;
    }
    const values = known.get(r.key);
    if (!values || r.operator !== 'In') continue;
    const unknown = r.values.filter((v) => !values.has(v));
    if (unknown.length === 0) continue;
    const named = unknown.slice(0, NAMED_VALUES).map((v) => JSON.stringify(cut(v)));
    const more = unknown.length > NAMED_VALUES ? ` and ${unknown.length - NAMED_VALUES} more` : '';
    const none = unknown.length === r.values.length ? ' (none of its values does: it selects nothing)' : '';
    out.push({
      severity: 'warning',
      file: pool.source.file,
      document: documentLabel(pool.source),
      path: `requirements[key=${r.key}]`,
      message: `${unknown.length} of ${r.values.length} value(s) match no instance type of the ${catalog.region} catalog${none}: ${named.join(', ')}${more}`,
      hint: `check the spelling; ${r.key} values look like ${JSON.stringify(example(values))}`,
    });
  }
  return out;
}

function cut(value: string): string {
  return value.length <= MAX_VALUE_CHARS ? value : `${value.slice(0, MAX_VALUE_CHARS)}…`;
}

function example(values: ReadonlySet<string>): string {
  return [...values].sort()[0] ?? '';
}

function zoneIdWarning(
  pool: NodePool,
  key: string,
  of: number,
  bad: readonly string[],
  region: string,
): Diagnostic {
  const named = bad.slice(0, NAMED_VALUES).map((v) => JSON.stringify(cut(v)));
  const more = bad.length > NAMED_VALUES ? ` and ${bad.length - NAMED_VALUES} more` : '';
  return {
    severity: 'warning',
    file: pool.source.file,
    document: documentLabel(pool.source),
    path: `requirements[key=${key}]`,
    message: `${bad.length} of ${of} value(s) are not zone IDs of ${region}, so no subnet is in them: ${named.join(', ')}${more}`,
    hint: `zone IDs of ${region} look like "${zoneIdPrefix(region)}-az1" (a zone name such as "${region}a" goes under topology.kubernetes.io/zone)`,
  };
}
