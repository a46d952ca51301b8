/**
 * IAM's condition operators: how one context value compares with one policy value. Negated
 * operators (`StringNotEquals`, `NotIpAddress`…) are the negation of a positive one and also
 * match when the key is absent; the caller (condition evaluation) applies that rule.
 */
import { matchesArn } from './arn-match.js';
import { ipInBlock } from './ip-address.js';
import { type PatternPart, resolveVariables, type VariableLookup } from './policy-variables.js';
import { matchesParts } from './wildcard.js';

/**
 * Compares one context value with one policy value as written; operators that take policy
 * variables resolve them through `lookup` (undefined for `2008-10-17` policies).
 */
type Compare = (context: string, policy: string, lookup: VariableLookup | undefined) => boolean;

/** An operator: its positive comparison, and whether the operator is its negation. */
export interface ConditionOperator {
  readonly compare: Compare;
  readonly negated: boolean;
}

const text = (parts: readonly PatternPart[]): string => parts.map((p) => p.text).join('');

/** A string operator's comparison after the policy value's variables are substituted. */
const withVariables =
  (test: (context: string, policy: readonly PatternPart[]) => boolean): Compare =>
  (context, policy, lookup) => {
    const parts = resolveVariables(policy, lookup);
    return parts !== undefined && test(context, parts);
  };

function parseNumber(value: string): number | undefined {
  if (!/^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(value)) return undefined;
  return Number(value);
}

/** A date as IAM reads it: ISO 8601 (W3C) or epoch seconds. */
export function parseDate(value: string): number | undefined {
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  if (!/^\d{4}-\d{2}-\d{2}/.test(value)) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

const numeric =
  (test: (a: number, b: number) => boolean): Compare =>
  (context, policy) => {
    const a = parseNumber(context);
    const b = parseNumber(policy);
    return a !== undefined && b !== undefined && test(a, b);
  };

const date =
  (test: (a: number, b: number) => boolean): Compare =>
  (context, policy) => {
    const a = parseDate(context);
    const b = parseDate(policy);
    return a !== undefined && b !== undefined && test(a, b);
  };

const stringEquals = withVariables((c, p) => c === text(p));
const stringEqualsIgnoreCase = withVariables((c, p) => c.toLowerCase() === text(p).toLowerCase());
const stringLike = withVariables((c, p) => matchesParts(p, c));
const arnLike: Compare = (c, p, lookup) => matchesArn(p, c, lookup);
const numEq = numeric((a, b) => a === b);
const dateEq = date((a, b) => a === b);
const ip: Compare = (c, p) => ipInBlock(c, p);
const binary: Compare = (c, p) => Buffer.from(c, 'base64').equals(Buffer.from(p, 'base64'));
const bool: Compare = (c, p) => c.toLowerCase() === p.toLowerCase();

const op = (compare: Compare, negated = false): ConditionOperator => ({ compare, negated });

/** Every operator IAM accepts (without the IfExists suffix and set prefixes). */
export const CONDITION_OPERATORS = {
  StringEquals: op(stringEquals),
  StringNotEquals: op(stringEquals, true),
  StringEqualsIgnoreCase: op(stringEqualsIgnoreCase),
  StringNotEqualsIgnoreCase: op(stringEqualsIgnoreCase, true),
  StringLike: op(stringLike),
  StringNotLike: op(stringLike, true),
  NumericEquals: op(numEq),
  NumericNotEquals: op(numEq, true),
  NumericLessThan: op(numeric((a, b) => a < b)),
  NumericLessThanEquals: op(numeric((a, b) => a <= b)),
  NumericGreaterThan: op(numeric((a, b) => a > b)),
  NumericGreaterThanEquals: op(numeric((a, b) => a >= b)),
  DateEquals: op(dateEq),
  DateNotEquals: op(dateEq, true),
  DateLessThan: op(date((a, b) => a < b)),
  DateLessThanEquals: op(date((a, b) => a <= b)),
  DateGreaterThan: op(date((a, b) => a > b)),
  DateGreaterThanEquals: op(date((a, b) => a >= b)),
  Bool: op(bool),
  BinaryEquals: op(binary),
  IpAddress: op(ip),
  NotIpAddress: op(ip, true),
  ArnEquals: op(arnLike),
  ArnLike: op(arnLike),
  ArnNotEquals: op(arnLike, true),
  ArnNotLike: op(arnLike, true),
  // Null is decided on the key's presence, not by comparing values (see condition evaluation).
  Null: op(() => false),
} as const satisfies Record<string, ConditionOperator>;

/** The name of an operator in {@link CONDITION_OPERATORS}. */
export type ConditionOperatorName = keyof typeof CONDITION_OPERATORS;
