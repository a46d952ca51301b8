/**
 * `topology.k8s.aws/zone-id` as Karpenter has it: every offering carries its zone's ID (read from
 * the NodeClass's subnets), so NodePool requirements, node selectors, node affinity, topology
 * spread and pod (anti-)affinity on the zone ID pick zones as the zone name does.
 */
import { describe, expect, it } from 'vitest';
import type { ResolvedInstanceType } from '../../../../functions/core/model/instance-type.js';
import type { Affinity } from '../../../../functions/core/model/kube-objects.js';
import { schedule } from '../../../../functions/core/scheduling/schedule.js';
import type { SchedulePlan } from '../../../../functions/core/scheduling/types.js';
import { ZONE_ID } from '../../../../functions/core/scheduling/zone-ids.js';
import { nodePool } from '../../../builders/config.js';
import { pod, pods } from '../../../builders/workloads.js';
import { existing, input, pool, smallCatalog } from './fixtures.js';

const ZONE = 'topology.kubernetes.io/zone';
/** The account's mapping: names and IDs deliberately out of order, as AWS maps them per account. */
const IDS: Record<string, string> = { 'zone-a': 'usw2-az2', 'zone-b': 'usw2-az3', 'zone-c': 'usw2-az1' };
const web = { app: 'web' };

/** The small catalog with each offering carrying its zone's ID. */
function withZoneIds(types: ResolvedInstanceType[] = smallCatalog()): ResolvedInstanceType[] {
  return types.map((t) => ({ ...t, offerings: t.offerings.map((o) => ({ ...o, zoneId: IDS[o.zone] })) }));
}

function zonesOf(plan: SchedulePlan): string[] {
  return plan.nodeClaims.map((c) => [...new Set(c.instanceTypeOptions.map((o) => o.zone))].join(',')).sort();
}

describe('requirements on topology.k8s.aws/zone-id', () => {
  it('a NodePool requirement keeps only the offerings of that zone ID, and the options carry it', () => {
    const p = nodePool({ requirements: [{ key: ZONE_ID, operator: 'In', values: ['usw2-az1'] }] });
    const plan = schedule(
      input({ pods: [pod({ name: 'a', requests: { cpu: '1' } })], pools: [pool(p, withZoneIds())] }),
    );
    expect(plan.unschedulable).toEqual([]);
    const options = plan.nodeClaims[0].instanceTypeOptions;
    expect(new Set(options.map((o) => o.zone))).toEqual(new Set(['zone-c']));
    expect(new Set(options.map((o) => o.zoneId))).toEqual(new Set(['usw2-az1']));
  });

  it('NotIn on the NodePool leaves the other zones', () => {
    const p = nodePool({
      requirements: [{ key: ZONE_ID, operator: 'NotIn', values: ['usw2-az1', 'usw2-az2'] }],
    });
    const plan = schedule(
      input({ pods: [pod({ name: 'a', requests: { cpu: '1' } })], pools: [pool(p, withZoneIds())] }),
    );
    expect(zonesOf(plan)).toEqual(['zone-b']);
  });

  it('a NodePool label on the zone ID places its nodes there', () => {
    const p = nodePool({ labels: { [ZONE_ID]: 'usw2-az3' } });
    const plan = schedule(
      input({ pods: [pod({ name: 'a', requests: { cpu: '1' } })], pools: [pool(p, withZoneIds())] }),
    );
    expect(zonesOf(plan)).toEqual(['zone-b']);
  });

  it("a pod's nodeSelector and node affinity on the zone ID pick the zone", () => {
    const selected = pod({ name: 'sel', requests: { cpu: '1' }, nodeSelector: { [ZONE_ID]: 'usw2-az2' } });
    const affine = pod({
      name: 'aff',
      requests: { cpu: '1' },
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              { matchExpressions: [{ key: ZONE_ID, operator: 'In', values: ['usw2-az1'] }] },
            ],
          },
        },
      },
    });
    const plan = schedule(input({ pods: [selected, affine], pools: [pool(nodePool(), withZoneIds())] }));
    expect(plan.unschedulable).toEqual([]);
    const zoneOfPod = (name: string) =>
      plan.nodeClaims.find((c) => c.pods.includes(`default/${name}`))?.instanceTypeOptions.map((o) => o.zone);
    expect(new Set(zoneOfPod('sel'))).toEqual(new Set(['zone-a']));
    expect(new Set(zoneOfPod('aff'))).toEqual(new Set(['zone-c']));
  });

  it('a zone and a zone ID that are different zones leave the pod pending', () => {
    const p = pod({
      name: 'a',
      requests: { cpu: '1' },
      nodeSelector: { [ZONE_ID]: 'usw2-az1', [ZONE]: 'zone-a' },
    });
    const plan = schedule(input({ pods: [p], pools: [pool(nodePool(), withZoneIds())] }));
    expect(plan.nodeClaims).toEqual([]);
    expect(plan.unschedulable).toHaveLength(1);
  });

  it('a zone ID no subnet has selects nothing, and the reason names it', () => {
    const p = pod({ name: 'a', requests: { cpu: '1' }, nodeSelector: { [ZONE_ID]: 'usw2-az9' } });
    const plan = schedule(input({ pods: [p], pools: [pool(nodePool(), withZoneIds())] }));
    expect(plan.nodeClaims).toEqual([]);
    expect(plan.unschedulable[0].reason).toContain('usw2-az9');
  });

  it('a NodePool requiring zone IDs its NodeClass did not give (no subnets known) launches nothing, saying why', () => {
    const p = nodePool({ requirements: [{ key: ZONE_ID, operator: 'In', values: ['usw2-az1'] }] });
    const plan = schedule(input({ pods: [pod({ name: 'a', requests: { cpu: '1' } })], pools: [pool(p)] }));
    expect(plan.nodeClaims).toEqual([]);
    expect(plan.unschedulable[0].reason).toMatch(/zone IDs of NodeClass .* are not known/);
  });
});

describe('topology.k8s.aws/zone-id as a topology key', () => {
  const spread = {
    maxSkew: 1,
    topologyKey: ZONE_ID,
    whenUnsatisfiable: 'DoNotSchedule' as const,
    labelSelector: { matchLabels: web },
  };

  it('spreads replicas over the zone IDs', () => {
    const replicas = pods(6, 'web', {
      labels: web,
      requests: { cpu: '1' },
      topologySpreadConstraints: [spread],
    });
    const plan = schedule(input({ pods: replicas, pools: [pool(nodePool(), withZoneIds())] }));
    expect(plan.unschedulable).toEqual([]);
    const perZone = new Map<string, number>();
    for (const c of plan.nodeClaims) {
      const zones = new Set(c.instanceTypeOptions.map((o) => o.zoneId));
      expect(zones.size).toBe(1);
      const [id] = zones;
      perZone.set(id ?? '?', (perZone.get(id ?? '?') ?? 0) + c.pods.length);
    }
    expect([...perZone.keys()].sort()).toEqual(['usw2-az1', 'usw2-az2', 'usw2-az3']);
    expect([...perZone.values()]).toEqual([2, 2, 2]);
  });

  it('counts the pods already on labelled nodes: the new replicas go to the other zone IDs', () => {
    const running = pods(2, 'old', { labels: web, requests: { cpu: '1' } });
    const node = existing('n1', {
      labels: { [ZONE]: 'zone-a', [ZONE_ID]: 'usw2-az2' },
      allocatable: { cpu: 2000, memory: 8 * 2 ** 30, pods: 110 },
      pods: running,
    });
    const replicas = pods(2, 'web', {
      labels: web,
      requests: { cpu: '1' },
      topologySpreadConstraints: [spread],
    });
    const plan = schedule(input({ pods: replicas, nodes: [node], pools: [pool(nodePool(), withZoneIds())] }));
    expect(plan.unschedulable).toEqual([]);
    const ids = plan.nodeClaims.flatMap((c) => [...new Set(c.instanceTypeOptions.map((o) => o.zoneId))]);
    expect(ids).not.toContain('usw2-az2');
  });

  it('required anti-affinity on the zone ID puts one replica per zone ID and leaves the fourth pending', () => {
    const anti: Affinity = {
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          { topologyKey: ZONE_ID, labelSelector: { matchLabels: web } },
        ],
      },
    };
    const replicas = pods(4, 'web', { labels: web, requests: { cpu: '100m' }, affinity: anti });
    const plan = schedule(input({ pods: replicas, pools: [pool(nodePool(), withZoneIds())] }));
    expect(zonesOf(plan)).toEqual(['zone-a', 'zone-b', 'zone-c']);
    expect(plan.unschedulable).toHaveLength(1);
  });

  it('without zone IDs (no subnets known) a new node has no zone ID: the pod stays pending, saying why', () => {
    const anti: Affinity = {
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          { topologyKey: ZONE_ID, labelSelector: { matchLabels: web } },
        ],
      },
    };
    const plan = schedule(
      input({
        pods: [pod({ labels: web, requests: { cpu: '1' }, affinity: anti })],
        pools: [pool(nodePool())],
      }),
    );
    expect(plan.nodeClaims).toEqual([]);
    expect(plan.unschedulable[0].reason).toMatch(/zone IDs are not known/);
  });

  it('existing nodes labelled with zone IDs serve a zone-ID selector without any pool (the kube-scheduler case)', () => {
    const node = existing('n1', { labels: { [ZONE]: 'zone-a', [ZONE_ID]: 'usw2-az2' } });
    const other = existing('n2', { labels: { [ZONE]: 'zone-b', [ZONE_ID]: 'usw2-az3' } });
    const p = pod({ name: 'a', requests: { cpu: '1' }, nodeSelector: { [ZONE_ID]: 'usw2-az3' } });
    const plan = schedule(input({ pods: [p], nodes: [node, other] }));
    expect(plan.existingPlacements).toEqual([{ node: 'n2', pods: ['default/a'] }]);
  });
});
