/**
 * The question every simulated AWS service asks the account's IAM before it acts, and the answer.
 * Services build requests (one per resource a call touches, with the condition keys the service
 * authorization reference lists for that resource type); the account's authorizer evaluates them
 * against the policies of the deployed stack.
 */

/** A condition key's value in the request context; multi-valued keys (aws:TagKeys) are arrays. */
export type ContextValue = string | readonly string[];

/** One authorization question: may `principal` perform `action` on `resource` in this context? */
export interface AuthorizationRequest {
  /**
   * Who asks: a role ARN (`arn:aws:iam::<account>:role/<name>`) for a function's call, or a
   * service principal (`events.amazonaws.com`) when a service acts on a resource policy.
   */
  readonly principal: string;
  /** `service:Action`, as IAM names it, e.g. `ec2:CreateFleet`. */
  readonly action: string;
  /** The resource's ARN, or `*` for an action without resource-level permissions. */
  readonly resource: string;
  /**
   * The condition keys the service puts in the request context for this resource, as AWS
   * spells them (`aws:RequestTag/joiner.sh/cluster`, `ec2:CreateAction`, `aws:SourceArn`).
   * Global keys (`aws:PrincipalArn`, `aws:CurrentTime`…) are added by the authorizer.
   */
  readonly context: Readonly<Record<string, ContextValue>>;
}

/** How a request was decided. */
export type AuthorizationOutcome = 'allowed' | 'explicit-deny' | 'implicit-deny';

/** The answer to an {@link AuthorizationRequest}. */
export interface AuthorizationDecision {
  readonly allowed: boolean;
  readonly outcome: AuthorizationOutcome;
  /** The policy and statement (`<policy>/<Sid>`) that allowed or explicitly denied, if any. */
  readonly statement?: string;
}

/** Decides requests; a service that gets none (undefined) allows everything. */
export type Authorize = (request: AuthorizationRequest) => AuthorizationDecision;

/**
 * What a simulated service needs of the account's IAM: who signed a request, and whether that
 * principal may do what it asks. A service started without one allows every call (unit tests of
 * the service itself); the simulated cloud always passes the account's.
 */
export interface ServiceAuthorizer {
  /**
   * The principal whose credentials signed a request, from the access key id in its SigV4
   * `Credential=`; undefined for a key the account does not know (the service then answers as
   * AWS does for an unknown key: EC2 `AuthFailure`, query services `InvalidClientTokenId`, JSON
   * services `UnrecognizedClientException`).
   */
  principalOf(accessKeyId: string): string | undefined;
  /** Decides one request; a denial is recorded by the authorizer for the run's summary. */
  readonly authorize: Authorize;
}
