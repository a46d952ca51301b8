import { describe, expect, it } from 'vitest';
import {
  NODECLASS_HASH_VERSION,
  NODEPOOL_HASH_VERSION,
  nodeClassDriftHash,
  nodePoolDriftHash,
} from '../../../../functions/core/disruption/drift-hashes.js';
import { DEFAULT_TIMEOUTS } from '../../../../functions/core/nodeclaim/state-machine.js';
import { claimFromPlan } from '../../../../functions/core/provisioning/planned-claims.js';
import { writeClaim } from '../../../../functions/core/provisioning/write-claims.js';
import type { PlannedNodeClaim, SchedulingPool } from '../../../../functions/core/scheduling/types.js';
import { nodeClass, nodePool } from '../../../builders/config.js';
import { pod } from '../../../builders/workloads.js';
import { MemoryStore } from './fakes.js';

const pools: SchedulingPool[] = [
  { pool: nodePool({ name: 'general' }), nodeClass: nodeClass(), instanceTypes: [] },
];
const pods = new Map(['a', 'b', 'c'].map((n) => [`default/${n}`, pod({ name: n })]));

function planned(podIds: string[]): PlannedNodeClaim {
  return {
    name: 'general-1',
    nodePool: 'general',
    pods: podIds,
    requirements: [],
    labels: {},
    taints: [],
    startupTaints: [],
    instanceTypeOptions: [
      { instanceType: 'c5.large', zone: 'us-west-2a', capacityType: 'spot', price: 0.03 },
    ],
    requests: { cpu: 1000 },
  };
}

describe('claims from the plan', () => {
  it('get the same id for the same pods in any order, another id for other pods or another salt', () => {
    const one = claimFromPlan(planned(['default/a', 'default/b']), pools, pods, 0, DEFAULT_TIMEOUTS);
    const same = claimFromPlan(planned(['default/b', 'default/a']), pools, pods, 5, DEFAULT_TIMEOUTS);
    const other = claimFromPlan(planned(['default/a', 'default/c']), pools, pods, 0, DEFAULT_TIMEOUTS);
    const salted = claimFromPlan(planned(['default/a', 'default/b']), pools, pods, 0, DEFAULT_TIMEOUTS, '1');
    expect(one.id).toMatch(/^general-[0-9a-f]{10}$/);
    expect(same.id).toBe(one.id);
    expect(other.id).not.toBe(one.id);
    expect(salted.id).not.toBe(one.id);
  });

  it('are Pending with the launch timeout, expiry from the pool and the pool/class hashes', () => {
    const claim = claimFromPlan(planned(['default/a']), pools, pods, 1000, DEFAULT_TIMEOUTS);
    expect(claim).toMatchObject({
      state: 'Pending',
      nodeClass: 'default',
      nodePoolHash: nodePoolDriftHash(pools[0].pool),
      nodePoolHashVersion: NODEPOOL_HASH_VERSION,
      nodeClassHash: nodeClassDriftHash(pools[0].nodeClass!),
      nodeClassHashVersion: NODECLASS_HASH_VERSION,
      pods: [{ namespace: 'default', name: 'a', uid: 'uid-a' }],
      timers: {
        launchTimeout: 1000 + DEFAULT_TIMEOUTS.launchMs,
        expiration: 1000 + pools[0].pool.expireAfterMs!,
      },
    });
  });

  it("copy the NodePool's expireAfter and terminationGracePeriod, as Karpenter copies them into its NodeClaim", () => {
    const timed: SchedulingPool[] = [
      {
        ...pools[0],
        pool: nodePool({ name: 'general', expireAfterMs: 3_600_000, terminationGracePeriodMs: 60_000 }),
      },
    ];
    const claim = claimFromPlan(planned(['default/a']), timed, pods, 0, DEFAULT_TIMEOUTS);
    expect(claim).toMatchObject({ expireAfterMs: 3_600_000, terminationGracePeriodMs: 60_000 });
    const never: SchedulingPool[] = [
      { ...pools[0], pool: nodePool({ name: 'general', expireAfterMs: null }) },
    ];
    const forever = claimFromPlan(planned(['default/a']), never, pods, 0, DEFAULT_TIMEOUTS);
    expect(forever.expireAfterMs).toBeNull();
    expect(forever).not.toHaveProperty('terminationGracePeriodMs');
    expect(forever.timers.expiration).toBeUndefined();
  });

  it("carry the NodePool template's annotations for the node (none when it has none)", () => {
    const annotated: SchedulingPool[] = [
      { ...pools[0], pool: nodePool({ name: 'general', annotations: { 'example.com/team': 'ml' } }) },
    ];
    const claim = claimFromPlan(planned(['default/a']), annotated, pods, 0, DEFAULT_TIMEOUTS);
    expect(claim.annotations).toEqual({ 'example.com/team': 'ml' });
    expect(
      claimFromPlan(planned(['default/a']), pools, pods, 0, DEFAULT_TIMEOUTS).annotations,
    ).toBeUndefined();
  });

  it('name the planned claim and the pod when a pod is not among the pending pods', () => {
    expect(() => claimFromPlan(planned(['default/zz']), pools, pods, 0, DEFAULT_TIMEOUTS)).toThrow(
      'planned nodeclaim general-1: pod default/zz is not among the pending pods',
    );
  });

  it('pods whose earlier claims all failed still get a new claim (an id of the lease), a live one is left alone', async () => {
    const store = new MemoryStore();
    const deps = { store, clock: { now: () => 0, wait: async () => {} } };
    const write = (lease: number) =>
      writeClaim(deps, planned(['default/a']), pools, pods, DEFAULT_TIMEOUTS, lease);
    const ids: string[] = [];
    for (let lease = 1; lease <= 5; lease++) {
      const written = await write(lease);
      expect(written.status).toBe('created');
      if (written.status !== 'created') return;
      ids.push(written.claim.id);
      // EC2 terminated its instance during launch: the claim is Gone.
      store.claims.set(written.claim.id, { ...written.claim, state: 'Gone' });
    }
    expect(new Set(ids).size).toBe(5);
    // A second delivery under the same lease while the claim is in flight writes nothing.
    const sixth = await write(6);
    expect(sixth.status).toBe('created');
    expect(await write(6)).toEqual({
      status: 'exists',
      id: sixth.status === 'created' ? sixth.claim.id : '',
    });
  });
});
