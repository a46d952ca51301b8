/**
 * The simulated account's IAM as the simulated services see it ({@link ServiceAuthorizer}): access
 * keys registered per principal, every request decided against the principal's identity policies
 * and the resource's policy with the global keys a real request carries, decisions cached per
 * (principal, action, resource, context), and every denial recorded with a hint saying which
 * statement came closest and what the request lacked.
 */
import { createHash } from 'node:crypto';
import { normalizeContext } from '../policy/condition-evaluation.js';
import { type PolicyDocument, parsePolicyDocument } from '../policy/policy-document.js';
import { type Evaluation, evaluatePolicies } from '../policy/policy-evaluation.js';
import type { AccessKey } from './account-identity.js';
import type {
  AuthorizationDecision,
  AuthorizationOutcome,
  AuthorizationRequest,
  ContextValue,
  ServiceAuthorizer,
} from './authorization-request.js';
import { denialHint } from './denial-hint.js';
import { isServicePrincipal, withGlobalKeys } from './global-context.js';
import type { ServiceReference } from './service-reference.js';
import type { StackIam } from './stack-iam.js';

/** A recorded denial. */
export interface Denial {
  /** ISO time of the request, from the account's clock. */
  readonly time: string;
  readonly principal: string;
  readonly action: string;
  readonly resource: string;
  readonly outcome: Exclude<AuthorizationOutcome, 'allowed'>;
  /** The explicitly denying statement, if any. */
  readonly statement?: string;
  readonly hint: string;
  /** Whether a test or scenario declared this denial expected. */
  readonly expected: boolean;
}

/** Which denials are expected: a predicate, or fields to match (a RegExp or exact string each). */
export type DenialMatcher =
  | ((denial: Denial) => boolean)
  | {
      readonly principal?: string | RegExp;
      readonly action?: string | RegExp;
      readonly resource?: string | RegExp;
    };

/** One decided request, as an observer of the authorizer sees it. */
export interface ObservedDecision {
  readonly request: AuthorizationRequest;
  /** The session name of the principal's credentials (the function's name), when known. */
  readonly sessionName?: string;
  readonly time: Date;
  readonly decision: AuthorizationDecision;
}

/** How the account is set up. */
export interface AccountAuthorizerOptions {
  readonly account: string;
  readonly region: string;
  /** The account's clock (the simulation's virtual time). */
  readonly clock: () => Date | number;
  /** When given, an action the service authorization reference does not list throws. */
  readonly reference?: ServiceReference;
  /** Cache decisions per (principal, action, resource, context). @default true */
  readonly cacheDecisions?: boolean;
  /** Called with every request decided (cached or not), e.g. to record what a run asked. */
  readonly onDecision?: (observed: ObservedDecision) => void;
}

/** The policies of an account: identity policies per principal ARN, resource policies per ARN. */
export interface AccountPolicies {
  readonly identity: ReadonlyMap<string, readonly PolicyDocument[]>;
  readonly resource: ReadonlyMap<string, readonly PolicyDocument[]>;
  /** Managed policies a principal has whose documents are unknown, for hints. */
  readonly unknownManaged?: ReadonlyMap<string, readonly string[]>;
}

const CACHE_LIMIT = 50_000;
const TIME_KEYS = /aws:(currenttime|epochtime)/i;

const matches = (pattern: string | RegExp | undefined, value: string): boolean =>
  pattern === undefined || (typeof pattern === 'string' ? pattern === value : pattern.test(value));

/** The account authorizer; build it with {@link AccountAuthorizer.fromStack} or `fromPolicies`. */
export class AccountAuthorizer implements ServiceAuthorizer {
  private readonly keys = new Map<string, { principal: string; sessionName?: string }>();
  /** The session name of each principal (its first registration's). */
  private readonly sessions = new Map<string, string>();
  private readonly cache = new Map<string, Evaluation>();
  private readonly recorded: Denial[] = [];
  private readonly expectations: DenialMatcher[] = [];
  /** Whether any policy reads the time, which then takes part in the cache key. */
  private readonly timeDependent: boolean;

  constructor(
    private readonly policies: AccountPolicies,
    private readonly options: AccountAuthorizerOptions,
  ) {
    const all = [...policies.identity.values(), ...policies.resource.values()].flat();
    this.timeDependent = all.some((p) => TIME_KEYS.test(JSON.stringify(p.statements)));
  }

  /** The authorizer of a stack's IAM (see readStackIam). */
  static fromStack(iam: StackIam, options: AccountAuthorizerOptions): AccountAuthorizer {
    const identity = new Map(iam.roles.map((r) => [r.arn, r.policies]));
    const unknownManaged = new Map(iam.roles.map((r) => [r.arn, r.unknownManagedPolicies]));
    const resource = new Map<string, PolicyDocument[]>();
    const add = (arn: string, policy: PolicyDocument) =>
      resource.set(arn, [...(resource.get(arn) ?? []), policy]);
    for (const p of iam.resourcePolicies) for (const arn of p.resourceArns) add(arn, p.policy);
    for (const r of iam.roles) if (r.trustPolicy) add(r.arn, r.trustPolicy);
    return new AccountAuthorizer({ identity, resource, unknownManaged }, options);
  }

  /**
   * An authorizer from policy documents given directly (tests, debugging): identity policies per
   * principal ARN and resource policies per resource ARN, as JSON documents or parsed ones.
   */
  static fromPolicies(
    policies: {
      identity: Readonly<Record<string, readonly (object | PolicyDocument)[]>>;
      resource?: Readonly<Record<string, readonly (object | PolicyDocument)[]>>;
    },
    options: AccountAuthorizerOptions,
  ): AccountAuthorizer {
    const parse = (kind: 'identity' | 'resource') => (entries: Readonly<Record<string, readonly object[]>>) =>
      new Map(
        Object.entries(entries).map(([arn, docs]) => [
          arn,
          docs.map((d, i) =>
            'statements' in d ? (d as PolicyDocument) : parsePolicyDocument(d, `${arn}#${i}`, kind),
          ),
        ]),
      );
    return new AccountAuthorizer(
      {
        identity: parse('identity')(policies.identity),
        resource: parse('resource')(policies.resource ?? {}),
      },
      options,
    );
  }

  /**
   * Issues credentials for a principal (a role ARN of the account); requests signed with them
   * are authorized as that principal in session `sessionName` (the function's name).
   * Deterministic: the same principal and session get the same key.
   */
  registerPrincipal(principal: string, sessionName?: string): AccessKey {
    const digest = createHash('sha256')
      .update(`${principal}\n${sessionName ?? ''}`)
      .digest('hex')
      .toUpperCase();
    const accessKeyId = `ASIA${digest.slice(0, 16)}`;
    this.keys.set(accessKeyId, { principal, ...(sessionName ? { sessionName } : {}) });
    if (sessionName && !this.sessions.has(principal)) this.sessions.set(principal, sessionName);
    return { accessKeyId, secretAccessKey: digest.slice(16, 56) };
  }

  /** The principal of an access key; undefined for a key the account never issued. */
  principalOf(accessKeyId: string): string | undefined {
    return this.keys.get(accessKeyId)?.principal;
  }

  /** Whether the account knows policies for a principal (a role of the stack). */
  hasPrincipal(principal: string): boolean {
    return this.policies.identity.has(principal);
  }

  /** Decides a request and records it when denied. */
  readonly authorize = (request: AuthorizationRequest): AuthorizationDecision => {
    const now = this.now();
    const evaluation = this.evaluate(request, now);
    const { decision } = evaluation;
    if (this.options.onDecision) {
      const sessionName = this.sessions.get(request.principal);
      this.options.onDecision({ request, time: now, decision, ...(sessionName ? { sessionName } : {}) });
    }
    if (!decision.allowed) {
      const denial: Denial = {
        time: now.toISOString(),
        principal: request.principal,
        action: request.action,
        resource: request.resource,
        outcome: decision.outcome as Denial['outcome'],
        ...(decision.statement ? { statement: decision.statement } : {}),
        hint: this.hintFor(request, evaluation),
        expected: false,
      };
      this.recorded.push({ ...denial, expected: this.isExpected(denial) });
    }
    return decision;
  };

  /**
   * Decides a request without recording it, with what explains the decision; `at` replays a
   * request at the time it was first asked (default: the account's clock).
   */
  explain(request: AuthorizationRequest, at?: Date): Evaluation & { hint?: string } {
    const evaluation = this.evaluate(request, at ?? this.now());
    return evaluation.decision.allowed
      ? evaluation
      : { ...evaluation, hint: this.hintFor(request, evaluation) };
  }

  /** Every denial so far, in order. */
  get denials(): readonly Denial[] {
    return this.recorded;
  }

  /** The denials nobody declared expected. */
  get unexpectedDenials(): readonly Denial[] {
    return this.recorded.filter((d) => !d.expected);
  }

  /** Declares denials expected: those recorded so far and those to come that match. */
  expectDenials(matcher: DenialMatcher): void {
    this.expectations.push(matcher);
    for (let i = 0; i < this.recorded.length; i++) {
      if (!this.recorded[i].expected && this.isExpected(this.recorded[i]))
        this.recorded[i] = { ...this.recorded[i], expected: true };
    }
  }

  private isExpected(denial: Denial): boolean {
    return this.expectations.some((m) =>
      typeof m === 'function'
        ? m(denial)
        : matches(m.principal, denial.principal) &&
          matches(m.action, denial.action) &&
          matches(m.resource, denial.resource),
    );
  }

  private now(): Date {
    const t = this.options.clock();
    return typeof t === 'number' ? new Date(t) : t;
  }

  private evaluate(request: AuthorizationRequest, now: Date): Evaluation {
    if (this.options.reference) this.options.reference.action(request.action);
    const key = this.cacheKey(request, now);
    const cached = this.cache.get(key);
    if (cached) return cached;
    const session = this.sessions.get(request.principal);
    const context = withGlobalKeys(
      { arn: request.principal, ...(session ? { sessionName: session } : {}) },
      { account: this.options.account, region: this.options.region, now },
      request.context,
    );
    const evaluation = evaluatePolicies(
      {
        principal: request.principal,
        action: request.action,
        resource: request.resource,
        context: normalizeContext(context),
      },
      {
        identity: isServicePrincipal(request.principal)
          ? []
          : (this.policies.identity.get(request.principal) ?? []),
        resource: this.resourcePoliciesOf(request.resource),
      },
    );
    if (this.options.cacheDecisions === false) return evaluation;
    if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
    this.cache.set(key, evaluation);
    return evaluation;
  }

  private resourcePoliciesOf(resource: string): readonly PolicyDocument[] {
    const exact = this.policies.resource.get(resource);
    if (exact) return exact;
    // A qualified Lambda ARN (function:name:alias) is governed by the function's policy.
    const fn = /^(arn:[^:]+:lambda:[^:]+:\d{12}:function:[^:]+):.+$/.exec(resource);
    return (fn && this.policies.resource.get(fn[1])) || [];
  }

  private cacheKey(request: AuthorizationRequest, now: Date): string {
    const context = Object.keys(request.context)
      .sort()
      .map((k) => `${k}=${serialize(request.context[k])}`)
      .join('\u0001');
    const time = this.timeDependent ? String(Math.floor(now.getTime() / 1000)) : '';
    return `${request.principal}\u0000${request.action.toLowerCase()}\u0000${request.resource}\u0000${context}\u0000${time}`;
  }

  private hintFor(request: AuthorizationRequest, evaluation: Evaluation): string {
    if (!isServicePrincipal(request.principal) && !this.policies.identity.has(request.principal)) {
      return `${request.principal} is not a role of the stack (it has no policies)`;
    }
    return denialHint(
      evaluation,
      request.action,
      request.resource,
      this.policies.unknownManaged?.get(request.principal),
    );
  }
}

const serialize = (value: ContextValue): string =>
  typeof value === 'string' ? value : `[${value.join('\u0002')}]`;
