/**
 * IAM wildcard matching: `*` matches any run of characters (none included), `?` exactly one.
 * Patterns written without variables are compiled once and cached.
 */
import type { PatternPart } from './policy-variables.js';

const cache = new Map<string, RegExp>();

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

function compile(parts: readonly PatternPart[], ignoreCase: boolean): RegExp {
  let source = '';
  for (const part of parts) {
    if (part.literal) {
      source += escapeRegExp(part.text);
      continue;
    }
    for (const c of part.text) {
      if (c === '*') source += '.*';
      else if (c === '?') source += '.';
      else source += escapeRegExp(c);
    }
  }
  return new RegExp(`^${source}$`, ignoreCase ? 'is' : 's');
}

/** Whether `value` matches the wildcard pattern made of `parts`. */
export function matchesParts(parts: readonly PatternPart[], value: string, ignoreCase = false): boolean {
  if (parts.length === 1 && !parts[0].literal) return matchesWildcard(parts[0].text, value, ignoreCase);
  if (parts.every((p) => p.literal)) {
    const text = parts.map((p) => p.text).join('');
    return ignoreCase ? text.toLowerCase() === value.toLowerCase() : text === value;
  }
  return compile(parts, ignoreCase).test(value);
}

/** Whether `value` matches `pattern` (a policy string without variables). */
export function matchesWildcard(pattern: string, value: string, ignoreCase = false): boolean {
  if (pattern === '*') return true;
  if (!pattern.includes('*') && !pattern.includes('?')) {
    return ignoreCase ? pattern.toLowerCase() === value.toLowerCase() : pattern === value;
  }
  const key = `${ignoreCase ? 'i' : 's'}${pattern}`;
  let re = cache.get(key);
  if (!re) {
    re = compile([{ text: pattern, literal: false }], ignoreCase);
    cache.set(key, re);
  }
  return re.test(value);
}

/** Whether an action (`ec2:CreateFleet`) matches an Action entry (`ec2:Create*`): case-insensitive. */
export const matchesAction = (pattern: string, action: string): boolean =>
  matchesWildcard(pattern, action, true);
