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

/** Calls the account's IAM refused, grouped by action, resource and principal. */
export interface DeniedCall {
  readonly action: string;
  readonly resource: string;
  /** The role (or service principal) that asked. */
  readonly role: string;
  /** What would allow it: the statement to add or fix, when the authorizer can tell. */
  readonly hint?: string;
  readonly count: number;
}

/** What the simulated cloud needs of its account's IAM. */
export interface AccountIdentity {
  /** Decides every call every simulated service serves. */
  readonly authorizer: ServiceAuthorizer;
  /** The credentials a simulated function signs with; throws for a function the stack lacks. */
  credentialsOf(name: FunctionName): AccessKey;
  /** Every call refused so far. */
  denials(): readonly DeniedCall[];
  /** The execution role ARN of a function of the stack; throws for a function the stack lacks. */
  roleArnOf?(name: FunctionName): string;
  /**
   * The function URL the stack gives a function (auth type and the function's ARN, which its
   * resource policy governs); undefined when it has none.
   */
  functionUrlOf?(
    name: FunctionName,
  ): { readonly functionArn: string; readonly authType: 'NONE' | 'AWS_IAM' } | undefined;
  /** The webhook's path secret the stack creates (the webhook function's JOINER_WEBHOOK_SECRET_ARN). */
  readonly webhookSecretArn?: string;
  /** Reserved concurrency the stack sets per function (`ReservedConcurrentExecutions`); none absent. */
  readonly reservedConcurrency?: Readonly<Partial<Record<FunctionName, number>>>;
}
