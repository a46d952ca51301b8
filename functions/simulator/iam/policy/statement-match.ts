/**
 * Whether one statement applies to a request: action (or NotAction), resource (or NotResource),
 * principal (resource and trust policies) and conditions, in that order, reporting the first
 * element that did not match so a denial can say which statement came closest and why.
 */

import { matchesArn } from './arn-match.js';
import type { ParsedCondition } from './condition-block.js';
import {
  type ConditionFailure,
  firstFailedCondition,
  type NormalizedContext,
} from './condition-evaluation.js';
import type { PolicyDocument, PolicyStatement } from './policy-document.js';
import type { VariableLookup } from './policy-variables.js';
import { matchPrincipal, type PrincipalMatch } from './principal-match.js';
import { matchesAction } from './wildcard.js';

/** The request as the evaluator sees it. */
export interface EvaluationRequest {
  readonly principal: string;
  readonly action: string;
  readonly resource: string;
  readonly context: NormalizedContext;
}

/** How far a statement matched: the element that failed, or `match`. */
export type MatchStage = 'action' | 'resource' | 'principal' | 'condition' | 'match';

/** The outcome of matching one statement. */
export interface StatementMatch {
  readonly statement: PolicyStatement;
  readonly stage: MatchStage;
  /** How the principal was named (resource and trust policies). */
  readonly principal?: PrincipalMatch;
  /** The condition that failed, when `stage` is `condition`. */
  readonly failure?: ConditionFailure;
}

/** The variable lookup of a policy: only `2012-10-17` policies substitute variables. */
export function lookupFor(policy: PolicyDocument, context: NormalizedContext): VariableLookup | undefined {
  return policy.version === '2012-10-17' ? (key) => context.get(key) : undefined;
}

/** Matches one statement of `policy` against a request. */
export function matchStatement(
  policy: PolicyDocument,
  statement: PolicyStatement,
  request: EvaluationRequest,
  lookup: VariableLookup | undefined,
): StatementMatch {
  const actionHit = (statement.actions ?? statement.notActions ?? []).some((a) =>
    matchesAction(a, request.action),
  );
  if (actionHit === (statement.notActions !== undefined)) return { statement, stage: 'action' };
  const resources = statement.resources ?? statement.notResources;
  if (resources) {
    const hit = resources.some((r) => matchesArn(r, request.resource, lookup));
    if (hit === (statement.notResources !== undefined)) return { statement, stage: 'resource' };
  }
  let principal: PrincipalMatch | undefined;
  if (policy.kind !== 'identity') {
    if (statement.principal) principal = matchPrincipal(statement.principal, request.principal);
    else if (statement.notPrincipal) {
      principal = matchPrincipal(statement.notPrincipal, request.principal) === 'none' ? 'specific' : 'none';
    }
    if (principal === 'none' || principal === undefined)
      return { statement, stage: 'principal', principal: 'none' };
  }
  const failure = firstFailedCondition(statement.conditions as ParsedCondition[], request.context, lookup);
  if (failure) return { statement, stage: 'condition', failure, ...(principal ? { principal } : {}) };
  return { statement, stage: 'match', ...(principal ? { principal } : {}) };
}
