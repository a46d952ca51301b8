/**
 * The instance profiles joiner makes for EC2NodeClass roles, against the simulated IAM over the
 * real SDK client: creation with tags and role, idempotent repeats, a changed role, deletion,
 * garbage collection, concurrent writers, and the role checks.
 */
import { GetInstanceProfileCommand, IAMClient } from '@aws-sdk/client-iam';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { IamInstanceProfiles } from '../../../../functions/adapters/aws/iam-instance-profiles.js';
import { InstanceProfileProvider } from '../../../../functions/adapters/aws/instance-profile-provider.js';
import {
  nodeClassInstanceProfileName,
  parseRoleReference,
} from '../../../../functions/core/launch/node-role.js';
import { SeededRandom, VirtualClock } from '../../../../functions/simulator/clock.js';
import { FaultInjector } from '../../../../functions/simulator/faults.js';
import { type IamSimulator, startIamSimulator } from '../../../../functions/simulator/iam/iam-simulator.js';
import { nodeClass } from '../../../builders/config.js';
import { ownerTagAuthorizer } from '../../../helpers/owner-tag-authorizer.js';

const ACCOUNT = '123456789012';
const CLUSTER = 'prod';
const REGION = 'us-west-2';
const arn = (name: string) => `arn:aws:iam::${ACCOUNT}:role/${name}`;
const ALLOWED = [arn('prod-node'), arn('GpuNodes'), arn('team/BatchNodes')];

let sim: IamSimulator;
let client: IAMClient;
let calls: string[];
const clock = new VirtualClock();
const faults = new FaultInjector(new SeededRandom(2));

beforeAll(async () => {
  sim = await startIamSimulator({
    accountId: ACCOUNT,
    now: () => clock.now(),
    roles: ['prod-node', 'GpuNodes', 'team/BatchNodes', 'NotAllowed'],
    iam: ownerTagAuthorizer({
      passRoleArns: ALLOWED,
      ownerTag: { key: 'joiner.sh/cluster', value: CLUSTER },
      principal: `arn:aws:iam::${ACCOUNT}:role/${CLUSTER}-joiner`,
    }),
    faults,
  });
  client = new IAMClient({
    endpoint: sim.url,
    region: REGION,
    credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
    maxAttempts: 1,
  });
  // Records the action of every call that reaches IAM.
  const send = client.send.bind(client) as (...args: unknown[]) => unknown;
  client.send = ((command: object, ...rest: unknown[]) => {
    calls.push(command.constructor.name.replace(/Command$/, ''));
    return send(command, ...rest);
  }) as typeof client.send;
});

afterEach(() => {
  sim.state.profiles.clear();
  calls = [];
});

afterAll(async () => {
  client.destroy();
  await sim.close();
});

calls = [];

const providerOf = (allowed: readonly string[] | 'unchecked' = ALLOWED) =>
  new InstanceProfileProvider({
    clusterName: CLUSTER,
    region: REGION,
    defaultProfile: 'stack-node-profile',
    profiles: new IamInstanceProfiles(client),
    allowedRoles: allowed === 'unchecked' ? undefined : allowed,
    now: () => clock.now(),
  });

const gpu = nodeClass({ name: 'gpu', role: 'GpuNodes', tags: { team: 'ml' } });

describe('InstanceProfileProvider with IAM', () => {
  it('makes a tagged instance profile for a NodeClass role, under the cluster path', async () => {
    const name = await providerOf().resolve(gpu);
    expect(name).toBe(nodeClassInstanceProfileName(CLUSTER, REGION, 'gpu'));
    expect(name).toMatch(/^prod_[0-9a-f]{16}$/);
    const profile = sim.state.profiles.get(name)!;
    expect(profile.path).toBe('/joiner/us-west-2/prod/');
    expect(profile.roles.map((r) => r.name)).toEqual(['GpuNodes']);
    expect(profile.tags).toEqual({
      team: 'ml',
      'kubernetes.io/cluster/prod': 'owned',
      'joiner.sh/cluster': 'prod',
      'joiner.sh/nodeclass': 'gpu',
      'topology.kubernetes.io/region': 'us-west-2',
    });
    expect(calls).toEqual(['GetInstanceProfile', 'CreateInstanceProfile', 'AddRoleToInstanceProfile']);
  });

  it('is idempotent: a repeat in the same process calls nothing, a new process only reads', async () => {
    const provider = providerOf();
    const first = await provider.resolve(gpu);
    calls = [];
    expect(await provider.resolve(gpu)).toBe(first);
    expect(calls).toEqual([]);
    calls = [];
    expect(await providerOf().resolve(gpu)).toBe(first);
    expect(calls).toEqual(['GetInstanceProfile']);
    expect(sim.state.profiles.size).toBe(1);
  });

  it('shares one ensure between concurrent resolutions of the same NodeClass', async () => {
    const provider = providerOf();
    const names = await Promise.all([provider.resolve(gpu), provider.resolve(gpu), provider.resolve(gpu)]);
    expect(new Set(names).size).toBe(1);
    expect(calls).toEqual(['GetInstanceProfile', 'CreateInstanceProfile', 'AddRoleToInstanceProfile']);
  });

  it('replaces the role when the NodeClass names another one, and re-tags changed tags', async () => {
    await providerOf().resolve(gpu);
    calls = [];
    const changed = { ...gpu, role: 'team/BatchNodes', tags: { team: 'batch' } };
    const name = await providerOf().resolve(changed);
    const profile = sim.state.profiles.get(name)!;
    expect(profile.roles.map((r) => r.name)).toEqual(['BatchNodes']);
    expect(profile.tags.team).toBe('batch');
    expect(calls).toEqual([
      'GetInstanceProfile',
      'RemoveRoleFromInstanceProfile',
      'AddRoleToInstanceProfile',
      'TagInstanceProfile',
    ]);
  });

  it('converges when another writer created the profile or attached the role first', async () => {
    const profiles = new IamInstanceProfiles(client);
    const desired = {
      name: 'prod_race',
      path: '/joiner/us-west-2/prod/',
      roleName: 'GpuNodes',
      tags: { 'joiner.sh/cluster': CLUSTER },
    };
    // The other writer finished before us, but our read does not see it yet.
    await profiles.ensure(desired);
    faults.inject({
      service: 'iam',
      action: 'GetInstanceProfile',
      error: 'NoSuchEntity',
      message: 'Instance Profile prod_race cannot be found.',
      times: 1,
    });
    calls = [];
    const outcome = await profiles.ensure(desired);
    expect(outcome.created).toBe(false);
    expect(calls).toEqual(['GetInstanceProfile', 'CreateInstanceProfile', 'GetInstanceProfile']);
    // A stale read without the role: AddRole meets LimitExceeded, and the role is the right one.
    const stale = client.send.bind(client);
    let staleOnce = true;
    client.send = (async (command: never) => {
      const out = (await stale(command)) as { InstanceProfile?: { Roles?: unknown[] } };
      if (staleOnce && (command as object) instanceof GetInstanceProfileCommand && out.InstanceProfile) {
        staleOnce = false;
        return { ...out, InstanceProfile: { ...out.InstanceProfile, Roles: [] } };
      }
      return out;
    }) as typeof client.send;
    try {
      await expect(profiles.ensure(desired)).resolves.toMatchObject({ profile: { roleName: 'GpuNodes' } });
    } finally {
      client.send = stale as typeof client.send;
    }
    expect(sim.state.profiles.get('prod_race')?.roles.map((r) => r.name)).toEqual(['GpuNodes']);
  });

  it('uses spec.instanceProfile as given and the stack profile without role, calling IAM for neither', async () => {
    const provider = providerOf();
    expect(await provider.resolve(nodeClass({ role: undefined, instanceProfile: 'MyProfile' }))).toBe(
      'MyProfile',
    );
    expect(await provider.resolve(nodeClass({ role: undefined }))).toBe('stack-node-profile');
    expect(calls).toEqual([]);
  });

  it('refuses a role joiner may not pass, or a malformed one, before any IAM call', async () => {
    await expect(providerOf().resolve({ ...gpu, role: 'NotAllowed' })).rejects.toThrow(
      'EC2NodeClass gpu: role NotAllowed is not in the node roles joiner may pass (joiner:nodeRoleArns)',
    );
    await expect(providerOf().resolve({ ...gpu, role: 'bad role' })).rejects.toThrow(
      "EC2NodeClass gpu: role 'bad role' is not an IAM role name or ARN",
    );
    expect(calls).toEqual([]);
    expect(sim.state.profiles.size).toBe(0);
  });

  it('reports what IAM refused, naming the NodeClass and the profile', async () => {
    // Without an allow list the provider leaves the decision to IAM, which denies PassRole.
    await expect(providerOf('unchecked').resolve({ ...gpu, role: 'NotAllowed' })).rejects.toThrow(
      /EC2NodeClass gpu: making instance profile prod_[0-9a-f]+ for role NotAllowed: .*not authorized to perform: iam:PassRole/,
    );
    // An ARN of another account is not the allowed role of the same name.
    await expect(
      providerOf().resolve({ ...gpu, role: 'arn:aws:iam::210987654321:role/GpuNodes' }),
    ).rejects.toThrow('is not in the node roles joiner may pass');
  });

  it('deletes the profiles of NodeClasses that are gone, keeping live and in-use ones', async () => {
    const provider = providerOf();
    const names = {
      gpu: await provider.resolve(gpu),
      gone: await provider.resolve(nodeClass({ name: 'gone', role: 'GpuNodes' })),
      busy: await provider.resolve(nodeClass({ name: 'busy', role: 'prod-node' })),
    };
    // A profile outside joiner's path is never touched.
    sim.state.setupInstanceProfile('someone-elses', '/');
    calls = [];
    const deleted = await provider.collect(new Set(['gpu']), new Set([names.busy]));
    expect(deleted).toEqual([names.gone]);
    expect(calls).toEqual([
      'ListInstanceProfiles',
      'GetInstanceProfile',
      'RemoveRoleFromInstanceProfile',
      'DeleteInstanceProfile',
    ]);
    expect([...sim.state.profiles.keys()].sort()).toEqual([names.busy, names.gpu, 'someone-elses'].sort());
    // Again: nothing left to delete; the deleted one is made again when its NodeClass comes back.
    expect(await provider.collect(new Set(['gpu']), new Set([names.busy]))).toEqual([]);
    expect(await provider.resolve(nodeClass({ name: 'gone', role: 'GpuNodes' }))).toBe(names.gone);
    expect(sim.state.profiles.has(names.gone)).toBe(true);
  });

  it('delete is idempotent: a profile already gone is not an error', async () => {
    const profiles = new IamInstanceProfiles(client);
    await profiles.ensure({
      name: 'prod_del',
      path: '/joiner/',
      roleName: 'GpuNodes',
      tags: { 'joiner.sh/cluster': CLUSTER },
    });
    expect(await profiles.delete('prod_del')).toBe(true);
    expect(await profiles.delete('prod_del')).toBe(false);
    expect(await profiles.get('prod_del')).toBeUndefined();
  });
});

describe('role references', () => {
  it('accepts names, path/name and ARNs', () => {
    expect(parseRoleReference('GpuNodes')).toEqual({ name: 'GpuNodes' });
    expect(parseRoleReference('team/BatchNodes')).toEqual({ name: 'BatchNodes', path: '/team/' });
    expect(parseRoleReference(arn('team/BatchNodes'))).toEqual({
      name: 'BatchNodes',
      path: '/team/',
      account: ACCOUNT,
    });
  });
});
