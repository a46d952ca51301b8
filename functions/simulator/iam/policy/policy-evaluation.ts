/**
 * IAM's decision for one request, as AWS documents its policy evaluation logic (for one account,
 * without SCPs, permission boundaries or session policies, which the stack does not use):
 * an explicit Deny in any applicable policy wins; otherwise the request is allowed when an
 * identity policy of the principal allows it, or when a resource policy allows the principal
 * by name (a resource policy naming only the account delegates to identity policies); a request
 * across accounts needs both. Anything else is an implicit deny.
 */
import type { AuthorizationDecision } from '../authorization/authorization-request.js';
import type { NormalizedContext } from './condition-evaluation.js';
import type { PolicyDocument } from './policy-document.js';
import { accountOfPrincipal } from './principal-match.js';
import { type EvaluationRequest, lookupFor, matchStatement, type StatementMatch } from './statement-match.js';

/** The policies that apply to a request. */
export interface ApplicablePolicies {
  /** Identity policies of the principal (none for a service principal). */
  readonly identity: readonly PolicyDocument[];
  /** The resource's policy (queue policy, function permissions), if it has one. */
  readonly resource?: readonly PolicyDocument[];
}

/** A decision with what explains it. */
export interface Evaluation {
  readonly decision: AuthorizationDecision;
  /**
   * For a denial: the Allow statements that matched action, resource and principal but failed
   * a condition (with the failed condition), to say what the request lacked.
   */
  readonly nearMisses: readonly StatementMatch[];
}

const ALLOWED = (statement: string): AuthorizationDecision => ({
  allowed: true,
  outcome: 'allowed',
  statement,
});

/** The account of a resource ARN; undefined for `*` or ARNs without one (S3 buckets). */
function accountOfResource(resource: string): string | undefined {
  const account = resource.split(':')[4];
  return account && /^\d{12}$/.test(account) ? account : undefined;
}

/** Decides a request against the policies that apply to it. */
export function evaluatePolicies(request: EvaluationRequest, policies: ApplicablePolicies): Evaluation {
  const nearMisses: StatementMatch[] = [];
  let identityAllow: string | undefined;
  let resourceAllowNamed: string | undefined;
  let resourceAllowAccount: string | undefined;
  const visit = (policy: PolicyDocument, context: NormalizedContext): AuthorizationDecision | undefined => {
    const lookup = lookupFor(policy, context);
    for (const statement of policy.statements) {
      const match = matchStatement(policy, statement, request, lookup);
      if (match.stage === 'match') {
        if (statement.effect === 'Deny') {
          return { allowed: false, outcome: 'explicit-deny', statement: statement.id };
        }
        if (policy.kind === 'identity') identityAllow ??= statement.id;
        else if (match.principal === 'account') resourceAllowAccount ??= statement.id;
        else resourceAllowNamed ??= statement.id;
      } else if (match.stage === 'condition' && statement.effect === 'Allow') {
        nearMisses.push(match);
      }
    }
    return undefined;
  };
  for (const policy of [...policies.identity, ...(policies.resource ?? [])]) {
    const deny = visit(policy, request.context);
    if (deny) return { decision: deny, nearMisses: [] };
  }
  const principalAccount = accountOfPrincipal(request.principal);
  const resourceAccount = accountOfResource(request.resource);
  const crossAccount =
    principalAccount !== undefined && resourceAccount !== undefined && principalAccount !== resourceAccount;
  if (crossAccount) {
    const resourceAllow = resourceAllowNamed ?? resourceAllowAccount;
    if (identityAllow && resourceAllow) return { decision: ALLOWED(identityAllow), nearMisses: [] };
  } else {
    const allow = identityAllow ?? resourceAllowNamed;
    if (allow) return { decision: ALLOWED(allow), nearMisses: [] };
  }
  return { decision: { allowed: false, outcome: 'implicit-deny' }, nearMisses };
}
