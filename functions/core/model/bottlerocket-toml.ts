/**
 * Bottlerocket user data is TOML settings. As Karpenter does, joiner reads the NodeClass's TOML,
 * merges its own settings into it (its values win for the keys it writes; node labels and taints
 * are merged key by key) and writes the result back as one document, so a `[settings.kubernetes]`
 * table of the user's is extended, never duplicated. TOML that does not parse is refused when the
 * NodeClass is validated, with the parser's message.
 */
import { parse } from 'smol-toml';

/** A TOML table as parsed. */
export type TomlTable = { [key: string]: unknown };

/** Parses Bottlerocket user data; throws an Error naming the line and what is wrong. */
export function parseBottlerocketToml(text: string): TomlTable {
  try {
    return parse(text) as TomlTable;
  } catch (error) {
    const message = (error as Error).message.split('\n')[0];
    const line = (error as { line?: number }).line;
    throw new Error(`not valid TOML${line ? ` (line ${line})` : ''}: ${message}`);
  }
}

/** Whether `value` is a table (not an array, a date or a scalar). */
export function isTable(value: unknown): value is TomlTable {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/**
 * `base` with `over` merged in: tables are merged key by key, any other value of `over` replaces
 * the one of `base`. Neither input is changed.
 */
export function mergeTables(base: TomlTable, over: TomlTable): TomlTable {
  const out: TomlTable = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = out[key];
    out[key] = isTable(current) && isTable(value) ? mergeTables(current, value) : value;
  }
  return out;
}

const BARE_KEY = /^[A-Za-z0-9_-]+$/;

/** A key as TOML writes it: bare when it may be, else a basic string. */
export function tomlKey(key: string): string {
  return BARE_KEY.test(key) ? key : JSON.stringify(key);
}

/** A value as TOML writes it (strings as basic strings, arrays inline, dates as RFC 3339). */
export function tomlValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean')
    return String(value);
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return `[${value.map(tomlValue).join(', ')}]`;
  if (isTable(value))
    return `{ ${Object.entries(value)
      .map(([k, v]) => `${tomlKey(k)} = ${tomlValue(v)}`)
      .join(', ')} }`;
  throw new Error(`cannot write ${typeof value} as TOML`);
}

/**
 * Writes `table` as a TOML document: each table's own values under its `[header]` (the root's
 * first, without one), then its sub-tables. `quoteKeys` lists the tables (dotted paths) whose
 * keys are always quoted (label and taint maps, so they read the same whatever the key).
 */
export function stringifyToml(table: TomlTable, quoteKeys: ReadonlySet<string> = new Set()): string {
  const blocks: string[] = [];
  const walk = (t: TomlTable, path: readonly string[]): void => {
    const dotted = path.join('.');
    const key = (k: string) => (quoteKeys.has(dotted) ? JSON.stringify(k) : tomlKey(k));
    const values = Object.entries(t).filter(([, v]) => !isTable(v));
    const tables = Object.entries(t).filter(([, v]) => isTable(v)) as [string, TomlTable][];
    if (values.length > 0 || (path.length > 0 && tables.length === 0)) {
      const header = path.length > 0 ? [`[${path.map(tomlKey).join('.')}]`] : [];
      blocks.push([...header, ...values.map(([k, v]) => `${key(k)} = ${tomlValue(v)}`)].join('\n'));
    }
    for (const [k, sub] of tables) walk(sub, [...path, k]);
  };
  walk(table, []);
  return `${blocks.join('\n\n')}\n`;
}
