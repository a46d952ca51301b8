import { describe, expect, it } from 'vitest';
import { bundledCatalog } from '../../../../functions/core/catalog/bundled.js';
import { resolveInstanceTypes } from '../../../../functions/core/catalog/resolve.js';
import { EFA } from '../../../../functions/core/model/resources.js';
import { newNodeClaim } from '../../../../functions/core/nodeclaim/create.js';
import { inFlightView } from '../../../../functions/core/provisioning/in-flight.js';
import { schedule } from '../../../../functions/core/scheduling/schedule.js';
import { nodeClass, nodePool } from '../../../builders/config.js';
import { pod } from '../../../builders/workloads.js';
import { input, pool } from './fixtures.js';

const types = resolveInstanceTypes(bundledCatalog, undefined);
const efaOf = (name: string) => bundledCatalog.instanceTypes.find((t) => t.name === name)?.maxEfaInterfaces;

describe('pods requesting vpc.amazonaws.com/efa', () => {
  it('are planned only on EFA-capable types, the cheapest first', () => {
    const mpi = pod({ name: 'rank', requests: { cpu: '8', memory: '16Gi', [EFA]: '1' } });
    const plan = schedule(input({ pods: [mpi], pools: [pool(nodePool(), types)] }));
    expect(plan.unschedulable).toEqual([]);
    const options = plan.nodeClaims[0].instanceTypeOptions;
    expect(options[0].price).toBe(Math.min(...options.map((o) => o.price)));
    expect(options.map((o) => o.instanceType)).toContain('c5n.9xlarge');
    for (const o of options) expect(efaOf(o.instanceType), o.instanceType).toBeGreaterThanOrEqual(1);
  });

  it('get a type with enough EFA interfaces: 4 on a p4d.24xlarge, 32 only on a p5.48xlarge', () => {
    const four = pod({ name: 'trainer', requests: { cpu: '32', 'nvidia.com/gpu': '8', [EFA]: '4' } });
    const plan = schedule(input({ pods: [four], pools: [pool(nodePool(), types)] }));
    expect(plan.nodeClaims[0].instanceTypeOptions.map((o) => o.instanceType)).toContain('p4d.24xlarge');
    expect(plan.nodeClaims[0].instanceTypeOptions[0].instanceType).toBe('p4d.24xlarge');
    const many = pod({ name: 'big', requests: { cpu: '32', [EFA]: '32' } });
    const p5 = schedule(input({ pods: [many], pools: [pool(nodePool(), types)] }));
    expect([...new Set(p5.nodeClaims[0].instanceTypeOptions.map((o) => o.instanceType))]).toEqual([
      'p5.48xlarge',
    ]);
  });

  it('of one GPU and one EFA each get the cheapest nodes that hold them, not one large multi-GPU node', () => {
    const ranks = [0, 1, 2, 3].map((i) =>
      pod({
        name: `rank-${i}`,
        requests: { cpu: '8', memory: '32Gi', 'nvidia.com/gpu': '1', [EFA]: '1' },
      }),
    );
    const onDemand = { key: 'karpenter.sh/capacity-type', operator: 'In' as const, values: ['on-demand'] };
    const plan = schedule(
      input({ pods: ranks, pools: [pool(nodePool({ requirements: [onDemand] }), types)] }),
    );
    expect(plan.unschedulable).toEqual([]);
    const cost = plan.nodeClaims.reduce((s, c) => s + c.instanceTypeOptions[0].price, 0);
    // One p4d.24xlarge (8 GPUs, 4 EFA) would hold all four; four single-GPU EFA nodes cost less.
    const p4d = types.find((t) => t.name === 'p4d.24xlarge')!;
    const p4dPrice = Math.min(
      ...p4d.offerings.filter((o) => o.capacityType === 'on-demand').map((o) => o.price),
    );
    expect(cost).toBeLessThan(p4dPrice);
    expect(plan.nodeClaims).toHaveLength(4);
    for (const c of plan.nodeClaims)
      expect(efaOf(c.instanceTypeOptions[0].instanceType)).toBeGreaterThanOrEqual(1);
  });

  it('stay unschedulable when they ask for more EFA devices than any type has', () => {
    const plan = schedule(
      input({ pods: [pod({ name: 'huge', requests: { [EFA]: '33' } })], pools: [pool(nodePool(), types)] }),
    );
    expect(plan.nodeClaims).toEqual([]);
    expect(plan.unschedulable).toHaveLength(1);
  });

  it('are not planned on types whose EFA interfaces a Multus interface of the NodeClass blocks', () => {
    const blocking = nodeClass({
      multusInterfaces: [
        {
          subnetSelectorTerms: [{ tags: { Name: 'Multus1*' } }],
          securityGroupSelectorTerms: [{ tags: { Name: 'Vpc1SecurityGroup' } }],
          deviceIndex: 1,
          networkCardIndex: 1,
          disableSourceDestCheck: false,
          ipv6AddressCount: 0,
        },
      ],
    });
    const resolved = resolveInstanceTypes(bundledCatalog, blocking);
    const p4d = resolved.find((t) => t.name === 'p4d.24xlarge');
    expect(p4d?.capacity[EFA]).toBeUndefined();
    // On a one-card type the Multus interface's network card 1 does not exist: no EFA there either.
    expect(resolved.find((t) => t.name === 'c6i.32xlarge')?.capacity[EFA]).toBeUndefined();
    const four = pod({ name: 'trainer', requests: { cpu: '32', 'nvidia.com/gpu': '8', [EFA]: '4' } });
    const plan = schedule(input({ pods: [four], pools: [{ ...pool(nodePool(), resolved) }] }));
    for (const c of plan.nodeClaims)
      expect(c.instanceTypeOptions.map((o) => o.instanceType)).not.toContain('p4d.24xlarge');
  });

  it('do not count on an in-flight claim of an EFA type whose pods requested no EFA', () => {
    const sp = pool(nodePool({ name: 'default' }), types);
    const plain = newNodeClaim(
      {
        id: 'default-1',
        nodePool: 'default',
        nodeClass: 'default',
        nodePoolHash: 'np',
        nodeClassHash: 'nc',
        requirements: [],
        labels: {},
        taints: [],
        startupTaints: [],
        options: [
          { instanceType: 'c5n.18xlarge', zone: 'us-west-2a', capacityType: 'on-demand', price: 3.888 },
        ],
        pods: [],
        requests: { cpu: 1000 },
      },
      0,
    );
    const [view] = inFlightView([plain], [], [sp]).inFlight;
    expect(view.allocatable[EFA]).toBeUndefined();
    const withEfa = { ...plain, requests: { cpu: 1000, [EFA]: 1 } };
    expect(inFlightView([withEfa], [], [sp]).inFlight[0].allocatable[EFA]).toBe(0);
  });
});
