/**
 * The identities of a simulated account: the IAM that decides every call, and the credentials
 * each simulated function signs with (its execution role's; distinct keys per function, so a
 * denial names the function's role, as CloudTrail would).
 */
import type { FunctionName } from '../../../shared/event-sources.js';
import type { ServiceAuthorizer } from './authorization-request.js';

/** Static credentials of one caller. */
export interface AccessKey {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
}

/** What the simulated cloud needs of its account's IAM. */
export interface AccountIdentity {
  /** Decides every call every simulated service serves. */
  readonly authorizer: ServiceAuthorizer;
  /** The credentials a simulated function signs with; throws for a function the stack lacks. */
  credentialsOf(name: FunctionName): AccessKey;
}
