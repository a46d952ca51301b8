/** Claims and offerings of the launch tests against the simulated EC2 (test catalog, Multus pool). */
import { newNodeClaim } from '../../../../functions/core/nodeclaim/create.js';
import type { NodeClaim, NodeClaimOption } from '../../../../functions/core/nodeclaim/nodeclaim.js';
import { testCatalog } from '../../simulator/ec2/test-catalog.js';

/** An option of the test catalog at its listed price; throws when the catalog has no such offering. */
export function offer(
  instanceType: string,
  zone: string,
  capacityType: 'spot' | 'on-demand',
): NodeClaimOption {
  const price = testCatalog.instanceTypes
    .find((t) => t.name === instanceType)
    ?.offerings.find((o) => o.zone === zone && o.capacityType === capacityType)?.price;
  if (price === undefined)
    throw new Error(`the test catalog has no ${instanceType} ${capacityType} offering in ${zone}`);
  return { instanceType, zone, capacityType, price };
}

/** A Pending claim of the `multus` pool (NodeClass `default`) for one pod, with these options. */
export function multusClaim(id: string, options: NodeClaimOption[], now: number): NodeClaim {
  return newNodeClaim(
    {
      id,
      nodePool: 'multus',
      nodeClass: 'default',
      nodePoolHash: 'np',
      nodeClassHash: 'nc',
      requirements: [],
      labels: { 'karpenter-node': 'true' },
      taints: [],
      startupTaints: [],
      options,
      pods: [{ namespace: 'default', name: `${id}-pod`, uid: `${id}-uid` }],
      requests: { cpu: 1000 },
    },
    now,
  );
}
