import type { ContextValue } from '../../../../functions/simulator/iam/authorization/authorization-request.js';
import { normalizeContext } from '../../../../functions/simulator/iam/policy/condition-evaluation.js';
import {
  type PolicyKind,
  parsePolicyDocument,
} from '../../../../functions/simulator/iam/policy/policy-document.js';
import {
  type Evaluation,
  evaluatePolicies,
} from '../../../../functions/simulator/iam/policy/policy-evaluation.js';

export const ROLE = 'arn:aws:iam::111111111111:role/joiner-controller';

/** A policy of one or more statements, Version 2012-10-17. */
export const policy = (name: string, kind: PolicyKind, ...statements: object[]) =>
  parsePolicyDocument({ Version: '2012-10-17', Statement: statements }, name, kind);

/** Decides a request of ROLE (or `principal`) against identity and resource statements. */
export function decide(
  request: { action: string; resource?: string; context?: Record<string, ContextValue>; principal?: string },
  identity: object[],
  resource: object[] = [],
): Evaluation {
  return evaluatePolicies(
    {
      principal: request.principal ?? ROLE,
      action: request.action,
      resource: request.resource ?? '*',
      context: normalizeContext(request.context ?? {}),
    },
    {
      identity: identity.length ? [policy('identity', 'identity', ...identity)] : [],
      resource: resource.length ? [policy('resource', 'resource', ...resource)] : [],
    },
  );
}
