import { describe, expect, it } from 'vitest';
import { bundledCatalog } from '../../../../functions/core/catalog/bundled.js';
import { newNodeClaim } from '../../../../functions/core/nodeclaim/create.js';
import type { NodeClaim } from '../../../../functions/core/nodeclaim/nodeclaim.js';
import { transition } from '../../../../functions/core/nodeclaim/state-machine.js';
import { inFlightClaims, inFlightView } from '../../../../functions/core/provisioning/in-flight.js';
import { schedulingPools } from '../../../../functions/core/scheduling/prepare.js';
import { nodeClass, nodePool } from '../../../builders/config.js';
import { node, pod } from '../../../builders/workloads.js';

const pools = schedulingPools([nodePool({ name: 'general' })], [nodeClass()], bundledCatalog);

function claim(id: string, podNames: string[], cpuMillis: number): NodeClaim {
  return newNodeClaim(
    {
      id,
      nodePool: 'general',
      nodeClass: 'default',
      nodePoolHash: 'p',
      nodeClassHash: 'c',
      requirements: [],
      labels: { team: 'a' },
      taints: [],
      startupTaints: [],
      options: [
        { instanceType: 'c5.2xlarge', zone: 'us-west-2a', capacityType: 'spot', price: 0.13 },
        { instanceType: 'c5.4xlarge', zone: 'us-west-2a', capacityType: 'spot', price: 0.26 },
      ],
      pods: podNames.map((name) => ({ namespace: 'default', name, uid: `uid-${name}` })),
      requests: { cpu: cpuMillis, pods: podNames.length },
    },
    0,
  );
}

const launched = (c: NodeClaim, instanceId: string) =>
  transition(c, 'Launched', 1, {
    instance: { instanceId, instanceType: 'c5.2xlarge', zone: 'us-west-2a', capacityType: 'spot' },
  });

describe('in-flight nodeclaims', () => {
  it('are live claims without a node: a node with the instance in its providerID or the claim node name ends it', () => {
    const a = launched(claim('a', [], 0), 'i-aaa');
    const b = launched(claim('b', [], 0), 'i-bbb');
    const c = { ...launched(claim('c', [], 0), 'i-ccc'), nodeName: 'ip-10-0-0-3' };
    const gone = transition(claim('d', [], 0), 'Gone', 2);
    const nodes = [node({ name: 'ip-10-0-0-1' }), node({ name: 'ip-10-0-0-3' })];
    nodes[0].spec = { ...nodes[0].spec, providerID: 'aws:///us-west-2a/i-aaa' };
    expect(inFlightClaims([a, b, c, gone], nodes).map((x) => x.id)).toEqual(['b']);
  });

  it('keep their still-pending pods and have what their planned requests leave of the smallest option free', () => {
    const pending = [
      pod({ name: 'p1', requests: { cpu: '1' } }),
      pod({ name: 'p2', requests: { cpu: '1' } }),
    ];
    const view = inFlightView([claim('x', ['p1', 'p2', 'left'], 3000)], pending, pools);
    expect([...view.waiting].sort()).toEqual(['uid-p1', 'uid-p2']);
    const [x] = view.inFlight;
    expect(x.pods.map((p) => p.metadata.name)).toEqual(['p1', 'p2']);
    const c5 = pools[0].instanceTypes.find((t) => t.name === 'c5.2xlarge')!;
    // The pod that left still counts (1 CPU): free = allocatable - 3 CPU, plus the 2 pending pods added back.
    expect(x.allocatable.cpu).toBe(c5.allocatable.cpu - 3000 + 2000);
    expect(x.labels).toMatchObject({ team: 'a', 'karpenter.sh/nodepool': 'general' });
  });

  it('once launched, carry the launched type, zone and capacity type as labels', () => {
    const view = inFlightView([launched(claim('y', [], 0), 'i-yyy')], [], pools);
    expect(view.inFlight[0].labels).toMatchObject({
      'node.kubernetes.io/instance-type': 'c5.2xlarge',
      'topology.kubernetes.io/zone': 'us-west-2a',
      'karpenter.sh/capacity-type': 'spot',
    });
  });
});
