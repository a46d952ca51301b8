/**
 * EC2's answer to a denied authorization: `UnauthorizedOperation` (HTTP 403) whose message names
 * the principal, action and resource and ends with an encoded authorization failure message. In
 * AWS that message is opaque until `sts:DecodeAuthorizationMessage`; here it is base64url JSON of
 * the same document STS would return (allowed, explicitDeny, matchedStatements, context with the
 * principal, action, resource and condition keys), so tests and the run's summary can read it with
 * {@link decodeAuthorizationFailureMessage}.
 */
import type {
  AuthorizationDecision,
  AuthorizationRequest,
  ContextValue,
} from '../../iam/authorization/authorization-request.js';
import { Ec2Error } from '../ec2-error.js';

/** The decoded authorization failure message (the shape `sts:DecodeAuthorizationMessage` returns). */
export interface AuthorizationFailureDocument {
  readonly allowed: boolean;
  readonly explicitDeny: boolean;
  readonly matchedStatements: { readonly items: readonly { readonly statementId: string }[] };
  readonly failures: { readonly items: readonly unknown[] };
  readonly context: {
    readonly principal: { readonly arn: string };
    readonly action: string;
    readonly resource: string;
    readonly conditions: {
      readonly items: readonly {
        readonly key: string;
        readonly values: { readonly items: readonly { readonly value: string }[] };
      }[];
    };
  };
}

const PREFIX = 'Encoded authorization failure message: ';

/** The `UnauthorizedOperation` EC2 answers for a denied request. */
export function unauthorizedOperation(
  request: AuthorizationRequest,
  decision: AuthorizationDecision,
): Ec2Error {
  return new Ec2Error('UnauthorizedOperation', unauthorizedMessage(request, decision), 403);
}

/** The message of an `UnauthorizedOperation`, as EC2 words it (also used in CreateFleet's Errors). */
export function unauthorizedMessage(request: AuthorizationRequest, decision: AuthorizationDecision): string {
  const why =
    decision.outcome === 'explicit-deny'
      ? 'with an explicit deny in an identity-based policy'
      : `because no identity-based policy allows the ${request.action} action`;
  return (
    `You are not authorized to perform this operation. User: ${request.principal} is not authorized to perform: ` +
    `${request.action} on resource: ${request.resource} ${why}. ${PREFIX}${encode(request, decision)}`
  );
}

function encode(request: AuthorizationRequest, decision: AuthorizationDecision): string {
  const document: AuthorizationFailureDocument = {
    allowed: false,
    explicitDeny: decision.outcome === 'explicit-deny',
    matchedStatements: { items: decision.statement ? [{ statementId: decision.statement }] : [] },
    failures: { items: [] },
    context: {
      principal: { arn: request.principal },
      action: request.action,
      resource: request.resource,
      conditions: {
        items: Object.entries(request.context).map(([key, value]) => ({
          key,
          values: { items: values(value).map((v) => ({ value: v })) },
        })),
      },
    },
  };
  return Buffer.from(JSON.stringify(document), 'utf8').toString('base64url');
}

function values(value: ContextValue): readonly string[] {
  return typeof value === 'string' ? [value] : value;
}

/**
 * Decodes the encoded authorization failure message of an `UnauthorizedOperation` message (or the
 * encoded part alone); throws naming the input when it is not one.
 */
export function decodeAuthorizationFailureMessage(messageOrEncoded: string): AuthorizationFailureDocument {
  const at = messageOrEncoded.indexOf(PREFIX);
  const encoded = (at >= 0 ? messageOrEncoded.slice(at + PREFIX.length) : messageOrEncoded).trim();
  try {
    const document = JSON.parse(
      Buffer.from(encoded, 'base64url').toString('utf8'),
    ) as AuthorizationFailureDocument;
    if (typeof document?.context?.action !== 'string') throw new Error('no context.action');
    return document;
  } catch (error) {
    throw new Error(
      `not an encoded authorization failure message of the simulated EC2: '${encoded.slice(0, 40)}…' (${(error as Error).message})`,
    );
  }
}
