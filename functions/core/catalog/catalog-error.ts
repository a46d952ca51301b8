/** One problem in a catalog, with the JSON path of the field (e.g. `instanceTypes[3].offerings[0].price`). */
export interface CatalogProblem {
  readonly path: string;
  readonly message: string;
}

/** A catalog that does not follow the documented format; the message lists every problem with its path. */
export class CatalogError extends Error {
  constructor(
    readonly source: string,
    readonly problems: readonly CatalogProblem[],
  ) {
    const lines = problems.map((p) => `  ${p.path || '(root)'}: ${p.message}`);
    super(`invalid instance catalog ${source}:\n${lines.join('\n')}\nsee docs/catalog.md for the format`);
    this.name = 'CatalogError';
  }
}

/** Formats a path of keys and indexes as `a[3].b[0].c`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}
