import type {
  AuthorizationDecision,
  AuthorizationRequest,
  ServiceAuthorizer,
} from '../../functions/simulator/iam/authorization/authorization-request.js';

/** The rules of {@link ownerTagAuthorizer}: roles that may be passed, the tag owned profiles carry. */
export interface OwnerTagRules {
  readonly passRoleArns: readonly string[];
  readonly ownerTag: { readonly key: string; readonly value: string };
  /** The principal every key maps to. */
  readonly principal: string;
}

const READS = new Set(['iam:GetInstanceProfile', 'iam:ListInstanceProfiles', 'iam:GetRole']);

/**
 * A small authorizer for tests of the simulated IAM service alone (the account's policy
 * evaluator is tested on its own): PassRole only for the listed roles, profile reads always,
 * profile writes only with the owner tag on the profile (and in the tags a call sends).
 * Every access key maps to one principal; denials are recorded in `denied`.
 */
export function ownerTagAuthorizer(
  rules: OwnerTagRules,
): ServiceAuthorizer & { denied: AuthorizationRequest[] } {
  const denied: AuthorizationRequest[] = [];
  const { key, value } = rules.ownerTag;
  const decide = (request: AuthorizationRequest): boolean => {
    if (request.action === 'iam:PassRole') return rules.passRoleArns.includes(request.resource);
    if (READS.has(request.action)) return true;
    const ctx = request.context;
    if (request.action === 'iam:CreateInstanceProfile') return ctx[`aws:RequestTag/${key}`] === value;
    if (request.action === 'iam:TagInstanceProfile' && ctx[`aws:RequestTag/${key}`] !== value) return false;
    return ctx[`aws:ResourceTag/${key}`] === value || ctx[`aws:RequestTag/${key}`] === value;
  };
  return {
    denied,
    principalOf: () => rules.principal,
    authorize(request): AuthorizationDecision {
      if (decide(request)) return { allowed: true, outcome: 'allowed', statement: 'test/owner-tag' };
      denied.push(request);
      return { allowed: false, outcome: 'implicit-deny' };
    },
  };
}
