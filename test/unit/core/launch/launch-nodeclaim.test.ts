import { describe, expect, it } from 'vitest';
import { type CreateFleetRequest, planLaunch } from '../../../../functions/core/launch/fleet-request.js';
import {
  InstanceProfileNotReadyError,
  launchNodeClaim,
} from '../../../../functions/core/launch/launch-nodeclaim.js';
import { MAX_FLEET_OVERRIDES, nextAttemptOptions } from '../../../../functions/core/launch/launch-options.js';
import type { ResolvedInstanceType } from '../../../../functions/core/model/instance-type.js';
import type { NodeClaim, NodeClaimOption } from '../../../../functions/core/nodeclaim/nodeclaim.js';
import type {
  CloudProvider,
  FleetError,
  LaunchInput,
  LaunchOutcome,
} from '../../../../functions/core/ports/cloud-provider.js';
import { schedule } from '../../../../functions/core/scheduling/schedule.js';
import { nodePool } from '../../../builders/config.js';
import { pod } from '../../../builders/workloads.js';
import { MemoryStore } from '../provisioning/fakes.js';
import { input, instanceType, pool } from '../scheduling/fixtures.js';
import { claim as claimOf, facts, multusNodeClass, option, resolved } from './fixtures.js';

const ZONES = ['us-west-2a', 'us-west-2b'];
const SUBNET: Record<string, string> = { 'us-west-2a': 'subnet-pa', 'us-west-2b': 'subnet-pb' };

/** The options the scheduler plans for one 3-CPU pod on these types. */
function plannedOptions(
  types: ResolvedInstanceType[],
  maxInstanceTypeOptions?: number,
): readonly NodeClaimOption[] {
  const plan = schedule(
    input({
      pods: [pod({ requests: { cpu: '3' } })],
      pools: [pool(nodePool(), types)],
      maxInstanceTypeOptions,
    }),
  );
  expect(plan.nodeClaims).toHaveLength(1);
  return plan.nodeClaims[0].instanceTypeOptions;
}

/** c5 and m5 in both zones; spot of c5 is cheapest in us-west-2b. */
function twoTypes(): ResolvedInstanceType[] {
  const c5 = instanceType('c5.xlarge', 4, 8, 0.17, { zones: ZONES });
  const m5 = instanceType('m5.xlarge', 4, 16, 0.192, { zones: ZONES });
  const cheaperInB = {
    ...c5,
    offerings: c5.offerings.map((o) =>
      o.capacityType === 'spot' && o.zone === 'us-west-2b' ? { ...o, price: 0.05 } : o,
    ),
  };
  return [cheaperInB, m5];
}

const offeringId = (o: { instanceType: string; zone: string; capacityType: string }) =>
  `${o.instanceType}|${o.zone}|${o.capacityType}`;

/**
 * A cloud that plans each attempt's CreateFleet request like the EC2 provider, answers
 * InsufficientInstanceCapacity for the overrides in `ice`, and launches the cheapest other one —
 * or, with `cheapestOnly`, tries only the cheapest override of each request.
 */
class ScriptedCloud implements CloudProvider {
  readonly requests: CreateFleetRequest[] = [];
  readonly attempts: LaunchInput[] = [];
  constructor(
    readonly ice: ReadonlySet<string>,
    readonly cheapestOnly = false,
  ) {}

  async launch(launch: LaunchInput): Promise<LaunchOutcome> {
    this.attempts.push(launch);
    const { request } = planLaunch({ ...launch, family: 'AL2023', resolved: resolved() });
    this.requests.push(request);
    const errors: FleetError[] = [];
    const open: NodeClaimOption[] = [];
    const overrides = overridesOf(request);
    for (const o of this.cheapestOnly ? overrides.slice(0, 1) : overrides) {
      const match = launch.options.find(
        (x) => x.instanceType === o.InstanceType && x.zone === o.AvailabilityZone,
      )!;
      if (this.ice.has(offeringId(match)))
        errors.push({ code: 'InsufficientInstanceCapacity', message: 'no capacity', ...match });
      else open.push(match);
    }
    const best = open.sort((a, b) => a.price - b.price)[0];
    if (!best) return { ok: false, errors };
    const instance = {
      instanceId: `i-${this.attempts.length}`,
      instanceType: best.instanceType,
      zone: best.zone,
      capacityType: best.capacityType,
      providerId: `aws:///${best.zone}/i-${this.attempts.length}`,
    };
    return { ok: true, instance, errors };
  }
  async terminate() {}
  async get() {
    return undefined;
  }
  async findByNodeClaim() {
    return undefined;
  }
  async list() {
    return [];
  }
}

function overridesOf(request: CreateFleetRequest) {
  return request.LaunchTemplateConfigs.flatMap((c) => c.Overrides);
}

async function launch(options: readonly NodeClaimOption[], ice: Iterable<string> = [], cheapestOnly = false) {
  const store = new MemoryStore();
  const claim: NodeClaim = claimOf([...options]);
  await store.createNodeClaim(claim);
  const cloud = new ScriptedCloud(new Set(ice), cheapestOnly);
  const result = await launchNodeClaim(
    { cloud, store, clock: { now: () => 0 } },
    { nodePool: nodePool({ name: 'multus' }), nodeClass: multusNodeClass(), instanceFacts: facts },
    (await store.getNodeClaim(claim.id))!,
  );
  return { result, cloud, store };
}

describe('launching a planned nodeclaim', () => {
  it('after InsufficientInstanceCapacity in the cheapest spot zone, tries the same type in the other zone', async () => {
    const options = plannedOptions(twoTypes());
    expect(options[0]).toMatchObject({ instanceType: 'c5.xlarge', zone: 'us-west-2b', capacityType: 'spot' });
    const { result, cloud, store } = await launch(options, ['c5.xlarge|us-west-2b|spot'], true);
    expect(overridesOf(cloud.requests[0])[0]).toMatchObject({
      InstanceType: 'c5.xlarge',
      AvailabilityZone: 'us-west-2b',
    });
    expect(result.outcome).toBe('launched');
    expect(cloud.attempts).toHaveLength(2);
    const second = overridesOf(cloud.requests[1]).map((o) => `${o.InstanceType}|${o.AvailabilityZone}`);
    expect(second).toContain('c5.xlarge|us-west-2a');
    expect(second).not.toContain('c5.xlarge|us-west-2b');
    expect(cloud.requests[1].TargetCapacitySpecification.DefaultTargetCapacityType).toBe('spot');
    if (result.outcome !== 'launched') return;
    expect(result.claim.instance).toMatchObject({
      instanceType: 'c5.xlarge',
      zone: 'us-west-2a',
      capacityType: 'spot',
    });
    expect(store.offerings.map(offeringId)).toEqual(['c5.xlarge|us-west-2b|spot']);
  });

  it('falls back to on-demand when every spot option is unavailable', async () => {
    const options = plannedOptions(twoTypes());
    const spot = options.filter((o) => o.capacityType === 'spot');
    expect(spot).toHaveLength(4);
    const { result, cloud } = await launch(options, spot.map(offeringId));
    expect(cloud.attempts.map((a) => a.capacityType)).toEqual(['spot', 'on-demand']);
    expect(cloud.requests[1]).toMatchObject({
      TargetCapacitySpecification: { DefaultTargetCapacityType: 'on-demand' },
      OnDemandOptions: { AllocationStrategy: 'lowest-price' },
    });
    expect(overridesOf(cloud.requests[1])).toHaveLength(4);
    expect(result.outcome).toBe('launched');
    if (result.outcome === 'launched')
      expect(result.claim.instance).toMatchObject({ instanceType: 'c5.xlarge', capacityType: 'on-demand' });
  });

  it('fails the claim only when spot and on-demand are both exhausted', async () => {
    const options = plannedOptions(twoTypes());
    const { result, cloud } = await launch(options, options.map(offeringId));
    expect(result.outcome).toBe('failed');
    expect(cloud.attempts.map((a) => a.capacityType)).toEqual(['spot', 'on-demand']);
  });

  const many = Array.from({ length: 45 }, (_, i) =>
    instanceType(`m${i + 10}.xlarge`, 4 + i, 64, 0.2 + i / 100, { zones: ZONES }),
  );

  it.each([
    [undefined, 60],
    [200, 180],
  ])('sends at most 60 overrides per CreateFleet, each with its zone subnet (cap %s)', async (cap, count) => {
    const options = plannedOptions(many, cap);
    expect(options).toHaveLength(count);
    const spot = options.filter((o) => o.capacityType === 'spot');
    const { result, cloud } = await launch(options, spot.map(offeringId));
    expect(result.outcome).toBe('launched');
    expect(cloud.requests.length).toBeGreaterThanOrEqual(2);
    for (const request of cloud.requests) {
      const overrides = overridesOf(request);
      expect(overrides.length).toBeGreaterThan(0);
      expect(overrides.length).toBeLessThanOrEqual(MAX_FLEET_OVERRIDES);
      for (const o of overrides) expect(o.SubnetId).toBe(SUBNET[o.AvailabilityZone]);
      expect(new Set(overrides.map((o) => o.AvailabilityZone))).toEqual(new Set(ZONES));
    }
    if (result.outcome === 'launched') expect(result.claim.instance?.capacityType).toBe('on-demand');
  });
});

describe('attempt options of a claim that prefers on-demand', () => {
  it('tries on-demand first and spot after it', () => {
    const opts = [
      option('c5.large', 'us-west-2a', 'on-demand', 0.085),
      option('c5.large', 'us-west-2a', 'spot', 0.03),
    ];
    expect(nextAttemptOptions(opts, [])).toEqual({ capacityType: 'on-demand', options: [opts[0]] });
    expect(nextAttemptOptions(opts, [opts[0]])).toEqual({ capacityType: 'spot', options: [opts[1]] });
  });
});

describe('a launch EC2 refuses for an instance profile it does not know yet', () => {
  const propagation: FleetError = {
    code: 'InvalidParameterValue',
    message:
      'Value (prod_0a1b) for parameter iamInstanceProfile.name is invalid. Invalid IAM Instance Profile name',
  };

  it('leaves the claim Pending without a recorded attempt to replay, and throws for a retry', async () => {
    const store = new MemoryStore();
    const claim = claimOf([option('c5.large', 'us-west-2a', 'spot', 0.03)]);
    await store.createNodeClaim(claim);
    let calls = 0;
    const cloud: CloudProvider = {
      launch: async () => {
        calls++;
        return { ok: false, errors: [propagation] };
      },
      terminate: async () => {},
      get: async () => undefined,
      findByNodeClaim: async () => undefined,
      list: async () => [],
    };
    const config = {
      nodePool: nodePool({ name: 'multus' }),
      nodeClass: multusNodeClass(),
      instanceFacts: facts,
    };
    await expect(
      launchNodeClaim(
        { cloud, store, clock: { now: () => 0 } },
        config,
        (await store.getNodeClaim(claim.id))!,
      ),
    ).rejects.toBeInstanceOf(InstanceProfileNotReadyError);
    expect(calls).toBe(1);
    const after = (await store.getNodeClaim(claim.id))!;
    expect(after.state).toBe('Pending');
    expect(after.lastAttempt).toBeUndefined();
    expect(after.launchAttempts).toBe(1);
    // The next run makes a new attempt (a new ClientToken), which launches once the profile is visible.
    cloud.launch = async (input) => ({
      ok: true,
      errors: [],
      instance: {
        instanceId: 'i-1',
        instanceType: input.options[0].instanceType,
        zone: input.options[0].zone,
        capacityType: input.options[0].capacityType,
        providerId: `aws:///${input.options[0].zone}/i-1`,
      },
    });
    const result = await launchNodeClaim({ cloud, store, clock: { now: () => 0 } }, config, after);
    expect(result.outcome).toBe('launched');
    expect((await store.getNodeClaim(claim.id))!.launchAttempts).toBe(2);
  });
});

describe('launch writes are fenced by the provisioning lease token', () => {
  it('a run whose lease a newer run took cannot write (or launch) a claim that run has written', async () => {
    const store = new MemoryStore();
    const options = plannedOptions(twoTypes());
    await store.createNodeClaim({ ...claimOf([...options]), leaseToken: 1 });
    const id = claimOf([...options]).id;
    const base = {
      nodePool: nodePool({ name: 'multus' }),
      nodeClass: multusNodeClass(),
      instanceFacts: facts,
    };
    // The run under lease 2 records its attempt, then its CreateFleet throws (the claim stays Pending).
    const throwing = new ScriptedCloud(new Set());
    throwing.launch = async () => {
      throw new Error('throttled');
    };
    await expect(
      launchNodeClaim(
        { cloud: throwing, store, clock: { now: () => 0 } },
        { ...base, leaseToken: 2 },
        (await store.getNodeClaim(id))!,
      ),
    ).rejects.toThrow('throttled');
    expect((await store.getNodeClaim(id))!.leaseToken).toBe(2);
    // The run under lease 1 (it lost the lease meanwhile) reads the claim afresh and tries to launch it.
    const cloud = new ScriptedCloud(new Set());
    const stale = await launchNodeClaim(
      { cloud, store, clock: { now: () => 0 } },
      { ...base, leaseToken: 1 },
      (await store.getNodeClaim(id))!,
    );
    expect(stale.outcome).toBe('skipped');
    expect(cloud.attempts).toEqual([]);
    expect((await store.getNodeClaim(id))!.state).toBe('Pending');
  });
});
