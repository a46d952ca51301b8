import { FUNCTIONS, type FunctionName } from '../../functions/shared/event-sources.js';

/**
 * Reserved concurrency of joiner's functions: `none` (the default: no function reserves any, so
 * the stack deploys in any account, including new ones whose concurrency quota is too small to
 * reserve anything), `recommended` (the values of the shared description: webhook 20, provisioner
 * 5, disruption 2, catalog 1 — 28 in all, for accounts whose quota leaves 100 unreserved after
 * them), or a value per function (functions not named reserve none).
 */
export type ReservedConcurrency = 'none' | 'recommended' | Readonly<Partial<Record<FunctionName, number>>>;

/** The reserved concurrency of function `name` under `setting`; undefined for none. */
export function reservedConcurrencyOf(
  setting: ReservedConcurrency | undefined,
  name: FunctionName,
): number | undefined {
  if (setting === undefined || setting === 'none') return undefined;
  if (setting === 'recommended') return FUNCTIONS[name].reservedConcurrency;
  return setting[name];
}

/**
 * Reads a setting given as `none`, `recommended`, `webhook=10,provisioner=2` or an object
 * `{ "webhook": 10 }`; throws naming `where` and the allowed values on anything else (a value
 * of 0 would stop the function, so values are whole numbers from 1).
 */
export function parseReservedConcurrency(value: unknown, where: string): ReservedConcurrency {
  if (value === 'none' || value === 'recommended') return value;
  const names = Object.keys(FUNCTIONS) as FunctionName[];
  const entries =
    typeof value === 'string'
      ? value.split(',').map((pair) => pair.split('=').map((p) => p.trim()))
      : value && typeof value === 'object' && !Array.isArray(value)
        ? Object.entries(value)
        : undefined;
  const allowed = `'none', 'recommended', or function=count pairs like 'webhook=10,provisioner=2' (functions: ${names.join(', ')})`;
  if (!entries) throw new Error(`${where}: must be ${allowed} (got ${JSON.stringify(value)})`);
  const out: Partial<Record<FunctionName, number>> = {};
  for (const entry of entries) {
    const [name, raw] = entry as [string, unknown];
    const count = typeof raw === 'string' && raw !== '' ? Number(raw) : raw;
    if (!names.includes(name as FunctionName) || entry.length !== 2) {
      throw new Error(`${where}: '${entry.join('=')}' is not function=count; must be ${allowed}`);
    }
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > 1000) {
      throw new Error(
        `${where}: ${name} must be a whole number from 1 to 1000 (got ${JSON.stringify(raw)}); leave it out to reserve none`,
      );
    }
    out[name as FunctionName] = count;
  }
  return out;
}
