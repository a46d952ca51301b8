import type {
  AuthorizationDecision,
  AuthorizationRequest,
  ServiceAuthorizer,
} from '../../../../functions/simulator/iam/authorization/authorization-request.js';

export const ACCOUNT = '111122223333';
export const ROLE = `arn:aws:iam::${ACCOUNT}:role/joiner-controller`;
export const ACCESS_KEY = 'AKIAJOINERCONTROLLER';

/**
 * An authorizer for tests: one known access key (the controller role), every request recorded,
 * denied when `deny` says so (explicitly when `explicit` is set).
 */
export class RecordingAuthorizer implements ServiceAuthorizer {
  readonly requests: AuthorizationRequest[] = [];
  deny: (request: AuthorizationRequest) => boolean = () => false;
  explicit = false;

  principalOf(accessKeyId: string): string | undefined {
    return accessKeyId === ACCESS_KEY ? ROLE : undefined;
  }

  readonly authorize = (request: AuthorizationRequest): AuthorizationDecision => {
    this.requests.push(request);
    if (!this.deny(request)) return { allowed: true, outcome: 'allowed', statement: 'test/Allow' };
    return this.explicit
      ? { allowed: false, outcome: 'explicit-deny', statement: 'test/Deny' }
      : { allowed: false, outcome: 'implicit-deny' };
  };

  /** The recorded requests of one action, from the `from`-th recorded request on. */
  of(action: string, from = 0): AuthorizationRequest[] {
    return this.requests.slice(from).filter((r) => r.action === action);
  }
}
