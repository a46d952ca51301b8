import type { NodeClass } from '../functions/core/model/node-class.js';

/**
 * Customer-managed KMS keys the EBS volumes of joiner's nodes may be encrypted with (EC2NodeClass
 * `blockDeviceMappings[].ebs.kmsKeyID`, or the account's default EBS key when it is one): EC2
 * uses such a key as the principal that launches, so the controller role needs KMS permissions
 * on it. IAM evaluates KMS permissions on the key's ARN (never on an alias), so each is a key ARN:
 * `arn:aws:kms:<region>:<account>:key/<key id>`.
 */
const KEY_ARN = /^arn:aws[a-z-]*:kms:[a-z]{2}(-[a-z]+)+-\d+:\d{12}:key\/(mrk-[0-9a-f]{32}|[0-9a-f-]{36})$/;

/** Why `arn` is not a KMS key ARN joiner can grant, or undefined when it is one. */
export function ebsKmsKeyArnProblem(arn: unknown): string | undefined {
  if (typeof arn !== 'string' || arn === '') return 'must be a non-empty string';
  if (/^arn:aws[a-z-]*:kms:[^:]*:[^:]*:alias\//.test(arn) || arn.startsWith('alias/'))
    return 'is an alias: IAM grants KMS permissions on the key itself, give its key ARN (aws kms describe-key --key-id <alias> --query KeyMetadata.Arn)';
  if (!arn.startsWith('arn:'))
    return 'must be a key ARN like arn:aws:kms:us-west-2:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab, not a key id';
  if (!KEY_ARN.test(arn))
    return 'must be a KMS key ARN like arn:aws:kms:us-west-2:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab';
  return undefined;
}

/** Throws an error naming `where` when `arn` is not a key ARN (see {@link ebsKmsKeyArnProblem}). */
export function checkEbsKmsKeyArn(arn: unknown, where: string): string {
  const problem = ebsKmsKeyArnProblem(arn);
  if (problem) throw new Error(`${where}: ${JSON.stringify(arn)} ${problem}`);
  return arn as string;
}

/** The `kmsKeyID`s a NodeClass's block device mappings name. */
export function nodeClassKmsKeys(nodeClass: NodeClass): string[] {
  const keys = (nodeClass.blockDeviceMappings ?? []).flatMap((m) =>
    m.ebs?.kmsKeyID ? [m.ebs.kmsKeyID] : [],
  );
  return [...new Set(keys)];
}

/**
 * Whether `kmsKeyID` (a key ARN, a key id, or an alias) is among the granted `arns`: an ARN
 * exactly, a key id as the end of one. An alias cannot be told without asking KMS: never.
 */
export function isGrantedKey(kmsKeyID: string, arns: readonly string[]): boolean {
  if (kmsKeyID.startsWith('arn:')) return arns.includes(kmsKeyID);
  return arns.some((arn) => arn.endsWith(`:key/${kmsKeyID}`));
}
