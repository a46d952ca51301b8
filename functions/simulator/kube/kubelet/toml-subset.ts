/**
 * The TOML subset Bottlerocket settings use: `[dotted.table]` headers with bare or quoted keys,
 * and string, integer, boolean and (nested) array values.
 */

type TomlValue = string | number | boolean | TomlValue[] | { [k: string]: TomlValue };
type TomlTable = { [k: string]: TomlValue };

function splitKey(key: string): string[] {
  const parts: string[] = [];
  const re = /\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([A-Za-z0-9_-]+))\s*(?:\.|$)/gy;
  while (re.lastIndex < key.length) {
    const m = re.exec(key);
    if (!m) break;
    parts.push(m[1] ?? m[2] ?? m[3]);
  }
  return parts;
}

/** Splits the inside of an array at its top-level commas (strings and nested arrays kept whole). */
function arrayItems(inner: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let start = 0;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '[') depth++;
    else if (c === ']') depth--;
    else if (c === ',' && depth === 0) {
      items.push(inner.slice(start, i));
      start = i + 1;
    }
  }
  items.push(inner.slice(start));
  return items.map((x) => x.trim()).filter((x) => x !== '');
}

function parseValue(raw: string, where: string): TomlValue {
  const v = raw.trim();
  if (v.startsWith('"')) return JSON.parse(v) as string;
  if (v.startsWith("'")) return v.slice(1, -1);
  if (v === 'true' || v === 'false') return v === 'true';
  if (/^[+-]?\d+$/.test(v)) return Number(v);
  if (v.startsWith('[') && v.endsWith(']')) {
    return arrayItems(v.slice(1, -1)).map((x) => parseValue(x, where));
  }
  throw new Error(`${where}: unsupported TOML value ${JSON.stringify(v)}`);
}

function tableAt(root: TomlTable, path: string[]): TomlTable {
  let cur = root;
  for (const p of path) {
    cur[p] ??= {};
    cur = cur[p] as TomlTable;
  }
  return cur;
}

/** Parses the subset; throws naming the line that could not be read. */
export function parseTomlSubset(text: string, where: string): TomlTable {
  const root: TomlTable = {};
  let table = root;
  text.split('\n').forEach((rawLine, i) => {
    const line = rawLine.replace(/\s+#.*$/, '').trim();
    if (line === '' || line.startsWith('#')) return;
    const header = /^\[([^\]]+)\]$/.exec(line);
    if (header) {
      table = tableAt(root, splitKey(header[1]));
      return;
    }
    const eq =
      /^((?:"(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_.-]+)(?:\s*\.\s*(?:"(?:[^"\\]|\\.)*"|[A-Za-z0-9_-]+))*)\s*=\s*(.+)$/.exec(
        line,
      );
    if (!eq)
      throw new Error(
        `${where}: line ${i + 1} is not a TOML table header or key = value: ${JSON.stringify(line)}`,
      );
    const keys = splitKey(eq[1]);
    tableAt(table, keys.slice(0, -1))[keys[keys.length - 1]] = parseValue(eq[2], `${where} line ${i + 1}`);
  });
  return root;
}
