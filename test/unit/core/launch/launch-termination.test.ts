import { describe, expect, it } from 'vitest';
import {
  classifyLaunchTermination,
  NODECLASS_LAUNCH_FAILURE_REASONS,
} from '../../../../functions/core/launch/launch-termination.js';
import { volumeKeysOf, withVolumeKeys } from '../../../../functions/core/launch/volume-key-hint.js';

const reason = (code: string, message = `${code}: something`) => ({ code, message });

describe('classifyLaunchTermination', () => {
  it.each([
    ['Client.InvalidKMSKey.InvalidState', 'InvalidKMSKey', 'nodeclass', /kmsKeyID/],
    ['Client.InternalError', 'LaunchClientError', 'nodeclass', /kms:CreateGrant/],
    ['Client.VolumeLimitExceeded', 'VolumeLimitExceeded', 'nodeclass', /quota/],
    ['Client.InvalidSnapshot.NotFound', 'SnapshotNotFound', 'nodeclass', /snapshotID/],
    ['Server.InsufficientInstanceCapacity', 'InsufficientCapacity', 'offering', /another one/],
    ['Server.InternalError', 'LaunchServerError', 'offering', /another one/],
  ])('%s -> %s (%s)', (code, expectedReason, cause, hint) => {
    const t = classifyLaunchTermination('i-0a', reason(code));
    expect(t).toMatchObject({ code, reason: expectedReason, cause });
    expect(t?.message).toContain(`EC2 terminated instance i-0a during launch (${code}: something)`);
    expect(t?.message).toMatch(hint);
  });

  it('is no launch failure for a user, an OS shutdown, a spot reclaim, an unknown code or no reason', () => {
    for (const code of [
      'Client.UserInitiatedShutdown',
      'Client.InstanceInitiatedShutdown',
      'Server.SpotInstanceTermination',
      'Server.ScheduledStop',
      'Something.New',
      '',
    ])
      expect(classifyLaunchTermination('i-0a', reason(code))).toBeUndefined();
    expect(classifyLaunchTermination('i-0a', undefined)).toBeUndefined();
  });

  it("keeps EC2's message, prefixing the code when the message lacks it", () => {
    expect(
      classifyLaunchTermination('i-0a', { code: 'Client.VolumeLimitExceeded', message: '' })?.message,
    ).toContain('(Client.VolumeLimitExceeded)');
    expect(
      classifyLaunchTermination('i-0a', {
        code: 'Client.VolumeLimitExceeded',
        message: 'Volume limit exceeded',
      })?.message,
    ).toContain('(Client.VolumeLimitExceeded: Volume limit exceeded)');
  });

  it('lists the NodeClass causes the backoff looks for', () => {
    expect([...NODECLASS_LAUNCH_FAILURE_REASONS].sort()).toEqual(
      ['InvalidKMSKey', 'LaunchClientError', 'SnapshotNotFound', 'VolumeLimitExceeded'].sort(),
    );
  });
});

describe('a Client.InternalError names the EC2NodeClass’s volume keys and the setting that grants them', () => {
  const KEY = 'arn:aws:kms:us-west-2:111122223333:key/7c6b5a49-3827-4161-9f0e-d1c2b3a49586';
  const internal = classifyLaunchTermination('i-0a', {
    code: 'Client.InternalError',
    message: 'Client.InternalError: Client error on launch',
  })!;
  const doc = (mappings: unknown) => ({
    apiVersion: 'karpenter.k8s.aws/v1',
    kind: 'EC2NodeClass',
    metadata: { name: 'default' },
    spec: { blockDeviceMappings: mappings },
  });

  it('reads the kmsKeyIDs of a NodeClass document, ignoring mappings without one and bad shapes', () => {
    expect(
      volumeKeysOf(
        doc([{ ebs: { kmsKeyID: KEY } }, { ebs: { volumeSize: '20Gi' } }, null, { ebs: { kmsKeyID: KEY } }]),
      ),
    ).toEqual([KEY]);
    expect(volumeKeysOf(doc('not a list'))).toEqual([]);
    expect(volumeKeysOf({ apiVersion: 'v1', kind: 'EC2NodeClass', metadata: { name: 'x' } })).toEqual([]);
  });

  it('names the key, the NodeClass and joiner:ebsKmsKeyArns, keeping EC2’s own words', () => {
    const named = withVolumeKeys(internal, 'default', [KEY]);
    expect(named.message).toMatch(
      /^EC2 terminated instance i-0a during launch \(Client\.InternalError: Client error on launch\); /,
    );
    expect(named.message).toContain(`EC2NodeClass default encrypts its volumes with KMS key ${KEY}`);
    expect(named.message).toContain('add the key ARN to joiner:ebsKmsKeyArns in cdk.json');
    expect(named).toMatchObject({
      code: 'Client.InternalError',
      reason: 'LaunchClientError',
      cause: 'nodeclass',
    });
  });

  it('leaves other reasons, and a NodeClass without keys, as they are', () => {
    expect(withVolumeKeys(internal, 'default', [])).toBe(internal);
    const kms = classifyLaunchTermination('i-0a', {
      code: 'Client.InvalidKMSKey.InvalidState',
      message: 'x',
    })!;
    expect(withVolumeKeys(kms, 'default', [KEY])).toBe(kms);
    // Without a key of its own, the generic hint still names the setting.
    expect(internal.message).toContain('joiner:ebsKmsKeyArns');
  });
});
