import {
  AddRoleToInstanceProfileCommand,
  CreateInstanceProfileCommand,
  DeleteConflictException,
  DeleteInstanceProfileCommand,
  EntityAlreadyExistsException,
  GetInstanceProfileCommand,
  GetRoleCommand,
  IAMClient,
  LimitExceededException,
  ListInstanceProfilesCommand,
  NoSuchEntityException,
  RemoveRoleFromInstanceProfileCommand,
  TagInstanceProfileCommand,
} from '@aws-sdk/client-iam';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SeededRandom } from '../../../../functions/simulator/clock.js';
import { FaultInjector } from '../../../../functions/simulator/faults.js';
import { type IamSimulator, startIamSimulator } from '../../../../functions/simulator/iam/iam-simulator.js';
import { ownerTagAuthorizer } from '../../../helpers/owner-tag-authorizer.js';

const ACCOUNT = '123456789012';
const OWNER = { 'joiner.sh/cluster': 'prod' };
const tags = (t: Record<string, string>) => Object.entries(t).map(([Key, Value]) => ({ Key, Value }));

let sim: IamSimulator;
let iam: IAMClient;
const faults = new FaultInjector(new SeededRandom(1));

beforeAll(async () => {
  sim = await startIamSimulator({
    accountId: ACCOUNT,
    now: () => Date.UTC(2025, 0, 1),
    roles: ['NodeRole', 'OtherRole', 'Forbidden'],
    instanceProfiles: [{ name: 'stack-profile', role: 'NodeRole' }],
    iam: ownerTagAuthorizer({
      passRoleArns: [`arn:aws:iam::${ACCOUNT}:role/NodeRole`, `arn:aws:iam::${ACCOUNT}:role/OtherRole`],
      ownerTag: { key: 'joiner.sh/cluster', value: 'prod' },
      principal: `arn:aws:iam::${ACCOUNT}:role/prod-joiner`,
    }),
    faults,
  });
  iam = new IAMClient({
    endpoint: sim.url,
    region: 'us-west-2',
    credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
    maxAttempts: 1,
  });
});

afterAll(async () => {
  iam.destroy();
  await sim.close();
});

async function error(p: Promise<unknown>): Promise<{ name: string; message: string; status?: number }> {
  try {
    await p;
  } catch (e) {
    const err = e as Error & { $metadata?: { httpStatusCode?: number } };
    return { name: err.name, message: err.message, status: err.$metadata?.httpStatusCode };
  }
  throw new Error('expected the call to fail');
}

describe('simulated IAM over the real SDK client', () => {
  it('creates, reads, tags, attaches, lists and deletes an instance profile', async () => {
    const created = await iam.send(
      new CreateInstanceProfileCommand({
        InstanceProfileName: 'prod_abc',
        Path: '/joiner/us-west-2/prod/',
        Tags: tags({ ...OWNER, team: 'a' }),
      }),
    );
    expect(created.InstanceProfile).toMatchObject({
      InstanceProfileName: 'prod_abc',
      Path: '/joiner/us-west-2/prod/',
      Arn: `arn:aws:iam::${ACCOUNT}:instance-profile/joiner/us-west-2/prod/prod_abc`,
      Roles: [],
    });
    expect(created.InstanceProfile?.CreateDate).toEqual(new Date(Date.UTC(2025, 0, 1)));

    await iam.send(
      new AddRoleToInstanceProfileCommand({ InstanceProfileName: 'prod_abc', RoleName: 'NodeRole' }),
    );
    await iam.send(
      new TagInstanceProfileCommand({ InstanceProfileName: 'prod_abc', Tags: tags({ ...OWNER, team: 'b' }) }),
    );
    const got = await iam.send(new GetInstanceProfileCommand({ InstanceProfileName: 'prod_abc' }));
    expect(got.InstanceProfile?.Roles?.map((r) => [r.RoleName, r.Arn])).toEqual([
      ['NodeRole', `arn:aws:iam::${ACCOUNT}:role/NodeRole`],
    ]);
    expect(got.InstanceProfile?.Tags).toEqual(expect.arrayContaining(tags({ ...OWNER, team: 'b' })));

    const listed = await iam.send(new ListInstanceProfilesCommand({ PathPrefix: '/joiner/us-west-2/prod/' }));
    expect(listed.InstanceProfiles?.map((p) => p.InstanceProfileName)).toEqual(['prod_abc']);
    expect(listed.IsTruncated).toBe(false);

    await iam.send(
      new RemoveRoleFromInstanceProfileCommand({ InstanceProfileName: 'prod_abc', RoleName: 'NodeRole' }),
    );
    await iam.send(new DeleteInstanceProfileCommand({ InstanceProfileName: 'prod_abc' }));
    expect(sim.state.profiles.has('prod_abc')).toBe(false);
  });

  it('answers with IAM error codes and statuses the SDK maps to its exceptions', async () => {
    await iam.send(
      new CreateInstanceProfileCommand({
        InstanceProfileName: 'prod_err',
        Path: '/joiner/',
        Tags: tags(OWNER),
      }),
    );
    const exists = await error(
      iam.send(new CreateInstanceProfileCommand({ InstanceProfileName: 'prod_err', Tags: tags(OWNER) })),
    );
    expect(exists).toMatchObject({ name: 'EntityAlreadyExistsException', status: 409 });
    expect(exists.message).toContain('prod_err already exists');

    const missing = await error(iam.send(new GetInstanceProfileCommand({ InstanceProfileName: 'nope' })));
    expect(missing).toMatchObject({ name: 'NoSuchEntityException', status: 404 });
    expect(missing.message).toContain('Instance Profile nope cannot be found');

    await iam.send(
      new AddRoleToInstanceProfileCommand({ InstanceProfileName: 'prod_err', RoleName: 'NodeRole' }),
    );
    const second = await error(
      iam.send(
        new AddRoleToInstanceProfileCommand({ InstanceProfileName: 'prod_err', RoleName: 'OtherRole' }),
      ),
    );
    expect(second).toMatchObject({ name: 'LimitExceededException', status: 409 });

    const conflict = await error(
      iam.send(new DeleteInstanceProfileCommand({ InstanceProfileName: 'prod_err' })),
    );
    expect(conflict).toMatchObject({ name: 'DeleteConflictException', status: 409 });

    const noRole = await error(
      iam.send(
        new RemoveRoleFromInstanceProfileCommand({ InstanceProfileName: 'prod_err', RoleName: 'OtherRole' }),
      ),
    );
    expect(noRole.name).toBe('NoSuchEntityException');

    const unknownRole = await error(iam.send(new GetRoleCommand({ RoleName: 'Ghost' })));
    expect(unknownRole).toMatchObject({ name: 'NoSuchEntityException', status: 404 });
    expect(unknownRole.message).toContain('role with name Ghost');

    const bad = await error(iam.send(new GetInstanceProfileCommand({ InstanceProfileName: 'has space' })));
    expect(bad).toMatchObject({ name: 'ValidationError', status: 400 });
    // The SDK's own exception classes, as code written against them sees them.
    await expect(
      iam.send(new CreateInstanceProfileCommand({ InstanceProfileName: 'prod_err', Tags: tags(OWNER) })),
    ).rejects.toBeInstanceOf(EntityAlreadyExistsException);
    await expect(
      iam.send(new GetInstanceProfileCommand({ InstanceProfileName: 'nope' })),
    ).rejects.toBeInstanceOf(NoSuchEntityException);
    await expect(
      iam.send(
        new AddRoleToInstanceProfileCommand({ InstanceProfileName: 'prod_err', RoleName: 'NodeRole' }),
      ),
    ).rejects.toBeInstanceOf(LimitExceededException);
    await expect(
      iam.send(new DeleteInstanceProfileCommand({ InstanceProfileName: 'prod_err' })),
    ).rejects.toBeInstanceOf(DeleteConflictException);
  });

  it("asks the account's IAM: PassRole on the role, writes with the owner tag as request or resource tag", async () => {
    await iam.send(
      new CreateInstanceProfileCommand({
        InstanceProfileName: 'prod_auth',
        Path: '/joiner/',
        Tags: tags(OWNER),
      }),
    );
    const pass = await error(
      iam.send(
        new AddRoleToInstanceProfileCommand({ InstanceProfileName: 'prod_auth', RoleName: 'Forbidden' }),
      ),
    );
    expect(pass).toMatchObject({ name: 'AccessDenied', status: 403 });
    expect(pass.message).toContain(`iam:PassRole on resource: arn:aws:iam::${ACCOUNT}:role/Forbidden`);

    const untagged = await error(
      iam.send(
        new CreateInstanceProfileCommand({ InstanceProfileName: 'prod_untagged', Tags: tags({ team: 'x' }) }),
      ),
    );
    expect(untagged).toMatchObject({ name: 'AccessDenied', status: 403 });
    expect(untagged.message).toContain(
      `User: arn:aws:sts::${ACCOUNT}:assumed-role/prod-joiner/joiner is not authorized to perform: iam:CreateInstanceProfile on resource: arn:aws:iam::${ACCOUNT}:instance-profile/prod_untagged`,
    );

    // The stack's own profile carries no cluster tag: joiner may read it, not change it.
    const stackProfile = await iam.send(
      new GetInstanceProfileCommand({ InstanceProfileName: 'stack-profile' }),
    );
    expect(stackProfile.InstanceProfile?.Roles?.[0]?.RoleName).toBe('NodeRole');
    const remove = await error(
      iam.send(
        new RemoveRoleFromInstanceProfileCommand({
          InstanceProfileName: 'stack-profile',
          RoleName: 'NodeRole',
        }),
      ),
    );
    expect(remove.name).toBe('AccessDenied');
    const tagWithout = await error(
      iam.send(
        new TagInstanceProfileCommand({ InstanceProfileName: 'prod_auth', Tags: tags({ team: 'y' }) }),
      ),
    );
    expect(tagWithout.name).toBe('AccessDenied');
  });

  it('pages ListInstanceProfiles with Marker and MaxItems', async () => {
    for (const n of ['p1', 'p2', 'p3']) {
      await iam.send(
        new CreateInstanceProfileCommand({
          InstanceProfileName: `page_${n}`,
          Path: '/paged/',
          Tags: tags(OWNER),
        }),
      );
    }
    const first = await iam.send(new ListInstanceProfilesCommand({ PathPrefix: '/paged/', MaxItems: 2 }));
    expect(first.InstanceProfiles?.map((p) => p.InstanceProfileName)).toEqual(['page_p1', 'page_p2']);
    expect(first.IsTruncated).toBe(true);
    const rest = await iam.send(
      new ListInstanceProfilesCommand({ PathPrefix: '/paged/', MaxItems: 2, Marker: first.Marker }),
    );
    expect(rest.InstanceProfiles?.map((p) => p.InstanceProfileName)).toEqual(['page_p3']);
    expect(rest.IsTruncated).toBe(false);
  });

  it('injects faults per action', async () => {
    faults.inject({
      service: 'iam',
      action: 'GetInstanceProfile',
      error: 'Throttling',
      httpStatus: 400,
      times: 1,
    });
    const throttled = await error(
      iam.send(new GetInstanceProfileCommand({ InstanceProfileName: 'stack-profile' })),
    );
    expect(throttled.name).toBe('Throttling');
    await expect(
      iam.send(new GetInstanceProfileCommand({ InstanceProfileName: 'stack-profile' })),
    ).resolves.toBeDefined();
  });
});
