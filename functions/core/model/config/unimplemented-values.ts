import type { ConvertIssue } from './convert-result.js';

/**
 * Values of Karpenter's enums that joiner's schemas read but joiner does not implement, by the
 * field's path in the document: a document that sets one is refused with an error naming the
 * field, the value and why, never loaded as if it said something else. Every other value of
 * Karpenter's enums is implemented (a unit test walks the enums of Karpenter's CRDs).
 */
const UNIMPLEMENTED_VALUES: Readonly<Record<string, Readonly<Record<string, [string, string]>>>> = {
  'spec.disruption.consolidationPolicy': {
    Balanced: [
      "joiner does not score consolidation moves by their savings against the pods they disrupt (Karpenter's Balanced policy); it takes every move that saves",
      'use WhenEmptyOrUnderutilized (every saving move, within the budgets) or WhenEmpty, and slow consolidation with consolidateAfter or budgets',
    ],
  },
};

/** The value at a dotted `path` of `doc`, or `undefined`. */
function valueAt(doc: unknown, path: string): unknown {
  let cur: unknown = doc;
  for (const key of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

/**
 * Why `value` of the field at `path` is a Karpenter value joiner does not implement, or
 * `undefined` when joiner implements it (or it is none of Karpenter's).
 */
export function unimplementedKarpenterValue(path: string, value: string): string | undefined {
  return UNIMPLEMENTED_VALUES[path]?.[value]?.[0];
}

/** Errors for each Karpenter enum value in `doc` that joiner does not implement. */
export function unimplementedValueIssues(doc: unknown): ConvertIssue[] {
  const issues: ConvertIssue[] = [];
  for (const [path, values] of Object.entries(UNIMPLEMENTED_VALUES)) {
    const value = valueAt(doc, path);
    if (typeof value !== 'string' || values[value] === undefined) continue;
    const [reason, hint] = values[value];
    issues.push({
      severity: 'error',
      path,
      message: `value "${value}" of field "${path.split('.').at(-1)}" is not supported, joiner does not implement it: ${reason}`,
      hint,
    });
  }
  return issues;
}
