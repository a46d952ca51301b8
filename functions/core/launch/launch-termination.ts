/**
 * Why EC2 terminated an instance joiner launched before it ever registered, read from the
 * instance's `StateReason` (DescribeInstances keeps terminated instances about an hour), and what
 * that means for the next launch:
 * - `nodeclass`: the launch configuration cannot work as it is (the EBS volumes' KMS key is
 *   disabled, pending deletion or gone; EC2 may not use the key for the caller; the account's EBS
 *   volume limit; a snapshot that does not exist). Another instance type or zone fails the same
 *   way, so the EC2NodeClass stops launching for a growing while (nodeclass-launch-backoff.ts)
 *   and reports why, until it changes.
 * - `offering`: that instance type, zone and capacity type had no capacity after all (or EC2
 *   failed internally): it is marked unavailable like an InsufficientInstanceCapacity answer, and
 *   the next launch picks another offering.
 * Any other reason (someone terminated it, a spot reclaim) is not a launch failure.
 */

/** What a launch-time termination says about the next launch. */
export type LaunchTerminationCause = 'nodeclass' | 'offering';

/** A termination during launch, classified. */
export interface LaunchTermination {
  /** EC2's state reason code (`Client.InvalidKMSKey.InvalidState`). */
  readonly code: string;
  /** The nodeclaim failure reason (a condition reason: `InvalidKMSKey`). */
  readonly reason: string;
  readonly cause: LaunchTerminationCause;
  /** One line: EC2's message and what to do about it. */
  readonly message: string;
}

interface Known {
  readonly reason: string;
  readonly cause: LaunchTerminationCause;
  readonly hint: string;
}

const KNOWN: Readonly<Record<string, Known>> = {
  'Client.InvalidKMSKey.InvalidState': {
    reason: 'InvalidKMSKey',
    cause: 'nodeclass',
    hint: "the KMS key of the EBS volumes (the EC2NodeClass's blockDeviceMappings kmsKeyID, else the account's default EBS key) is disabled, pending deletion or does not exist: enable it (aws kms enable-key, cancel-key-deletion) or change kmsKeyID",
  },
  'Client.InternalError': {
    reason: 'LaunchClientError',
    cause: 'nodeclass',
    hint: "most often EC2 may not use the EBS volumes' KMS key for the caller: list the key ARN in joiner:ebsKmsKeyArns in cdk.json and deploy, or let the key policy allow the controller role kms:CreateGrant, kms:Decrypt, kms:GenerateDataKeyWithoutPlaintext and kms:DescribeKey via ec2.<region>.amazonaws.com",
  },
  'Client.VolumeLimitExceeded': {
    reason: 'VolumeLimitExceeded',
    cause: 'nodeclass',
    hint: "the account's EBS volume or storage limit is reached: delete unused volumes, shrink blockDeviceMappings, or request a quota increase",
  },
  'Client.InvalidSnapshot.NotFound': {
    reason: 'SnapshotNotFound',
    cause: 'nodeclass',
    hint: "a snapshotID of the EC2NodeClass's blockDeviceMappings (or of its AMI) does not exist",
  },
  'Server.InsufficientInstanceCapacity': {
    reason: 'InsufficientCapacity',
    cause: 'offering',
    hint: 'the offering is marked unavailable and the next launch picks another one',
  },
  'Server.InternalError': {
    reason: 'LaunchServerError',
    cause: 'offering',
    hint: 'the offering is marked unavailable and the next launch picks another one',
  },
};

/** Failure reasons whose cause is the EC2NodeClass (what the backoff and the status look for). */
export const NODECLASS_LAUNCH_FAILURE_REASONS: readonly string[] = Object.values(KNOWN)
  .filter((k) => k.cause === 'nodeclass')
  .map((k) => k.reason);

/**
 * Classifies an instance's state reason (see the file comment); undefined when it is no launch
 * failure (or unknown). `instanceId` is named in the message.
 */
export function classifyLaunchTermination(
  instanceId: string,
  stateReason: { readonly code?: string; readonly message?: string } | undefined,
): LaunchTermination | undefined {
  const code = stateReason?.code;
  if (!code) return undefined;
  const known = KNOWN[code];
  if (!known) return undefined;
  const said = stateReason.message?.trim() || code;
  const ec2 = said.startsWith(code) ? said : `${code}: ${said}`;
  return {
    code,
    reason: known.reason,
    cause: known.cause,
    message: `EC2 terminated instance ${instanceId} during launch (${ec2}); ${known.hint}`,
  };
}
