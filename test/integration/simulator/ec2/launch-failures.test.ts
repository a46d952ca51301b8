import { CreateFleetCommand, DescribeInstancesCommand } from '@aws-sdk/client-ec2';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './ec2-harness.js';
import { createNodeTemplate, NODE_ROLE_ARN, nodeConfig, PROFILE_ARN } from './iam-fixtures.js';
import { ACCESS_KEY, ACCOUNT, RecordingAuthorizer } from './recording-authorizer.js';

const KEY_ID = '1234abcd-12ab-34cd-56ef-1234567890ab';
const KEY_ARN = `arn:aws:kms:us-west-2:${ACCOUNT}:key/${KEY_ID}`;
const INVALID_KEY = {
  Code: 'Client.InvalidKMSKey.InvalidState',
  Message: 'Client.InvalidKMSKey.InvalidState: The KMS key provided is in an incorrect state',
};

describe('instances EC2 terminates during launch', () => {
  let h: Harness;
  let iam: RecordingAuthorizer;
  const start = async (options: { kms?: string; keys?: Record<string, 'Enabled' | 'Disabled'> } = {}) => {
    iam = new RecordingAuthorizer();
    h = await startHarness({
      iam,
      accessKeyId: ACCESS_KEY,
      spotServiceLinkedRole: true,
      defaultEbsKmsKeyArn: options.kms,
      kmsKeys: options.keys,
      instanceProfileOf: (ref) =>
        ref.arn === PROFILE_ARN ? { arn: PROFILE_ARN, roleArn: NODE_ROLE_ARN } : undefined,
    });
  };
  afterEach(() => h?.close());

  const launch = async (template: string): Promise<string> => {
    const out = await h.ec2.send(
      new CreateFleetCommand({
        Type: 'instant',
        TargetCapacitySpecification: { TotalTargetCapacity: 1, DefaultTargetCapacityType: 'on-demand' },
        LaunchTemplateConfigs: nodeConfig(h, template),
      }),
    );
    expect(out.Errors ?? []).toEqual([]);
    return out.Instances![0].InstanceIds![0];
  };
  const describe1 = async (id: string) =>
    (await h.ec2.send(new DescribeInstancesCommand({ InstanceIds: [id] }))).Reservations?.[0].Instances?.[0];

  for (const state of ['Disabled', 'PendingDeletion', 'Deleted'] as const) {
    it(`a volume key that is ${state}: the launch succeeds, the instance goes pending -> terminated with Client.InvalidKMSKey.InvalidState`, async () => {
      await start();
      h.sim.setKmsKeyState(KEY_ARN, state);
      await createNodeTemplate(h, 'node', { kmsKeyId: KEY_ARN });
      const id = await launch('node');
      expect((await describe1(id))?.State?.Name).toBe('pending');
      await h.clock.advance(60_000);
      const instance = await describe1(id);
      expect(instance?.State?.Name).toBe('terminated');
      expect(instance?.StateReason).toEqual(INVALID_KEY);
      expect(instance?.StateTransitionReason).toMatch(/^Client\.InvalidKMSKey\.InvalidState: .* \(\d{4}-/);
      expect(h.running).toEqual([]);
      // No grant is asked of a key EC2 cannot use.
      expect(iam.requests.filter((r) => r.action.startsWith('kms:'))).toEqual([]);
      // Visible for about an hour, then gone.
      await h.clock.advance(50 * 60_000);
      expect((await describe1(id))?.StateReason?.Code).toBe(INVALID_KEY.Code);
      await h.clock.advance(15 * 60_000);
      expect(h.sim.state.instances.has(id)).toBe(false);
    });
  }

  it('the account default key by its id, disabled at start; enabling it lets the next launch run', async () => {
    await start({ kms: KEY_ARN, keys: { [KEY_ID]: 'Disabled' } });
    await createNodeTemplate(h, 'node');
    const failed = await launch('node');
    await h.clock.advance(60_000);
    expect((await describe1(failed))?.StateReason).toEqual(INVALID_KEY);
    h.sim.setKmsKeyState(KEY_ARN, 'Enabled');
    const ok = await launch('node');
    await h.clock.advance(60_000);
    expect((await describe1(ok))?.State?.Name).toBe('running');
  });

  it('an injected capacity failure of one offering terminates its instances with Server.InsufficientInstanceCapacity', async () => {
    await start();
    await createNodeTemplate(h, 'node');
    h.sim.failLaunches({
      code: 'Server.InsufficientInstanceCapacity',
      instanceType: 'm5.large',
      zone: 'us-west-2a',
    });
    const id = await launch('node');
    await h.clock.advance(60_000);
    expect((await describe1(id))?.StateReason).toEqual({
      Code: 'Server.InsufficientInstanceCapacity',
      Message: 'Server.InsufficientInstanceCapacity: Insufficient capacity to satisfy the launch request',
    });
    h.sim.clearLaunchFailures();
    const ok = await launch('node');
    await h.clock.advance(60_000);
    expect((await describe1(ok))?.State?.Name).toBe('running');
  });

  it('bad input is refused naming what is wrong', async () => {
    await start();
    expect(() => h.sim.setKmsKeyState(KEY_ARN, 'Broken' as never)).toThrow(/state must be one of Enabled/);
    expect(() => h.sim.failLaunches({ code: 'Client.Nope' as never })).toThrow(
      /launch failure code must be one of/,
    );
    await expect(startHarness({ kmsKeys: { [KEY_ARN]: 'Off' as never } })).rejects.toThrow(
      new RegExp(`KMS key ${KEY_ARN}: state must be one of`),
    );
  });
});
