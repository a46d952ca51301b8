/** Finds strings that look like shell variables left unexpanded (`${VAR}` or `$VAR`). */

const VARIABLE = /\$\{[A-Za-z_][A-Za-z0-9_]*\}|\$[A-Z_][A-Z0-9_]*/;

type Path = (string | number)[];

/** A value or key that contains something like `${AWS_DEFAULT_REGION}`. */
export interface UnexpandedVariable {
  readonly path: Path;
  readonly text: string;
  readonly variable: string;
}

function visit(value: unknown, path: Path, found: UnexpandedVariable[]): void {
  if (typeof value === 'string') {
    const m = VARIABLE.exec(value);
    if (m) found.push({ path, text: value, variable: m[0] });
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => {
      visit(v, [...path, i], found);
    });
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, v] of Object.entries(value)) {
      const m = VARIABLE.exec(key);
      if (m) found.push({ path: [...path, key], text: key, variable: m[0] });
      visit(v, [...path, key], found);
    }
  }
}

/** Every string value or key in a document that still holds a shell variable. */
export function findUnexpandedVariables(doc: unknown): UnexpandedVariable[] {
  const found: UnexpandedVariable[] = [];
  visit(doc, [], found);
  return found;
}
