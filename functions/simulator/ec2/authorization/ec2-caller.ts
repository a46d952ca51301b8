/**
 * Who is calling the simulated EC2 and how its requests are authorized: the principal of the
 * request's SigV4 access key, the account's authorizer, and the service authorization reference
 * that says which resource types and condition keys each request carries.
 */
import type {
  AuthorizationDecision,
  AuthorizationRequest,
  ContextValue,
  ServiceAuthorizer,
} from '../../iam/authorization/authorization-request.js';
import type { Ec2Context } from '../context.js';
import type { Ec2Reference } from './service-reference.js';
import { unauthorizedOperation } from './unauthorized-operation.js';

/** The authenticated caller of one request. */
export interface Ec2Caller {
  readonly principal: string;
  readonly authorizer: ServiceAuthorizer;
  readonly reference: Ec2Reference;
}

/** One resource an action is authorized against; `resourceType` undefined means `*`. */
export interface Ec2Check {
  /** `service:Action`. */
  readonly action: string;
  /** The reference's resource type (`instance`, `role`, `key`…); undefined for `*`. */
  readonly resourceType?: string;
  /** The resource ARN, or `*`. */
  readonly resource: string;
  /** Context keys before filtering to the ones the reference lists for the action and resource type. */
  readonly context: Readonly<Record<string, ContextValue>>;
}

/** A denied check: the request as asked and the decision. */
export interface Denial {
  readonly request: AuthorizationRequest;
  readonly decision: AuthorizationDecision;
}

/** Asks the authorizer each check in order; the first denial, or undefined when all are allowed. */
export function firstDenial(ctx: Ec2Context, checks: readonly Ec2Check[]): Denial | undefined {
  const caller = ctx.caller;
  if (!caller) return undefined;
  for (const check of checks) {
    const request: AuthorizationRequest = {
      principal: caller.principal,
      action: check.action,
      resource: check.resource,
      context: caller.reference.filterContext(check.action, check.resourceType, { ...check.context }),
    };
    const decision = caller.authorizer.authorize(request);
    if (!decision.allowed) return { request, decision };
  }
  return undefined;
}

/** Throws EC2's `UnauthorizedOperation` for the first denied check. */
export function requireAuthorized(ctx: Ec2Context, checks: readonly Ec2Check[]): void {
  const denial = firstDenial(ctx, checks);
  if (denial) throw unauthorizedOperation(denial.request, denial.decision);
}

/** The ARN of an EC2 resource of this region and account (no account for images and snapshots). */
export function ec2Arn(ctx: Ec2Context, resourceType: string, id: string): string {
  const where = { region: ctx.region, account: ctx.state.topology.accountId };
  if (ctx.caller) return ctx.caller.reference.arn('ec2', resourceType, where, id);
  return `arn:aws:ec2:${ctx.region}:${where.account}:${resourceType}/${id}`;
}

/**
 * `aws:ResourceTag/<key>` for each tag of an existing resource, and EC2's older `ec2:ResourceTag/<key>`
 * (kept only where the reference lists it for the action and resource type).
 */
export function resourceTagContext(tags: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(tags).flatMap(([k, v]) => [
      [`aws:ResourceTag/${k}`, v],
      [`ec2:ResourceTag/${k}`, v],
    ]),
  );
}

/** `aws:RequestTag/<key>` for each tag applied by the request, and `aws:TagKeys`. */
export function requestTagContext(tags: Readonly<Record<string, string>>): Record<string, ContextValue> {
  const keys = Object.keys(tags);
  if (keys.length === 0) return {};
  return {
    ...Object.fromEntries(Object.entries(tags).map(([k, v]) => [`aws:RequestTag/${k}`, v])),
    'aws:TagKeys': keys,
  };
}
