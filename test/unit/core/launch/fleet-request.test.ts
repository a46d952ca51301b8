import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyFleetErrors } from '../../../../functions/core/launch/fleet-errors.js';
import { planLaunch } from '../../../../functions/core/launch/fleet-request.js';
import {
  clientToken,
  MAX_FLEET_OVERRIDES,
  nextAttemptOptions,
} from '../../../../functions/core/launch/launch-options.js';
import { claim, facts, multusNodeClass, option, resolved } from './fixtures.js';

const SIZES = ['large', 'xlarge', '2xlarge', '4xlarge'];
const FAMILIES = ['c5', 'c6i', 'm5', 'm6i', 'r5', 'r6i', 'c7i', 'm7i', 'c6g', 'm6g'];
const MANY = FAMILIES.flatMap((f) => SIZES.map((s) => `${f}.${s}`)).flatMap((t, i) =>
  ['us-west-2a', 'us-west-2b'].map((z) => option(t, z, 'spot', 0.01 * (i + 1))),
);

function plan(options = MANY, capacityType: 'spot' | 'on-demand' = 'spot', token = 'tok') {
  return planLaunch({
    claim: claim(options),
    nodeClass: multusNodeClass(),
    family: 'AL2023',
    resolved: resolved(),
    options,
    capacityType,
    clientToken: token,
    instanceFacts: facts,
  });
}

describe('CreateFleet request', () => {
  it('is instant, target 1, spot price-capacity-optimized, tagged with the nodeclaim', () => {
    const { request } = plan(MANY.slice(0, 4));
    expect(request).toMatchObject({
      ClientToken: 'tok',
      Type: 'instant',
      TargetCapacitySpecification: { TotalTargetCapacity: 1, DefaultTargetCapacityType: 'spot' },
      SpotOptions: { AllocationStrategy: 'price-capacity-optimized' },
    });
    expect(request.OnDemandOptions).toBeUndefined();
    for (const spec of request.TagSpecifications) {
      expect(spec.Tags).toContainEqual({ Key: 'joiner.sh/nodeclaim', Value: 'multus-abc123' });
    }
  });

  it('tags the fleet, the instance and its volumes in the request, as Karpenter does (no CreateTags on volumes later)', () => {
    for (const capacityType of ['spot', 'on-demand'] as const) {
      const options = MANY.slice(0, 2).map((o) => ({ ...o, capacityType }));
      const { request } = plan(options, capacityType);
      expect(request.TagSpecifications.map((s) => s.ResourceType)).toEqual(['fleet', 'instance', 'volume']);
      for (const spec of request.TagSpecifications)
        expect(spec.Tags).toContainEqual({ Key: 'joiner.sh/cluster', Value: 'eks-telco' });
    }
  });

  it("tags the instance and fleet with the launching joiner's identity (the orphan GC keys on it)", () => {
    const options = MANY.slice(0, 2);
    const { request } = planLaunch({
      claim: claim(options),
      nodeClass: multusNodeClass(),
      family: 'AL2023',
      resolved: resolved(),
      options,
      capacityType: 'spot',
      clientToken: 'tok',
      instanceFacts: facts,
      owner: 'joiner-state-table-a',
    });
    for (const spec of request.TagSpecifications)
      expect(spec.Tags).toContainEqual({ Key: 'joiner.sh/owner', Value: 'joiner-state-table-a' });
  });

  it('uses lowest-price for on-demand', () => {
    const od = MANY.slice(0, 4).map((o) => ({ ...o, capacityType: 'on-demand' as const }));
    const { request } = plan(od, 'on-demand');
    expect(request.OnDemandOptions).toEqual({ AllocationStrategy: 'lowest-price' });
    expect(request.SpotOptions).toBeUndefined();
  });

  it("asks EC2 for joiner's order (prioritized, Priority = rank) when a NodeOverlay priced an option", () => {
    const od = MANY.slice(0, 4).map((o, i) => ({
      ...o,
      capacityType: 'on-demand' as const,
      ...(i === 0 ? { priceOverlaid: true } : {}),
    }));
    const { request } = plan(od, 'on-demand');
    expect(request.OnDemandOptions).toEqual({ AllocationStrategy: 'prioritized' });
    const overrides = request.LaunchTemplateConfigs.flatMap((c) => c.Overrides);
    const priority = Object.fromEntries(
      overrides.map((o) => [`${o.InstanceType}@${o.AvailabilityZone}`, o.Priority]),
    );
    expect(priority).toEqual(Object.fromEntries(od.map((o, i) => [`${o.instanceType}@${o.zone}`, i])));
    const spot = plan([{ ...MANY[0], priceOverlaid: true }, MANY[1]]).request;
    expect(spot.SpotOptions).toEqual({ AllocationStrategy: 'capacity-optimized-prioritized' });
    expect(plan(MANY.slice(0, 2)).request.LaunchTemplateConfigs[0].Overrides[0].Priority).toBeUndefined();
  });

  it('keeps at most 60 overrides, the best ranked, each in a template of its zone', () => {
    expect(MANY.length).toBeGreaterThan(MAX_FLEET_OVERRIDES);
    const { request, templates, skipped } = plan();
    const overrides = request.LaunchTemplateConfigs.flatMap((c) => c.Overrides);
    expect(overrides).toHaveLength(60);
    expect(skipped).toHaveLength(MANY.length - 60);
    expect(overrides.map((o) => `${o.InstanceType}|${o.AvailabilityZone}`).sort()).toEqual(
      MANY.slice(0, 60)
        .map((o) => `${o.instanceType}|${o.zone}`)
        .sort(),
    );
    for (const config of request.LaunchTemplateConfigs) {
      const t = templates.find((x) => x.name === config.LaunchTemplateSpecification.LaunchTemplateName)!;
      for (const o of config.Overrides) {
        expect(o.AvailabilityZone).toBe(t.zone);
        expect(o.SubnetId).toBe(t.subnetId);
        expect(facts(o.InstanceType)).toEqual({ arch: t.arch, maxPods: t.maxPods });
      }
    }
  });

  it('never exceeds 60 overrides nor uses an option twice, for any option list', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.constantFrom(...MANY), { minLength: 1, maxLength: MANY.length }),
        (options) => {
          const overrides = plan(options).request.LaunchTemplateConfigs.flatMap((c) => c.Overrides);
          expect(overrides.length).toBe(Math.min(60, options.length));
          expect(new Set(overrides.map((o) => `${o.InstanceType}|${o.AvailabilityZone}`)).size).toBe(
            overrides.length,
          );
        },
      ),
      { numRuns: 50 },
    );
  });
});

describe('client token', () => {
  it('is stable per claim and attempt, distinct across attempts, at most 64 characters', () => {
    expect(clientToken('joiner-a', 1)).toBe(clientToken('joiner-a', 1));
    expect(clientToken('joiner-a', 1)).not.toBe(clientToken('joiner-a', 2));
    const long = `joiner-${'x'.repeat(80)}`;
    expect(clientToken(long, 3).length).toBeLessThanOrEqual(64);
    expect(clientToken(long, 3)).not.toBe(clientToken(`${long}y`, 3));
  });
});

describe('attempt options', () => {
  const opts = [
    option('c5.large', 'us-west-2a', 'spot', 0.03),
    option('c5.large', 'us-west-2a', 'on-demand', 0.085),
    option('m5.large', 'us-west-2b', 'spot', 0.04),
  ];

  it('prefers spot, skips unavailable offerings, falls back to on-demand', () => {
    expect(nextAttemptOptions(opts, [])).toEqual({ capacityType: 'spot', options: [opts[0], opts[2]] });
    const ice = [opts[0], opts[2]].map(({ instanceType, zone, capacityType }) => ({
      instanceType,
      zone,
      capacityType,
    }));
    expect(nextAttemptOptions(opts, ice.slice(0, 1))).toEqual({ capacityType: 'spot', options: [opts[2]] });
    expect(nextAttemptOptions(opts, ice)).toEqual({ capacityType: 'on-demand', options: [opts[1]] });
    expect(nextAttemptOptions(opts.slice(0, 1), ice)).toBeUndefined();
  });
});

describe('fleet error classification', () => {
  const attempted = [
    option('c5.large', 'us-west-2a', 'spot', 0.03),
    option('c5.large', 'us-west-2b', 'spot', 0.03),
    option('m5.large', 'us-west-2a', 'spot', 0.04),
  ];
  const keys = (c: ReturnType<typeof classifyFleetErrors>) =>
    c.unavailable.map((u) => `${u.offering.instanceType}|${u.offering.zone}|${u.reason}`).sort();

  it('marks the exact offering on InsufficientInstanceCapacity and UnfulfillableCapacity', () => {
    const c = classifyFleetErrors(
      [
        {
          code: 'InsufficientInstanceCapacity',
          message: 'no',
          instanceType: 'c5.large',
          zone: 'us-west-2a',
          capacityType: 'spot',
        },
        { code: 'UnfulfillableCapacity', message: 'no', instanceType: 'm5.large', zone: 'us-west-2a' },
      ],
      attempted,
    );
    expect(keys(c)).toEqual([
      'c5.large|us-west-2a|InsufficientInstanceCapacity',
      'm5.large|us-west-2a|UnfulfillableCapacity',
    ]);
    expect(c.fatal).toEqual([]);
  });

  it('marks the whole zone on InsufficientFreeAddressesInSubnet, all spot on MaxSpotInstanceCountExceeded', () => {
    expect(
      keys(
        classifyFleetErrors(
          [
            {
              code: 'InsufficientFreeAddressesInSubnet',
              message: '',
              zone: 'us-west-2a',
              subnetId: 'subnet-pa',
            },
          ],
          attempted,
        ),
      ),
    ).toEqual([
      'c5.large|us-west-2a|InsufficientFreeAddressesInSubnet',
      'm5.large|us-west-2a|InsufficientFreeAddressesInSubnet',
    ]);
    expect(
      classifyFleetErrors([{ code: 'MaxSpotInstanceCountExceeded', message: '' }], attempted).unavailable,
    ).toHaveLength(3);
  });

  it('marks every offering of the capacity type on VcpuLimitExceeded and keeps other errors fatal', () => {
    const c = classifyFleetErrors(
      [
        { code: 'VcpuLimitExceeded', message: '', capacityType: 'spot' },
        { code: 'InvalidParameterValue', message: 'bad AMI' },
      ],
      [...attempted, option('c5.large', 'us-west-2a', 'on-demand', 0.085)],
    );
    expect(c.unavailable.every((u) => u.offering.capacityType === 'spot')).toBe(true);
    expect(c.unavailable).toHaveLength(3);
    expect(c.fatal.map((e) => e.code)).toEqual(['InvalidParameterValue']);
  });

  it('retries an instance profile EC2 does not know yet, and keeps other InvalidParameterValue fatal', () => {
    const c = classifyFleetErrors(
      [
        {
          code: 'InvalidParameterValue',
          message:
            'Value (prod_0a1b) for parameter iamInstanceProfile.name is invalid. Invalid IAM Instance Profile name',
        },
        { code: 'InvalidParameterValue', message: 'Invalid IAM Instance Profile ARN' },
      ],
      attempted,
    );
    expect(c.retryable).toHaveLength(2);
    expect(c.fatal).toEqual([]);
    expect(c.unavailable).toEqual([]);
    expect(
      classifyFleetErrors([{ code: 'InvalidParameterValue', message: 'bad AMI' }], attempted).retryable,
    ).toEqual([]);
  });
});
