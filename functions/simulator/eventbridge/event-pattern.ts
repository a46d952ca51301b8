/**
 * EventBridge event patterns: validation and matching, as the service does it. A pattern is an
 * object whose leaves are arrays of matchers; every field must match, and a leaf matches when any
 * of its matchers matches the event value (or, for an array in the event, any element of it).
 * Supported matchers: exact values (string, number, boolean, null), `prefix`, `suffix`,
 * `equals-ignore-case`, `anything-but` (values, `prefix`, `suffix`), `exists`, `numeric` ranges,
 * `wildcard`, and `$or` of sub-patterns.
 */

/** A bad pattern: names the field path and what is wrong with it. */
export class InvalidEventPatternError extends Error {
  override readonly name = 'InvalidEventPatternError';
}

/** A compiled pattern: true when the event (a JSON object) matches. */
export type EventMatcher = (event: unknown) => boolean;

type ValueTest = (value: unknown, present: boolean) => boolean;

/** Validates `pattern` and returns its matcher; throws {@link InvalidEventPatternError}. */
export function compileEventPattern(pattern: unknown): EventMatcher {
  if (!isObject(pattern)) throw new InvalidEventPatternError('event pattern must be a JSON object');
  const test = compileObject(pattern, '');
  return (event) => test(event);
}

/** Whether `event` matches `pattern` (convenience for one-off checks). */
export function matchesEventPattern(pattern: unknown, event: unknown): boolean {
  return compileEventPattern(pattern)(event);
}

function compileObject(pattern: Record<string, unknown>, path: string): (value: unknown) => boolean {
  const fields = Object.entries(pattern).map(([key, sub]) => compileField(key, sub, path));
  if (fields.length === 0) throw new InvalidEventPatternError(`${path || 'pattern'}: empty object`);
  return (value) => fields.every((field) => field(isObject(value) ? value : undefined));
}

function compileField(
  key: string,
  sub: unknown,
  parent: string,
): (value: Record<string, unknown> | undefined) => boolean {
  const path = parent ? `${parent}.${key}` : key;
  if (key === '$or') {
    if (!Array.isArray(sub) || sub.length < 2 || !sub.every(isObject)) {
      throw new InvalidEventPatternError(`${path}: must be an array of at least two pattern objects`);
    }
    const alternatives = sub.map((alt, i) => compileObject(alt, `${path}[${i}]`));
    return (object) => alternatives.some((alt) => alt(object));
  }
  if (isObject(sub)) {
    const nested = compileObject(sub, path);
    return (object) => nested(object?.[key]);
  }
  if (!Array.isArray(sub)) {
    throw new InvalidEventPatternError(
      `${path}: leaf must be an array of matchers, got ${JSON.stringify(sub)}`,
    );
  }
  if (sub.length === 0) throw new InvalidEventPatternError(`${path}: empty array matches nothing`);
  const tests = sub.map((matcher, i) => compileMatcher(matcher, `${path}[${i}]`));
  return (object) => {
    const present = object !== undefined && Object.hasOwn(object, key);
    const value = present ? object[key] : undefined;
    return tests.some((test) => test(value, present));
  };
}

function compileMatcher(matcher: unknown, path: string): ValueTest {
  if (matcher === null || ['string', 'number', 'boolean'].includes(typeof matcher)) {
    return anyElement((v) => v === matcher);
  }
  if (!isObject(matcher)) throw new InvalidEventPatternError(`${path}: unsupported matcher`);
  const keys = Object.keys(matcher);
  if (keys.length !== 1) {
    throw new InvalidEventPatternError(
      `${path}: a matcher object has exactly one operator, got ${keys.length}`,
    );
  }
  const [operator] = keys;
  const operand = matcher[operator];
  switch (operator) {
    case 'exists':
      if (typeof operand !== 'boolean')
        throw new InvalidEventPatternError(`${path}.exists: must be true or false`);
      return (_value, present) => present === operand;
    case 'prefix':
      return anyElement(stringTest(operand, `${path}.prefix`, (v, s) => v.startsWith(s)));
    case 'suffix':
      return anyElement(stringTest(operand, `${path}.suffix`, (v, s) => v.endsWith(s)));
    case 'equals-ignore-case':
      return anyElement(stringOperand(operand, `${path}.equals-ignore-case`, (v, s) => v === s, true));
    case 'wildcard':
      return anyElement(wildcardTest(operand, `${path}.wildcard`));
    case 'numeric':
      return anyElement(numericTest(operand, `${path}.numeric`));
    case 'anything-but':
      return anythingBut(operand, `${path}.anything-but`);
    default:
      throw new InvalidEventPatternError(`${path}: unknown operator '${operator}'`);
  }
}

/** Matches a scalar event value, or any element of an array event value. */
function anyElement(test: (value: unknown) => boolean): ValueTest {
  return (value, present) => present && (Array.isArray(value) ? value.some(test) : test(value));
}

/** `prefix` / `suffix`: a string, or `{ "equals-ignore-case": string }`. */
function stringTest(operand: unknown, path: string, op: (v: string, s: string) => boolean) {
  if (isObject(operand) && Object.keys(operand).length === 1 && 'equals-ignore-case' in operand) {
    return stringOperand(operand['equals-ignore-case'], `${path}.equals-ignore-case`, op, true);
  }
  return stringOperand(operand, path, op, false);
}

function stringOperand(
  operand: unknown,
  path: string,
  op: (v: string, s: string) => boolean,
  ignoreCase: boolean,
): (value: unknown) => boolean {
  if (typeof operand !== 'string') throw new InvalidEventPatternError(`${path}: must be a string`);
  const expected = ignoreCase ? operand.toLowerCase() : operand;
  return (value) => typeof value === 'string' && op(ignoreCase ? value.toLowerCase() : value, expected);
}

function wildcardTest(operand: unknown, path: string): (value: unknown) => boolean {
  if (typeof operand !== 'string') throw new InvalidEventPatternError(`${path}: must be a string`);
  const source = operand
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  const regex = new RegExp(`^${source}$`, 's');
  return (value) => typeof value === 'string' && regex.test(value);
}

const COMPARATORS: Record<string, (a: number, b: number) => boolean> = {
  '<': (a, b) => a < b,
  '<=': (a, b) => a <= b,
  '=': (a, b) => a === b,
  '>': (a, b) => a > b,
  '>=': (a, b) => a >= b,
};

function numericTest(operand: unknown, path: string): (value: unknown) => boolean {
  if (!Array.isArray(operand) || operand.length === 0 || operand.length % 2 !== 0 || operand.length > 4) {
    throw new InvalidEventPatternError(`${path}: must be [op, number] or [op, number, op, number]`);
  }
  const checks: Array<(v: number) => boolean> = [];
  for (let i = 0; i < operand.length; i += 2) {
    const compare = COMPARATORS[operand[i] as string];
    const bound = operand[i + 1];
    if (!compare) throw new InvalidEventPatternError(`${path}[${i}]: unknown comparison '${operand[i]}'`);
    if (typeof bound !== 'number' || !Number.isFinite(bound)) {
      throw new InvalidEventPatternError(`${path}[${i + 1}]: must be a number`);
    }
    checks.push((v) => compare(v, bound));
  }
  return (value) => typeof value === 'number' && checks.every((check) => check(value));
}

/** `anything-but`: a value, a list of values, or `{prefix}` / `{suffix}`; requires the field. */
function anythingBut(operand: unknown, path: string): ValueTest {
  let excluded: (value: unknown) => boolean;
  if (isObject(operand)) {
    const [operator, ...rest] = Object.keys(operand);
    if (rest.length > 0 || (operator !== 'prefix' && operator !== 'suffix')) {
      throw new InvalidEventPatternError(`${path}: object form takes only 'prefix' or 'suffix'`);
    }
    excluded = stringTest(
      operand[operator],
      `${path}.${operator}`,
      operator === 'prefix' ? (v, s) => v.startsWith(s) : (v, s) => v.endsWith(s),
    );
  } else {
    const values = Array.isArray(operand) ? operand : [operand];
    if (values.length === 0 || !values.every((v) => ['string', 'number'].includes(typeof v))) {
      throw new InvalidEventPatternError(`${path}: must be a string, a number or a list of them`);
    }
    excluded = (value) => values.includes(value);
  }
  return (value, present) => {
    if (!present || value === null) return false;
    return Array.isArray(value) ? value.some((v) => !excluded(v)) : !excluded(value);
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
