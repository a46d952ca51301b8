import { describe, expect, it } from 'vitest';
import type { Node } from '../../functions/core/model/kube-objects.js';
import type { Ec2Instance } from '../../functions/simulator/ec2/ec2-state.js';
import { explain, runShippedScenario } from './scenario-runner.js';

const RESERVATION = 'cr-0a1b2c3d4e5f60718';

interface NodeClassStatus {
  capacityReservations?: unknown[];
  conditions?: { type: string; status: string }[];
}

function labelsOf(nodes: readonly Node[], key: string): (string | undefined)[] {
  return nodes.map((n) => n.metadata.labels?.[key]).sort();
}

describe('capacity reservations in the simulated cloud', () => {
  it('an ODCR takes nodes first, on-demand follows when it is used up, and a larger count is used again', async () => {
    let nodes: Node[] = [];
    let instances: Ec2Instance[] = [];
    let status: NodeClassStatus | undefined;
    const result = await runShippedScenario('capacity-reservation-odcr', {
      inspect: async (cloud) => {
        status = (
          cloud.kube.store.get('karpenter.k8s.aws/v1', 'EC2NodeClass', 'default') as {
            status?: NodeClassStatus;
          }
        )?.status;
        nodes = cloud.kube.store.list<Node>('v1', 'Node');
        instances = [...cloud.ec2.state.instances.values()].filter((i) => i.state === 'running');
      },
    });
    expect(result.failures, explain(result)).toEqual([]);
    expect(result.summary.iam.denied).toEqual([]);
    const reserved = nodes.filter((n) => n.metadata.labels?.['karpenter.sh/capacity-type'] === 'reserved');
    expect(labelsOf(reserved, 'karpenter.k8s.aws/capacity-reservation-id')).toEqual([
      RESERVATION,
      RESERVATION,
      RESERVATION,
    ]);
    expect(labelsOf(reserved, 'karpenter.k8s.aws/capacity-reservation-type')).toEqual([
      'default',
      'default',
      'default',
    ]);
    expect(reserved.every((n) => n.metadata.labels?.['topology.kubernetes.io/zone'] === 'us-west-2a')).toBe(
      true,
    );
    const onDemand = nodes.filter((n) => n.metadata.labels?.['karpenter.sh/capacity-type'] === 'on-demand');
    expect(labelsOf(onDemand, 'karpenter.k8s.aws/capacity-reservation-id')).toEqual([undefined]);
    // EC2's view: three instances run in the reservation, one outside it.
    expect(instances.filter((i) => i.capacityReservationId === RESERVATION)).toHaveLength(3);
    expect(instances.filter((i) => i.capacityReservationId === undefined)).toHaveLength(1);
    // The sweep's status step: the reservation as Karpenter lists it, and CapacityReservationsReady.
    expect(status?.capacityReservations).toEqual([
      {
        availabilityZone: 'us-west-2a',
        id: RESERVATION,
        instanceMatchCriteria: 'targeted',
        instanceType: 'm5.large',
        ownerID: expect.stringMatching(/^\d{12}$/),
        reservationType: 'default',
        interruptible: false,
        state: 'active',
      },
    ]);
    expect(status?.conditions?.find((c) => c.type === 'CapacityReservationsReady')?.status).toBe('True');
  }, 300_000);
});

describe('a reservation-only NodePool in the simulated cloud', () => {
  it('launches into its reservation and nowhere else; the pod beyond it waits until the reservation grows', async () => {
    let instances: Ec2Instance[] = [];
    const result = await runShippedScenario('capacity-reservation-only', {
      inspect: async (cloud) => {
        instances = [...cloud.ec2.state.instances.values()].filter((i) => i.state === 'running');
      },
    });
    expect(result.failures, explain(result)).toEqual([]);
    expect(result.summary.iam.denied).toEqual([]);
    expect(instances.map((i) => i.capacityReservationId)).toEqual([
      'cr-0f1e2d3c4b5a69788',
      'cr-0f1e2d3c4b5a69788',
      'cr-0f1e2d3c4b5a69788',
    ]);
    // While the reservation was full, the third pod's reason named it (nothing else was launched).
    expect(
      result.log.some((l) =>
        l.includes(
          'nodepool reserved: allows only capacity type reserved and its capacity reservations (cr-0f1e2d3c4b5a69788) have no instances left',
        ),
      ),
    ).toBe(true);
  }, 300_000);
});

describe('a Capacity Block ending in the simulated cloud', () => {
  it('drains the block nodes 40 minutes before the end and the pods move to on-demand, before EC2 reclaims the block', async () => {
    let instances: Ec2Instance[] = [];
    const result = await runShippedScenario('capacity-block-ending', {
      inspect: async (cloud) => {
        instances = [...cloud.ec2.state.instances.values()];
      },
    });
    expect(result.failures, explain(result)).toEqual([]);
    expect(result.summary.iam.denied).toEqual([]);
    const inBlock = instances.filter((i) => i.capacityReservationId === 'cr-0b1c2d3e4f5061728');
    expect(inBlock).toHaveLength(2);
    expect(inBlock.every((i) => i.state === 'terminated' && i.instanceLifecycle === 'capacity-block')).toBe(
      true,
    );
    // joiner drained and terminated both before EC2 began reclaiming the block (30 minutes before its end).
    expect(inBlock.map((i) => i.stateReason?.code ?? 'none')).not.toContain('Server.ScheduledStop');
    expect(result.log.some((l) => /capacity block cr-0b1c2d3e4f5061728 ends at/.test(l))).toBe(true);
  }, 400_000);
});
