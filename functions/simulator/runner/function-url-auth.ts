/**
 * How Lambda authorizes a call to a function URL, before the function runs. With auth type NONE
 * the function's resource-based policy must allow everyone (`Principal: *`) both
 * `lambda:InvokeFunctionUrl` (context `lambda:FunctionUrlAuthType`) and `lambda:InvokeFunction`
 * (context `lambda:InvokedViaFunctionUrl`), as CloudFormation's AWS::Lambda::Permission pair does.
 * With AWS_IAM the request must be SigV4-signed by a principal whose identity policy, or the
 * function's resource policy, allows `lambda:InvokeFunctionUrl`. A refused call gets Lambda's
 * answer: HTTP 403 `{"Message":"Forbidden"}`; the function is not invoked.
 */
import type { IncomingMessage } from 'node:http';
import type { AuthorizationRequest, ServiceAuthorizer } from '../iam/authorization/authorization-request.js';
import { accessKeyOf, SIMULATOR_ACCESS_KEY_ID } from '../iam/authorization/service-gate.js';

/** A function URL of the deployed stack. */
export interface FunctionUrlConfig {
  readonly functionArn: string;
  readonly authType: 'NONE' | 'AWS_IAM';
}

/** A refused function URL call: the status and body Lambda answers with. */
export interface FunctionUrlDenial {
  readonly status: 403;
  readonly body: { readonly Message: 'Forbidden' };
}

/** Decides whether a request may invoke the function behind the URL (undefined: it may). */
export type FunctionUrlAuth = (req: IncomingMessage) => FunctionUrlDenial | undefined;

/** The principal of an unsigned call, as the account's IAM sees it (no identity policies). */
export const ANONYMOUS_PRINCIPAL = 'anonymous';

const FORBIDDEN: FunctionUrlDenial = { status: 403, body: { Message: 'Forbidden' } };

/**
 * The authorization of a function URL in an account: `url` undefined means the stack gives the
 * function no URL, so every call is refused (in AWS the URL would not exist).
 */
export function functionUrlAuth(
  authorizer: ServiceAuthorizer,
  url: FunctionUrlConfig | undefined,
): FunctionUrlAuth {
  return (req) => {
    if (!url) return FORBIDDEN;
    const key = accessKeyOf(req.headers, req.url);
    if (url.authType === 'AWS_IAM') {
      if (!key) return FORBIDDEN;
      if (key === SIMULATOR_ACCESS_KEY_ID) return undefined;
      const principal = authorizer.principalOf(key);
      if (!principal) return FORBIDDEN;
      const decision = authorizer.authorize({
        principal,
        action: 'lambda:InvokeFunctionUrl',
        resource: url.functionArn,
        context: { 'lambda:FunctionUrlAuthType': 'AWS_IAM' },
      });
      return decision.allowed ? undefined : FORBIDDEN;
    }
    // Auth type NONE: a signature, if any, is ignored; the resource policy must allow anyone.
    const requests: readonly Pick<AuthorizationRequest, 'action' | 'context'>[] = [
      { action: 'lambda:InvokeFunctionUrl', context: { 'lambda:FunctionUrlAuthType': 'NONE' } },
      { action: 'lambda:InvokeFunction', context: { 'lambda:InvokedViaFunctionUrl': 'true' } },
    ];
    for (const request of requests) {
      const decision = authorizer.authorize({
        principal: ANONYMOUS_PRINCIPAL,
        resource: url.functionArn,
        ...request,
      });
      if (!decision.allowed) return FORBIDDEN;
    }
    return undefined;
  };
}
