/**
 * ARN matching as IAM does it for Resource elements and the Arn* condition operators: the six
 * colon-separated components (`arn:partition:service:region:account:resource`) are compared one
 * by one, each with wildcards; the resource component keeps any further colons. A value that is
 * not an ARN (`*` for actions without resource-level permissions) only matches a pattern that
 * matches it as a whole string.
 */
import { type PatternPart, resolveVariables, type VariableLookup } from './policy-variables.js';
import { matchesParts, matchesWildcard } from './wildcard.js';

/** Splits an ARN into its six components, the last keeping its colons; undefined if not an ARN. */
export function splitArn(arn: string): string[] | undefined {
  const parts: string[] = [];
  let start = 0;
  for (let n = 0; n < 5; n++) {
    const colon = arn.indexOf(':', start);
    if (colon < 0) return undefined;
    parts.push(arn.slice(start, colon));
    start = colon + 1;
  }
  parts.push(arn.slice(start));
  return parts[0] === 'arn' ? parts : undefined;
}

const patterns = new Map<string, string[] | undefined>();

/** {@link splitPatternOnce}, cached: policies are matched far more often than they are written. */
function splitPattern(pattern: string): string[] | undefined {
  if (patterns.has(pattern)) return patterns.get(pattern);
  const split = splitPatternOnce(pattern);
  if (patterns.size > 10_000) patterns.clear();
  patterns.set(pattern, split);
  return split;
}

/** Splits a pattern like {@link splitArn}, not splitting inside `${…}` variables. */
function splitPatternOnce(pattern: string): string[] | undefined {
  const parts: string[] = [];
  let start = 0;
  let depth = 0;
  for (let i = 0; i < pattern.length && parts.length < 5; i++) {
    if (pattern[i] === '$' && pattern[i + 1] === '{') depth++;
    else if (pattern[i] === '}' && depth > 0) depth--;
    else if (pattern[i] === ':' && depth === 0) {
      parts.push(pattern.slice(start, i));
      start = i + 1;
    }
  }
  if (parts.length < 5) return undefined;
  parts.push(pattern.slice(start));
  return parts;
}

/**
 * Whether `arn` matches the ARN pattern (a Resource entry or an Arn* condition value), with
 * policy variables resolved through `lookup` when given (`2012-10-17` policies).
 */
export function matchesArn(pattern: string, arn: string, lookup?: VariableLookup): boolean {
  if (pattern === '*') return true;
  const value = splitArn(arn);
  const components = value ? splitPattern(pattern) : undefined;
  if (!value || !components) {
    const parts = resolveVariables(pattern, lookup);
    return parts !== undefined && matchesParts(parts, arn);
  }
  for (let i = 0; i < 6; i++) {
    const component = components[i];
    if (lookup === undefined || !component.includes('${')) {
      if (!matchesWildcard(component, value[i])) return false;
      continue;
    }
    const parts: PatternPart[] | undefined = resolveVariables(component, lookup);
    if (parts === undefined || !matchesParts(parts, value[i])) return false;
  }
  return true;
}
