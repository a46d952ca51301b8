/**
 * Why EC2 terminates an instance right after accepting its launch, as DescribeInstances shows it
 * (`StateReason` code and message, `StateTransitionReason`): the account's KMS keys in a state EC2
 * cannot use for the instance's EBS volumes, and failures a test or scenario injects per offering
 * (a capacity pool that runs dry between the launch and the boot, an internal error, the account's
 * EBS volume limit). CreateFleet and RunInstances still answer with the instance; it goes
 * `pending` -> `shutting-down` -> `terminated` moments later and stays visible for about an hour.
 */
import type { CapacityTypeName } from './ec2-state.js';

/** KMS key states (KMS `KeyState`), plus `Deleted` for a key that does not exist (any more). */
export const KMS_KEY_STATES = [
  'Enabled',
  'Disabled',
  'PendingDeletion',
  'PendingImport',
  'Unavailable',
  'Deleted',
] as const;

/** A KMS key's state in the simulated account. */
export type KmsKeyState = (typeof KMS_KEY_STATES)[number];

/** State reason codes EC2 gives an instance it terminates during launch (API_StateReason). */
export const LAUNCH_FAILURE_CODES = [
  'Server.InsufficientInstanceCapacity',
  'Server.InternalError',
  'Client.InternalError',
  'Client.VolumeLimitExceeded',
  'Client.InvalidSnapshot.NotFound',
  'Client.InvalidKMSKey.InvalidState',
] as const;

/** One of {@link LAUNCH_FAILURE_CODES}. */
export type LaunchFailureCode = (typeof LAUNCH_FAILURE_CODES)[number];

const MESSAGES: Record<LaunchFailureCode, string> = {
  'Server.InsufficientInstanceCapacity': 'Insufficient capacity to satisfy the launch request',
  'Server.InternalError': 'Internal error on launch',
  'Client.InternalError': 'Client error on launch',
  'Client.VolumeLimitExceeded': 'Volume limit exceeded',
  'Client.InvalidSnapshot.NotFound': 'The specified snapshot was not found',
  'Client.InvalidKMSKey.InvalidState': 'The KMS key provided is in an incorrect state',
};

/** The StateReason EC2 writes for `code` (its message starts with the code, as EC2's does). */
export function stateReasonOf(code: LaunchFailureCode): { code: string; message: string } {
  return { code, message: `${code}: ${MESSAGES[code]}` };
}

/** An injected failure: instances launched into matching offerings are terminated with `code`. */
export interface LaunchFailureRule {
  readonly code: LaunchFailureCode;
  /** Only this instance type / zone / capacity type (absent: any). */
  readonly instanceType?: string;
  readonly zone?: string;
  readonly capacityType?: CapacityTypeName;
}

/** The first rule matching a launched instance's offering. */
export function matchingFailure(
  rules: readonly LaunchFailureRule[],
  offering: { instanceType: string; zone: string; capacityType: CapacityTypeName },
): LaunchFailureRule | undefined {
  return rules.find(
    (r) =>
      (r.instanceType === undefined || r.instanceType === offering.instanceType) &&
      (r.zone === undefined || r.zone === offering.zone) &&
      (r.capacityType === undefined || r.capacityType === offering.capacityType),
  );
}

/** Checks a rule; throws naming the field when it is wrong. */
export function validateLaunchFailure(rule: LaunchFailureRule): LaunchFailureRule {
  if (!(LAUNCH_FAILURE_CODES as readonly string[]).includes(rule.code))
    throw new Error(
      `launch failure code must be one of ${LAUNCH_FAILURE_CODES.join(', ')}, got '${String(rule.code)}'`,
    );
  if (rule.capacityType !== undefined && rule.capacityType !== 'spot' && rule.capacityType !== 'on-demand')
    throw new Error(
      `launch failure capacityType must be spot or on-demand, got '${String(rule.capacityType)}'`,
    );
  return rule;
}

/** Checks a key state; throws naming the allowed ones. */
export function validateKmsKeyState(key: string, state: string): KmsKeyState {
  if (!key) throw new Error('a KMS key needs its id or ARN');
  if (!(KMS_KEY_STATES as readonly string[]).includes(state))
    throw new Error(`KMS key ${key}: state must be one of ${KMS_KEY_STATES.join(', ')}, got '${state}'`);
  return state as KmsKeyState;
}

/**
 * The state of `key` (as a block device mapping names it: key id, key ARN, alias or alias ARN)
 * among the account's keys; a key the account was not told about is taken as existing and enabled.
 */
export function kmsKeyState(keys: ReadonlyMap<string, KmsKeyState>, key: string): KmsKeyState {
  const exact = keys.get(key);
  if (exact) return exact;
  const id = keyIdOf(key);
  for (const [k, state] of keys) if (keyIdOf(k) === id) return state;
  return 'Enabled';
}

function keyIdOf(key: string): string {
  const arn = /^arn:aws[a-z-]*:kms:[a-z0-9-]+:\d{12}:(key\/.+|alias\/.+)$/.exec(key);
  const tail = arn ? arn[1] : key;
  return tail.startsWith('key/') ? tail.slice(4) : tail;
}
