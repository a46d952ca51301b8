/**
 * Deciding a statement's conditions against a request context: every (operator, key) pair must
 * hold (AND); within one pair any policy value may match (OR). Missing keys, `IfExists`, negated
 * operators, `Null` and the `ForAllValues:` / `ForAnyValue:` set operators follow IAM's rules.
 */
import type { ContextValue } from '../authorization/authorization-request.js';
import type { ParsedCondition } from './condition-block.js';
import { CONDITION_OPERATORS } from './condition-operators.js';
import type { VariableLookup } from './policy-variables.js';

/** A request context with lower-cased keys (condition keys are case-insensitive). */
export type NormalizedContext = ReadonlyMap<string, ContextValue>;

/** Lower-cases a context's keys. */
export function normalizeContext(context: Readonly<Record<string, ContextValue>>): NormalizedContext {
  const map = new Map<string, ContextValue>();
  for (const [key, value] of Object.entries(context)) map.set(key.toLowerCase(), value);
  return map;
}

/** Why a condition failed: the pair and the value the request carried. */
export interface ConditionFailure {
  readonly condition: ParsedCondition;
  /** The request's value for the key; undefined when the request did not carry it. */
  readonly actual: ContextValue | undefined;
}

/** Decides one (operator, key) pair. */
export function conditionHolds(
  condition: ParsedCondition,
  context: NormalizedContext,
  lookup: VariableLookup | undefined,
): boolean {
  const actual = context.get(condition.keyLower);
  const values = actual === undefined ? [] : typeof actual === 'string' ? [actual] : actual;
  const present = values.length > 0;
  if (condition.base === 'Null') {
    return condition.values.some((v) => (v.toLowerCase() === 'true') === !present);
  }
  const { compare, negated } = CONDITION_OPERATORS[condition.base];
  const positive = (value: string): boolean => condition.values.some((p) => compare(value, p, lookup));
  const single = (value: string): boolean => (negated ? !positive(value) : positive(value));
  if (condition.set === 'ForAllValues') return values.every(single);
  if (condition.set === 'ForAnyValue') return present ? values.some(single) : condition.ifExists;
  if (!present) return condition.ifExists || negated;
  return negated ? !values.some(positive) : values.some(positive);
}

/**
 * Decides a statement's conditions; answers the first pair that fails, or undefined when all
 * hold.
 */
export function firstFailedCondition(
  conditions: readonly ParsedCondition[],
  context: NormalizedContext,
  lookup: VariableLookup | undefined,
): ConditionFailure | undefined {
  for (const condition of conditions) {
    if (!conditionHolds(condition, context, lookup)) {
      return { condition, actual: context.get(condition.keyLower) };
    }
  }
  return undefined;
}
