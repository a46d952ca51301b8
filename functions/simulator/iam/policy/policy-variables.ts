/**
 * Policy variables (`${aws:username}`, `${aws:PrincipalTag/team}`, `${*}`, `${?}`, `${$}`,
 * `${aws:x, 'default'}`) in Resource elements and condition values of `2012-10-17` policies.
 * Text is split into parts: text written in the policy (whose `*` and `?` are wildcards where the
 * element allows them) and text substituted for a variable (always matched literally).
 */
import type { ContextValue } from '../authorization/authorization-request.js';

/** A piece of a pattern; `literal` pieces never act as wildcards. */
export interface PatternPart {
  readonly text: string;
  readonly literal: boolean;
}

/** Looks a condition key up in the request context by its lower-cased name. */
export type VariableLookup = (keyLower: string) => ContextValue | undefined;

const SPECIAL: Readonly<Record<string, string>> = { '*': '*', '?': '?', $: '$' };

/**
 * Splits `text` into parts, substituting variables from `lookup`. Without a lookup (a
 * `2008-10-17` policy) the text is taken as written. Answers undefined when a variable has no
 * single value in the context and no default: IAM then treats the element as not matching.
 */
export function resolveVariables(
  text: string,
  lookup: VariableLookup | undefined,
): PatternPart[] | undefined {
  if (lookup === undefined || !text.includes('${')) return [{ text, literal: false }];
  const parts: PatternPart[] = [];
  let i = 0;
  let plain = '';
  while (i < text.length) {
    const start = text.indexOf('${', i);
    if (start < 0) break;
    const end = closingBrace(text, start + 2);
    if (end < 0) break;
    plain += text.slice(i, start);
    const value = variableValue(text.slice(start + 2, end), lookup);
    if (value === undefined) return undefined;
    if (plain) parts.push({ text: plain, literal: false });
    plain = '';
    parts.push({ text: value, literal: true });
    i = end + 1;
  }
  plain += text.slice(i);
  if (plain) parts.push({ text: plain, literal: false });
  return parts;
}

/** The index of the `}` ending a variable body that starts at `from` (quotes may hold `}`). */
function closingBrace(text: string, from: number): number {
  let quoted = false;
  for (let j = from; j < text.length; j++) {
    const c = text[j];
    if (c === "'") quoted = !quoted;
    else if (c === '}' && !quoted) return j;
  }
  return -1;
}

function variableValue(body: string, lookup: VariableLookup): string | undefined {
  const trimmed = body.trim();
  if (Object.hasOwn(SPECIAL, trimmed)) return SPECIAL[trimmed];
  const comma = trimmed.indexOf(',');
  const key = (comma < 0 ? trimmed : trimmed.slice(0, comma)).trim();
  let fallback: string | undefined;
  if (comma >= 0) {
    const quoted = trimmed.slice(comma + 1).trim();
    if (quoted.length < 2 || !quoted.startsWith("'") || !quoted.endsWith("'")) return undefined;
    fallback = quoted.slice(1, -1).replaceAll("''", "'");
  }
  if (key === '' || /\s/.test(key)) return undefined;
  const value = lookup(key.toLowerCase());
  if (typeof value === 'string') return value;
  // Missing, or multi-valued (which IAM never substitutes): the default, if any.
  return fallback;
}
