/**
 * What every simulated AWS service does before it acts on a signed request: find who signed it
 * (the access key id of the SigV4 `Credential=`), ask the account's IAM about each resource the
 * call touches, and answer a refusal the way that service's protocol does. The simulator's own
 * clients (setup, EventBridge delivery, summaries) sign with {@link SIMULATOR_ACCESS_KEY_ID}: the
 * account's administrator, never given to a simulated function.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { AuthorizationRequest, ServiceAuthorizer } from './authorization-request.js';

/** The access key id of the simulator's own clients (the account administrator's). */
export const SIMULATOR_ACCESS_KEY_ID = 'joiner';

/** How a service's protocol spells an unknown key and a refusal. */
export type DenialProtocol = 'json' | 'sqs' | 'query' | 'rest-json' | 'ec2';

/** A refusal, ready for the service to send in its own envelope. */
export interface GateDenial {
  /** The error code (`AccessDeniedException`, `AccessDenied`, `UnrecognizedClientException`…). */
  readonly code: string;
  readonly message: string;
  readonly status: number;
}

const CREDENTIAL = /Credential=([^/,\s]+)\//;

/**
 * The access key id a request was signed with: the `Credential=` of its Authorization header, else
 * the `X-Amz-Credential` of a presigned URL's query or (Query-protocol services) of the form body.
 */
export function accessKeyOf(
  headers: IncomingHttpHeaders,
  url?: string,
  bodyCredential?: string,
): string | undefined {
  const authorization = headers.authorization;
  const fromHeader = typeof authorization === 'string' ? CREDENTIAL.exec(authorization)?.[1] : undefined;
  if (fromHeader) return fromHeader;
  const query = url ? new URL(url, 'http://localhost').searchParams.get('X-Amz-Credential') : undefined;
  return (query ?? bodyCredential)?.split('/')[0] || undefined;
}

/**
 * The principal behind a request's key: undefined for the simulator's own key (it may do
 * anything), a principal ARN for a key the account knows, or a denial for an unknown key or an
 * unsigned request.
 */
export function callerOf(
  authorizer: ServiceAuthorizer,
  accessKeyId: string | undefined,
  protocol: DenialProtocol,
): { readonly principal?: string; readonly denial?: GateDenial } {
  if (accessKeyId === SIMULATOR_ACCESS_KEY_ID) return {};
  const principal = accessKeyId ? authorizer.principalOf(accessKeyId) : undefined;
  if (principal) return { principal };
  return { denial: unknownKey(accessKeyId, protocol) };
}

/**
 * Authorizes a signed call: `requests` lists what the call asks, one request per resource it
 * touches (built for the caller's principal). Returns the first refusal, or undefined when the
 * call may proceed. Without an authorizer every call may.
 */
export function gateCall(
  authorizer: ServiceAuthorizer | undefined,
  accessKeyId: string | undefined,
  protocol: DenialProtocol,
  requests: (principal: string) => readonly Omit<AuthorizationRequest, 'principal'>[],
): GateDenial | undefined {
  if (!authorizer) return undefined;
  const caller = callerOf(authorizer, accessKeyId, protocol);
  if (caller.denial) return caller.denial;
  if (!caller.principal) return undefined;
  return firstDenial(authorizer, caller.principal, requests(caller.principal), protocol);
}

/** Asks each request in turn; the first one refused becomes the call's denial. */
export function firstDenial(
  authorizer: ServiceAuthorizer,
  principal: string,
  requests: readonly Omit<AuthorizationRequest, 'principal'>[],
  protocol: DenialProtocol,
): GateDenial | undefined {
  for (const request of requests) {
    const decision = authorizer.authorize({ principal, ...request });
    if (!decision.allowed)
      return accessDenied(
        principal,
        request.action,
        request.resource,
        decision.outcome === 'explicit-deny',
        protocol,
      );
  }
  return undefined;
}

/** The refusal of `action` on `resource`, worded as IAM words it, in `protocol`'s shape. */
export function accessDenied(
  principal: string,
  action: string,
  resource: string,
  explicit: boolean,
  protocol: DenialProtocol,
): GateDenial {
  const why = explicit
    ? `with an explicit deny in an identity-based policy`
    : `because no identity-based policy allows the ${action} action`;
  const message = `User: ${sessionArnOf(principal)} is not authorized to perform: ${action} on resource: ${resource} ${why}`;
  switch (protocol) {
    case 'query':
    case 'sqs':
      return { code: 'AccessDenied', message, status: 403 };
    case 'ec2':
      // EC2's own refusal carries an encoded message (see ec2/authorization/unauthorized-operation.ts).
      return {
        code: 'UnauthorizedOperation',
        message: 'You are not authorized to perform this operation.',
        status: 403,
      };
    default:
      return { code: 'AccessDeniedException', message, status: protocol === 'rest-json' ? 403 : 400 };
  }
}

function unknownKey(accessKeyId: string | undefined, protocol: DenialProtocol): GateDenial {
  // EC2 answers an unsigned request and an unknown key alike.
  if (protocol === 'ec2')
    return {
      code: 'AuthFailure',
      message: 'AWS was not able to validate the provided access credentials',
      status: 401,
    };
  if (!accessKeyId) {
    const message = 'Request is missing Authentication Token';
    return protocol === 'json' || protocol === 'rest-json'
      ? { code: 'MissingAuthenticationTokenException', message, status: 400 }
      : { code: 'MissingAuthenticationToken', message, status: 403 };
  }
  const message = 'The security token included in the request is invalid.';
  return protocol === 'json' || protocol === 'rest-json'
    ? { code: 'UnrecognizedClientException', message, status: 400 }
    : { code: 'InvalidClientTokenId', message, status: 403 };
}

/** A role ARN as the session ARN a Lambda function's calls carry (`assumed-role/<role>/<session>`). */
export function sessionArnOf(principal: string): string {
  const role = /^arn:(aws[a-z-]*):iam::(\d{12}):role\/(?:.*\/)?([^/]+)$/.exec(principal);
  return role ? `arn:${role[1]}:sts::${role[2]}:assumed-role/${role[3]}/joiner` : principal;
}
