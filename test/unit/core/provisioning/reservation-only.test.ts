/**
 * Reservation-only NodePools: planned onto the instances their reservations have left and nowhere
 * else; beyond that, or without a reservation they may use, their pods stay pending with a reason
 * naming the reservations. A pool that also allows on-demand falls back.
 */
import { describe, expect, it } from 'vitest';
import { bundledCatalog } from '../../../../functions/core/catalog/bundled.js';
import type { CapacityReservation } from '../../../../functions/core/model/capacity-reservation.js';
import type { Pod } from '../../../../functions/core/model/kube-objects.js';
import type { NodePool } from '../../../../functions/core/model/node-pool.js';
import { newNodeClaim } from '../../../../functions/core/nodeclaim/create.js';
import type { ClusterSnapshot } from '../../../../functions/core/provisioning/cluster-snapshot.js';
import { planRun } from '../../../../functions/core/provisioning/plan-run.js';
import { isReservationOnly } from '../../../../functions/core/provisioning/reservation-only.js';
import { nodeClass, nodePool } from '../../../builders/config.js';
import { pod } from '../../../builders/workloads.js';

const ODCR = 'cr-0123456789abcdef0';
const NOW = 1_000_000;
const TYPE = { key: 'node.kubernetes.io/instance-type', operator: 'In' as const, values: ['c5.xlarge'] };
const capacityType = (...values: string[]) => ({
  key: 'karpenter.sh/capacity-type',
  operator: 'In' as const,
  values,
});

function reservation(available: number): CapacityReservation {
  return {
    id: ODCR,
    instanceType: 'c5.xlarge',
    zone: 'us-west-2a',
    ownerId: '111122223333',
    instanceMatchCriteria: 'targeted',
    reservationType: 'default',
    availableInstanceCount: available,
  };
}

function snapshot(pendingPods: Pod[], values: string[]): ClusterSnapshot {
  return {
    pendingPods,
    nodes: [],
    boundPods: [],
    daemonSets: [],
    persistentVolumes: [],
    persistentVolumeClaims: [],
    storageClasses: [],
    nodePools: [nodePool({ name: 'reserved', requirements: [TYPE, capacityType(...values)] })],
    nodeClasses: [nodeClass({ capacityReservationSelectorTerms: [{ id: ODCR }] })],
    invalidDocuments: 0,
    unmanagedNodePools: [],
  };
}

/** Pods of 3 CPU: one per c5.xlarge. */
const pods = Array.from({ length: 3 }, (_, i) => pod({ name: `job-${i + 1}`, requests: { cpu: '3' } }));

function plan(available: number, values = ['reserved'], pending = pods) {
  return planRun(snapshot(pending, values), [], [], bundledCatalog, {
    now: NOW,
    reservations: new Map([['default', [reservation(available)]]]),
  }).plan;
}

describe('reservation-only NodePools', () => {
  it('a pool allowing only reserved is reservation-only; one that also allows on-demand or spot is not', () => {
    const pool = (requirements: NodePool['requirements']) => nodePool({ requirements });
    expect(isReservationOnly(pool([capacityType('reserved')]))).toBe(true);
    expect(
      isReservationOnly(
        pool([{ key: 'karpenter.sh/capacity-type', operator: 'NotIn', values: ['spot', 'on-demand'] }]),
      ),
    ).toBe(true);
    expect(isReservationOnly(pool([capacityType('reserved', 'on-demand')]))).toBe(false);
    expect(isReservationOnly(pool([]))).toBe(false);
  });

  it('a used-up reservation: every pod is pending with a reason naming it', () => {
    const p = plan(0);
    expect(p.nodeClaims).toEqual([]);
    expect(p.unschedulable.map((u) => u.pod).sort()).toEqual([
      'default/job-1',
      'default/job-2',
      'default/job-3',
    ]);
    for (const u of p.unschedulable)
      expect(u.reason).toContain(
        `nodepool reserved: allows only capacity type reserved and its capacity reservations (${ODCR}) have no instances left`,
      );
  });

  it('with 2 instances left: two claims launch into the reservation and nowhere else, the third pod waits with the reason', () => {
    const p = plan(2);
    expect(p.nodeClaims).toHaveLength(2);
    for (const c of p.nodeClaims) {
      expect(c.instanceTypeOptions.map((o) => [o.instanceType, o.capacityType, o.reservationId])).toEqual([
        ['c5.xlarge', 'reserved', ODCR],
      ]);
      expect(c.pods).toHaveLength(1);
    }
    expect(p.unschedulable).toHaveLength(1);
    expect(p.unschedulable[0].reason).toContain(
      `nodepool reserved: allows only capacity type reserved and its capacity reservations (${ODCR}) have no instances left`,
    );
  });

  it('counts the instances Pending claims of earlier runs will take', () => {
    const earlier = newNodeClaim(
      {
        id: 'reserved-x',
        nodePool: 'reserved',
        nodeClass: 'default',
        nodePoolHash: 'p',
        nodeClassHash: 'c',
        requirements: [],
        labels: {},
        taints: [],
        startupTaints: [],
        options: [
          {
            instanceType: 'c5.xlarge',
            zone: 'us-west-2a',
            capacityType: 'reserved',
            price: 0,
            reservationId: ODCR,
          },
        ],
        pods: [],
        requests: { cpu: 3000, pods: 1 },
      },
      NOW,
    );
    const p = planRun(snapshot(pods, ['reserved']), [earlier], [], bundledCatalog, {
      now: NOW,
      reservations: new Map([['default', [reservation(2)]]]),
    }).plan;
    // One instance is the earlier claim's; one is left for this run's claims.
    expect(p.nodeClaims).toHaveLength(1);
    expect(p.nodeClaims[0].instanceTypeOptions[0].reservationId).toBe(ODCR);
    expect(p.unschedulable.length).toBeGreaterThan(0);
    for (const u of p.unschedulable) expect(u.reason).toContain('have no instances left');
  });

  it('a reservation of a type the pool does not allow: the reason says so', () => {
    const other = { ...TYPE, values: ['m5.large'] };
    const s = snapshot(pods, ['reserved']);
    const p = planRun(
      { ...s, nodePools: [nodePool({ name: 'reserved', requirements: [other, capacityType('reserved')] })] },
      [],
      [],
      bundledCatalog,
      { now: NOW, reservations: new Map([['default', [reservation(2)]]]) },
    ).plan;
    expect(p.nodeClaims).toEqual([]);
    expect(p.unschedulable[0].reason).toContain(
      `nodepool reserved: allows only capacity type reserved and none of its capacity reservations (${ODCR}) is of an instance type and zone its requirements allow`,
    );
  });

  it('a reservation-only pool whose NodeClass selects no reservation says that', () => {
    const p = planRun(snapshot(pods, ['reserved']), [], [], bundledCatalog, { now: NOW }).plan;
    expect(p.unschedulable[0].reason).toContain(
      'nodepool reserved: allows only capacity type reserved and its NodeClass selects no active capacity reservation',
    );
  });

  it('a pool that also allows on-demand falls back to it instead', () => {
    const p = plan(1, ['reserved', 'on-demand']);
    expect(p.unschedulable).toEqual([]);
    expect(p.nodeClaims.map((c) => c.instanceTypeOptions[0].capacityType).sort()).toEqual([
      'on-demand',
      'on-demand',
      'reserved',
    ]);
  });
});
