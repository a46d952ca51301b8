/**
 * The Condition element of a statement, parsed: one entry per (operator, key) pair, with the
 * operator split into its set prefix (`ForAllValues:` / `ForAnyValue:`), base operator and
 * `IfExists` suffix. Multiple entries are ANDed; the values of one entry are ORed.
 */
import { CONDITION_OPERATORS, type ConditionOperatorName } from './condition-operators.js';

/** One (operator, key) pair of a Condition element. */
export interface ParsedCondition {
  /** The operator as written, e.g. `ForAllValues:StringLikeIfExists`. */
  readonly operator: string;
  readonly base: ConditionOperatorName;
  readonly set?: 'ForAllValues' | 'ForAnyValue';
  readonly ifExists: boolean;
  /** The condition key as written (`aws:RequestTag/joiner.sh/cluster`). */
  readonly key: string;
  /** The key lower-cased: condition key names are case-insensitive. */
  readonly keyLower: string;
  /** The policy values, as strings (JSON numbers and booleans are written as IAM reads them). */
  readonly values: readonly string[];
}

/**
 * Parses a statement's Condition element.
 * @throws Error naming the operator or key at fault (the caller adds the statement).
 */
export function parseConditionBlock(block: unknown): ParsedCondition[] {
  if (typeof block !== 'object' || block === null || Array.isArray(block)) {
    throw new Error('must be an object of operator -> {key: values}');
  }
  const parsed: ParsedCondition[] = [];
  for (const [operator, keys] of Object.entries(block as Record<string, unknown>)) {
    const { base, set, ifExists } = splitOperator(operator);
    if (typeof keys !== 'object' || keys === null || Array.isArray(keys)) {
      throw new Error(`${operator} must map condition keys to values`);
    }
    for (const [key, raw] of Object.entries(keys as Record<string, unknown>)) {
      const list = Array.isArray(raw) ? raw : [raw];
      if (list.length === 0) throw new Error(`${operator}.${key} has no values`);
      const values = list.map((v) => {
        if (typeof v === 'string') return v;
        if (typeof v === 'number' || typeof v === 'boolean') return String(v);
        throw new Error(
          `${operator}.${key}: values must be strings, numbers or booleans, got ${JSON.stringify(v)}`,
        );
      });
      if (base === 'Null' || base === 'Bool') {
        for (const v of values) {
          if (!/^(true|false)$/i.test(v))
            throw new Error(`${operator}.${key}: ${base} takes true or false, got ${v}`);
        }
      }
      parsed.push({
        operator,
        base,
        ...(set ? { set } : {}),
        ifExists,
        key,
        keyLower: key.toLowerCase(),
        values,
      });
    }
  }
  return parsed;
}

function splitOperator(operator: string): {
  base: ConditionOperatorName;
  set?: 'ForAllValues' | 'ForAnyValue';
  ifExists: boolean;
} {
  let rest = operator;
  let set: 'ForAllValues' | 'ForAnyValue' | undefined;
  const colon = rest.indexOf(':');
  if (colon >= 0) {
    const prefix = rest.slice(0, colon);
    if (prefix !== 'ForAllValues' && prefix !== 'ForAnyValue') {
      throw new Error(`unknown set operator ${prefix} in ${operator} (ForAllValues or ForAnyValue)`);
    }
    set = prefix;
    rest = rest.slice(colon + 1);
  }
  let ifExists = false;
  if (rest.endsWith('IfExists')) {
    ifExists = true;
    rest = rest.slice(0, -'IfExists'.length);
  }
  if (!Object.hasOwn(CONDITION_OPERATORS, rest)) throw new Error(`unknown condition operator ${operator}`);
  if (rest === 'Null' && (ifExists || set))
    throw new Error(`${operator}: Null takes no IfExists or set prefix`);
  return { base: rest as ConditionOperatorName, ...(set ? { set } : {}), ifExists };
}
