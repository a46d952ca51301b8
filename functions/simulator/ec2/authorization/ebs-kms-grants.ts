/**
 * Encrypted volumes under a customer-managed KMS key (the account's default EBS key, or one a
 * block device mapping names). A key that is not usable (disabled, pending deletion or import,
 * unavailable, or not there at all: KMS checks it only after the launch call) terminates the
 * instance moments after launch with state reason `Client.InvalidKMSKey.InvalidState`. EC2 uses
 * a usable key as the caller at launch (`kms:DescribeKey`, `kms:CreateGrant`,
 * `kms:GenerateDataKeyWithoutPlaintext`, `kms:Decrypt`, via `ec2.<region>.amazonaws.com`). A
 * denial does not fail the launch call: the instance starts `pending` and is terminated moments
 * later with state reason `Client.InternalError` ("Client error on launch"), which is how such
 * launches look in a real account. The denial is recorded by the authorizer like any other.
 * `kms:ReEncrypt*` is only used when a source snapshot is encrypted under another key; the
 * simulated images' snapshots are unencrypted, so it is not asked.
 */
import type { Ec2Context } from '../context.js';
import type { Ec2Instance } from '../ec2-state.js';
import { terminateInstance } from '../instance-lifecycle.js';
import { kmsKeyState, stateReasonOf } from '../launch-failures.js';
import type { LaunchData } from '../launch-template-data.js';
import { type Ec2Check, firstDenial } from './ec2-caller.js';

/** The KMS calls EC2 makes as the caller for each encrypted volume's key. */
export const EBS_KMS_ACTIONS = [
  'kms:DescribeKey',
  'kms:CreateGrant',
  'kms:GenerateDataKeyWithoutPlaintext',
  'kms:Decrypt',
] as const;

/** Delay (virtual) between the launch and the termination of an instance whose volume key is unusable. */
export const KMS_FAILURE_TERMINATION_MS = 2_000;

/** The keys a launch's volumes are encrypted under (mapping's own key, else the account default). */
export function volumeKeys(ctx: Ec2Context, data: LaunchData): string[] {
  const mappings =
    data.blockDeviceMappings.length > 0 ? data.blockDeviceMappings : [{ deviceName: '/dev/xvda' }];
  const keys = mappings
    .map((m) => ('ebs' in m ? m.ebs?.kmsKeyId : undefined) ?? ctx.defaultEbsKmsKeyArn)
    .filter((key): key is string => !!key);
  return [...new Set(keys)];
}

/** Checks the launched instance's volume keys; schedules its failure when one is unusable or denied. */
export function checkVolumeKeys(ctx: Ec2Context, instance: Ec2Instance, data: LaunchData): void {
  const keys = volumeKeys(ctx, data);
  if (keys.length === 0) return;
  if (keys.some((key) => kmsKeyState(ctx.state.kmsKeys, key) !== 'Enabled')) {
    failLaunch(ctx, instance, stateReasonOf('Client.InvalidKMSKey.InvalidState'));
    return;
  }
  const checks: Ec2Check[] = keys.flatMap((key) =>
    EBS_KMS_ACTIONS.map((action) => ({
      action,
      resourceType: 'key',
      resource: key,
      context: {
        'kms:ViaService': `ec2.${ctx.region}.amazonaws.com`,
        'kms:CallerAccount': ctx.state.topology.accountId,
        ...(action === 'kms:CreateGrant' ? { 'kms:GrantIsForAWSResource': 'true' } : {}),
      },
    })),
  );
  if (!firstDenial(ctx, checks)) return;
  failLaunch(ctx, instance, stateReasonOf('Client.InternalError'));
}

/** Terminates the just-launched `instance` with `reason` moments later (it never runs). */
export function failLaunch(
  ctx: Ec2Context,
  instance: Ec2Instance,
  reason: { code: string; message: string },
): void {
  ctx.clock.setTimeout(() => terminateInstance(ctx, instance, reason), KMS_FAILURE_TERMINATION_MS);
}
