/**
 * Finds fields of an input document that its schema does not know: zod drops unknown keys from
 * plain objects, so every key present in the input but missing from the parsed output is unknown.
 */

type Path = (string | number)[];

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function walk(input: unknown, output: unknown, path: Path, found: Path[]): void {
  if (Array.isArray(input) && Array.isArray(output)) {
    input.forEach((item, i) => {
      walk(item, output[i], [...path, i], found);
    });
    return;
  }
  if (!isObject(input) || !isObject(output)) return;
  for (const [key, value] of Object.entries(input)) {
    if (!(key in output)) {
      if (value !== undefined) found.push([...path, key]);
      continue;
    }
    walk(value, output[key], [...path, key], found);
  }
}

/** Paths of keys in `input` that are absent from `parsed` (the schema's output for it). */
export function unknownFieldPaths(input: unknown, parsed: unknown): Path[] {
  const found: Path[] = [];
  walk(input, parsed, [], found);
  return found;
}
