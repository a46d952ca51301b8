import { describe, expect, it } from 'vitest';
import { efaConflict, efaSlots } from '../../../../functions/core/launch/efa-interfaces.js';
import { planLaunch } from '../../../../functions/core/launch/fleet-request.js';
import type { NodeClass } from '../../../../functions/core/model/node-class.js';
import { EFA } from '../../../../functions/core/model/resources.js';
import type { NodeClaimOption } from '../../../../functions/core/nodeclaim/nodeclaim.js';
import { claim, multusNodeClass, option, resolved } from './fixtures.js';

const p4d = { name: 'p4d.24xlarge', maxEnis: 60, networkCards: 4, maxEfaInterfaces: 4 };
const c5n = { name: 'c5n.18xlarge', maxEnis: 15, networkCards: 1, maxEfaInterfaces: 1 };
const place = (networkCardIndex: number, deviceIndex: number) => ({ networkCardIndex, deviceIndex });

function facts(instanceType: string) {
  const efa: Record<string, number> = { 'p4d.24xlarge': 4, 'c5n.18xlarge': 1 };
  return {
    arch: 'amd64' as const,
    maxPods: 100,
    ...(efa[instanceType] ? { efaInterfaces: efa[instanceType] } : {}),
  };
}

function efaPlan(options: NodeClaimOption[], requests: Record<string, number>, nodeClass?: NodeClass) {
  return planLaunch({
    claim: { ...claim(options), requests },
    nodeClass: nodeClass ?? multusNodeClass(),
    family: 'AL2023',
    resolved: resolved(),
    options,
    capacityType: 'on-demand',
    clientToken: 'tok',
    instanceFacts: facts,
  });
}

describe('EFA interface places', () => {
  it('are the primary (efa) on card 0, then efa-only at device index 1 of each next card', () => {
    expect(efaSlots(3)).toEqual([
      { networkCardIndex: 0, deviceIndex: 0, interfaceType: 'efa' },
      { networkCardIndex: 1, deviceIndex: 1, interfaceType: 'efa-only' },
      { networkCardIndex: 2, deviceIndex: 1, interfaceType: 'efa-only' },
    ]);
    expect(efaSlots(0)).toEqual([]);
  });

  it('fit beside Multus interfaces on card 0, and name a Multus interface that takes an EFA place', () => {
    expect(efaConflict(p4d, [place(0, 1), place(0, 2), place(1, 2)])).toBeUndefined();
    expect(efaConflict(p4d, [place(0, 1), place(2, 1)])).toBe(
      'multusInterfaces[1] (network card 2, device index 1) takes the place of the efa-only interface p4d.24xlarge needs on network card 2',
    );
    // Not an EFA place on a one-EFA type, but that type has one network card only.
    expect(efaConflict(c5n, [place(1, 1)])).toContain(
      'is on a network card c5n.18xlarge does not have (it has 1)',
    );
    expect(efaConflict({ ...c5n, maxEfaInterfaces: undefined }, [place(1, 1)])).toBeUndefined();
  });

  it('refuse a network card that would hold more interfaces than the type takes per card', () => {
    const small = { name: 'x.large', maxEnis: 4, networkCards: 2, maxEfaInterfaces: 2 };
    expect(efaConflict(small, [place(1, 2)])).toBeUndefined();
    expect(efaConflict(small, [place(1, 2), place(1, 3)])).toBe(
      'network card 1 of x.large would hold 3 interfaces (EFA and Multus), it takes 2',
    );
  });
});

describe('launching pods that request vpc.amazonaws.com/efa', () => {
  const options = [
    option('p4d.24xlarge', 'us-west-2a', 'on-demand', 21.9),
    option('c5n.18xlarge', 'us-west-2a', 'on-demand', 3.9),
  ];

  it('gives each type its EFA interfaces, one per network card, beside the Multus interfaces', () => {
    const { templates, request } = efaPlan(options, { cpu: 1000, [EFA]: 1 });
    expect(templates).toHaveLength(2);
    expect(request.LaunchTemplateConfigs.map((c) => c.Overrides.map((o) => o.InstanceType))).toEqual([
      ['p4d.24xlarge'],
      ['c5n.18xlarge'],
    ]);
    const p4dInterfaces = templates[0].data.NetworkInterfaces.map((n) => [
      n.NetworkCardIndex,
      n.DeviceIndex,
      n.InterfaceType ?? 'interface',
      n.SubnetId,
    ]);
    expect(p4dInterfaces).toEqual([
      [0, 0, 'efa', 'subnet-pa'],
      [1, 1, 'efa-only', 'subnet-pa'],
      [2, 1, 'efa-only', 'subnet-pa'],
      [3, 1, 'efa-only', 'subnet-pa'],
      [0, 1, 'interface', 'subnet-m1a'],
      [0, 2, 'interface', 'subnet-m2a'],
    ]);
    const efaOnly = templates[0].data.NetworkInterfaces.filter((n) => n.InterfaceType === 'efa-only');
    for (const n of efaOnly) {
      expect(n.Groups).toEqual(['sg-node']);
      expect(n.AssociatePublicIpAddress).toBeUndefined();
      expect(n.Ipv6AddressCount).toBeUndefined();
    }
    expect(templates[1].data.NetworkInterfaces.map((n) => n.InterfaceType)).toEqual([
      'efa',
      undefined,
      undefined,
    ]);
  });

  it('launches no EFA interface for pods that do not request EFA, even on EFA types', () => {
    const { templates } = efaPlan(options, { cpu: 1000 });
    expect(templates).toHaveLength(1);
    expect(templates[0].data.NetworkInterfaces.some((n) => n.InterfaceType !== undefined)).toBe(false);
  });

  it('leaves out a type without EFA, and refuses loudly when no option is left', () => {
    const plain = option('m5.large', 'us-west-2a', 'on-demand', 0.1);
    const { skipped } = efaPlan([...options, plain], { cpu: 1000, [EFA]: 1 });
    expect(skipped.map((s) => s.reason)).toEqual([
      `m5.large has no EFA interfaces for this NodeClass (its pods request ${EFA})`,
    ]);
    expect(() => efaPlan([plain], { [EFA]: 1 })).toThrow(
      /no on-demand option can be launched \(m5\.large has no EFA/,
    );
  });

  it('leaves out a type whose EFA place a Multus interface takes, naming both', () => {
    const nodeClass = multusNodeClass();
    const blocking: NodeClass = {
      ...nodeClass,
      multusInterfaces: [
        nodeClass.multusInterfaces[0],
        { ...nodeClass.multusInterfaces[1], networkCardIndex: 1, deviceIndex: 1 },
      ],
    };
    const { skipped, templates } = efaPlan(options, { [EFA]: 1 }, blocking);
    expect(templates.map((t) => t.data.NetworkInterfaces[0].InterfaceType)).toEqual(['efa']);
    expect(skipped[0].reason).toBe(
      'multusInterfaces[1] (network card 1, device index 1) takes the place of the efa-only interface p4d.24xlarge needs on network card 1',
    );
  });
});
