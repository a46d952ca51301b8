import { describe, expect, it } from 'vitest';
import type { Node } from '../../functions/core/model/kube-objects.js';
import type { Ec2Instance } from '../../functions/simulator/ec2/ec2-state.js';
import { explain, runShippedScenario } from './scenario-runner.js';

const RESERVATION = 'cr-0a1b2c3d4e5f60718';

function labelsOf(nodes: readonly Node[], key: string): (string | undefined)[] {
  return nodes.map((n) => n.metadata.labels?.[key]).sort();
}

describe('capacity reservations in the simulated cloud', () => {
  it('an ODCR takes nodes first, on-demand follows when it is used up, and a larger count is used again', async () => {
    let nodes: Node[] = [];
    let instances: Ec2Instance[] = [];
    const result = await runShippedScenario('capacity-reservation-odcr', {
      inspect: async (cloud) => {
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
  }, 300_000);
});
