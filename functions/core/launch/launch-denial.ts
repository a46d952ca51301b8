/**
 * A launch AWS refused for want of a permission: which error, and — read from the error message,
 * the way AWS writes it — the action and resource that were denied, so the NodePool condition and
 * the Warning event can name the exact permission to grant instead of an opaque code.
 */

/** Failure reason of a nodeclaim whose launch was refused for want of a permission. */
export const LAUNCH_NOT_AUTHORIZED = 'LaunchNotAuthorized';

/** Failure reasons of a launch that no other offering fixes (what the NodePool condition reports). */
export const LAUNCH_FAILURE_REASONS: readonly string[] = [LAUNCH_NOT_AUTHORIZED, 'LaunchFailed'];

/** The service-linked role EC2 needs for spot, and creates on the first spot request if allowed. */
export const SPOT_SERVICE_LINKED_ROLE =
  'arn:aws:iam::*:role/aws-service-role/spot.amazonaws.com/AWSServiceRoleForEC2Spot';

/** What was denied. */
export interface LaunchDenial {
  /** The AWS error code (`UnauthorizedOperation`, `AuthFailure.ServiceLinkedRoleCreationNotPermitted`, ...). */
  readonly code: string;
  /** The denied action (`ec2:CreateFleet`), when the message names it. */
  readonly action?: string;
  /** The denied resource ARN, when the message names it. */
  readonly resource?: string;
  /** Why IAM denied it (`no identity-based policy allows ...`), when the message says. */
  readonly because?: string;
  /** One line for conditions, events and logs: the permission to grant, or the code and message. */
  readonly summary: string;
}

/** Error codes AWS services answer when the caller lacks a permission. */
export function isAuthorizationErrorCode(code: string): boolean {
  return (
    code === 'UnauthorizedOperation' ||
    code === 'Client.UnauthorizedOperation' ||
    code.startsWith('AuthFailure') ||
    code === 'AccessDenied' ||
    code === 'AccessDeniedException'
  );
}

const PERFORM =
  /not authorized to perform:?\s+([A-Za-z0-9-]+:[A-Za-z0-9*]+)(?:\s+on resource:?\s+(.+?))?(?:\s+because\s|\.\s+Encoded|\.?\s*$)/i;
const BECAUSE = /\bbecause\s+(.+?)(?:\.\s|\.$|$)/i;

/**
 * Reads a denial from an error code and message; undefined when the code is not an
 * authorization error. EC2's `UnauthorizedOperation` and IAM's / SSM's `AccessDenied` messages
 * name the action and resource ("... is not authorized to perform: ec2:CreateFleet on resource:
 * arn:...:spot-instances-request/* because no identity-based policy allows ..."); the encoded
 * part that follows needs `sts:DecodeAuthorizationMessage` and is not decoded here.
 * `AuthFailure.ServiceLinkedRoleCreationNotPermitted` means EC2 could not create the spot
 * service-linked role: the caller needs `iam:CreateServiceLinkedRole` for `spot.amazonaws.com`.
 */
export function launchDenial(code: string, message: string): LaunchDenial | undefined {
  if (!isAuthorizationErrorCode(code)) return undefined;
  if (code === 'AuthFailure.ServiceLinkedRoleCreationNotPermitted') {
    const action = 'iam:CreateServiceLinkedRole';
    return {
      code,
      action,
      resource: SPOT_SERVICE_LINKED_ROLE,
      summary: `${code}: the spot service-linked role AWSServiceRoleForEC2Spot does not exist and the controller role may not create it: grant ${action} on ${SPOT_SERVICE_LINKED_ROLE} with condition iam:AWSServiceName = spot.amazonaws.com, or create the role once (aws iam create-service-linked-role --aws-service-name spot.amazonaws.com)`,
    };
  }
  const performed = PERFORM.exec(message);
  if (!performed) {
    return {
      code,
      summary: `${code}: ${firstSentence(message)} (the message names no action; decode its encoded part with aws sts decode-authorization-message)`,
    };
  }
  const action = performed[1];
  const resource = performed[2]?.replace(/[.,;]$/, '');
  const because = BECAUSE.exec(message.slice(performed.index))?.[1];
  const what = resource ? `${action} on ${resource}` : action;
  return {
    code,
    action,
    ...(resource ? { resource } : {}),
    ...(because ? { because } : {}),
    summary: `${code}: the controller role may not ${what}${because ? ` (${because})` : ''}: grant ${what}`,
  };
}

function firstSentence(message: string): string {
  const cut = message.search(/Encoded authorization failure message/i);
  return (cut === -1 ? message : message.slice(0, cut)).trim() || 'access denied';
}
