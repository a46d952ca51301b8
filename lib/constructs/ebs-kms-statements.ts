import type { Stack } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { checkEbsKmsKeyArn } from '../ebs-kms-keys.js';

/**
 * The controller role's statements for customer-managed EBS KMS keys (`joiner:ebsKmsKeyArns`):
 * what EC2 does with the key as the principal that launches an instance whose volumes it
 * encrypts, as the EBS documentation asks of that principal, each only through EC2 in the stack's
 * region (`kms:ViaService`):
 * - `UseEbsKmsKeysForVolumes`: the grant EC2 makes for the volume, only for an AWS resource
 *   (`kms:GrantIsForAWSResource`);
 * - `EncryptVolumesWithEbsKmsKeys`: the volume's data key (`GenerateDataKeyWithoutPlaintext`,
 *   `Decrypt`), the key's description EC2 checks (`DescribeKey`), and re-encryption when the
 *   AMI's snapshot is encrypted under another key (`ReEncryptFrom` / `ReEncryptTo`).
 * None when no key is given. @throws Error naming the entry when one is not a key ARN.
 */
export function ebsKmsStatements(stack: Stack, arns: readonly string[] | undefined): PolicyStatement[] {
  const keys = [
    ...new Set(
      (arns ?? []).map((arn, i) => checkEbsKmsKeyArn(arn, `ControllerPermissions ebsKmsKeyArns[${i}]`)),
    ),
  ];
  if (keys.length === 0) return [];
  const viaEc2 = { 'kms:ViaService': `ec2.${stack.region}.amazonaws.com` };
  return [
    new PolicyStatement({
      sid: 'UseEbsKmsKeysForVolumes',
      actions: ['kms:CreateGrant'],
      resources: keys,
      conditions: { StringEquals: viaEc2, Bool: { 'kms:GrantIsForAWSResource': 'true' } },
    }),
    new PolicyStatement({
      sid: 'EncryptVolumesWithEbsKmsKeys',
      actions: [
        'kms:Decrypt',
        'kms:DescribeKey',
        'kms:GenerateDataKeyWithoutPlaintext',
        'kms:ReEncryptFrom',
        'kms:ReEncryptTo',
      ],
      resources: keys,
      conditions: { StringEquals: viaEc2 },
    }),
  ];
}
