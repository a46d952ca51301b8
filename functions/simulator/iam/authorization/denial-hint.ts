/**
 * The one-line explanation recorded with a denial: the statement that explicitly denied; or the
 * Allow statements that matched action and resource but failed a condition, with the condition
 * key, its policy values and what the request carried; or that no statement grants the action.
 */

import type { Evaluation } from '../policy/policy-evaluation.js';
import type { ContextValue } from './authorization-request.js';

const show = (value: ContextValue | undefined): string =>
  value === undefined
    ? 'no value'
    : typeof value === 'string'
      ? `"${value}"`
      : `[${value.map((v) => `"${v}"`).join(', ')}]`;

/** Explains a denied evaluation of `action` on `resource`. */
export function denialHint(
  evaluation: Evaluation,
  action: string,
  resource: string,
  missingPolicies: readonly string[] = [],
): string {
  const { decision, nearMisses } = evaluation;
  if (decision.outcome === 'explicit-deny') return `explicitly denied by ${decision.statement}`;
  const parts = nearMisses.map(({ statement, failure }) => {
    const c = failure!.condition;
    return `${statement.id} grants ${action} on ${resource} but its condition ${c.operator} ${c.key} in [${c.values.join(', ')}] failed (the request carried ${show(failure!.actual)})`;
  });
  if (parts.length === 0) parts.push(`no statement grants ${action} on ${resource}`);
  if (missingPolicies.length)
    parts.push(`AWS managed policies not known to the simulator: ${missingPolicies.join(', ')}`);
  return parts.join('; ');
}
