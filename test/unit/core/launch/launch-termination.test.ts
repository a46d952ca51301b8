import { describe, expect, it } from 'vitest';
import {
  classifyLaunchTermination,
  NODECLASS_LAUNCH_FAILURE_REASONS,
} from '../../../../functions/core/launch/launch-termination.js';

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
