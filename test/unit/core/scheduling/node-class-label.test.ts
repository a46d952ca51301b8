/**
 * Karpenter puts `<group>/<kind>` of a node's NodeClass on every node of a NodePool
 * (`karpenter.k8s.aws/ec2nodeclass: default`), so a pod may select the NodeClass: the scheduler
 * plans such a pod only on pools of that NodeClass, and the claim's node carries the label.
 */
import { describe, expect, it } from 'vitest';
import { bundledCatalog } from '../../../../functions/core/catalog/bundled.js';
import { claimNodeLabels } from '../../../../functions/core/lifecycle/node-labels.js';
import { nodeClassLabel } from '../../../../functions/core/model/node-pool.js';
import type { NodeClaim } from '../../../../functions/core/nodeclaim/nodeclaim.js';
import { schedulingPools } from '../../../../functions/core/scheduling/prepare.js';
import { schedule } from '../../../../functions/core/scheduling/schedule.js';
import { nodeClass, nodePool } from '../../../builders/config.js';
import { pod } from '../../../builders/workloads.js';
import { pendingClaim } from '../lifecycle/fakes.js';

const LABEL = 'karpenter.k8s.aws/ec2nodeclass';

function plan(selector: Record<string, string>) {
  const pools = schedulingPools(
    [
      nodePool({ name: 'general', weight: 10 }),
      nodePool({
        name: 'batch',
        nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'batch' },
      }),
    ],
    [nodeClass(), nodeClass({ name: 'batch' })],
    bundledCatalog,
  );
  return schedule({
    pods: [pod({ name: 'web', requests: { cpu: '1' }, nodeSelector: selector })],
    nodes: [],
    inFlight: [],
    daemonSets: [],
    persistentVolumes: [],
    persistentVolumeClaims: [],
    pools,
  });
}

describe("the NodeClass label (Karpenter's karpenter.k8s.aws/ec2nodeclass)", () => {
  it('a pod selecting a NodeClass is planned on the pool of that NodeClass, and the claim carries it', () => {
    const result = plan({ [LABEL]: 'batch' });
    expect(result.nodeClaims.map((c) => c.nodePool)).toEqual(['batch']);
    expect(result.nodeClaims[0].labels[LABEL]).toBe('batch');
    const other = plan({ [LABEL]: 'default' });
    expect(other.nodeClaims.map((c) => c.nodePool)).toEqual(['general']);
    expect(other.nodeClaims[0].labels[LABEL]).toBe('default');
  });

  it('a pod selecting a NodeClass no pool uses stays pending', () => {
    const result = plan({ [LABEL]: 'gpu' });
    expect(result.nodeClaims).toEqual([]);
    expect(result.unschedulable).toHaveLength(1);
    expect(result.unschedulable[0].reason).toMatch(/ec2nodeclass/);
  });

  it("is <group>/<kind in lower case> of the pool's nodeClassRef; none for a v1alpha5 Provisioner", () => {
    expect(nodeClassLabel(nodePool())).toEqual({ [LABEL]: 'default' });
    expect(
      nodeClassLabel(nodePool({ nodeClassRef: { group: 'joiner.sh', kind: 'NodeClass', name: 'multus' } })),
    ).toEqual({ 'joiner.sh/nodeclass': 'multus' });
    const provisioner = nodePool({
      source: {
        file: 'p.yaml',
        index: 0,
        apiVersion: 'karpenter.sh/v1alpha5',
        kind: 'Provisioner',
        name: 'p',
      },
    });
    expect(nodeClassLabel(provisioner)).toEqual({});
  });

  it("a launched claim's node gets its type's labels, the claim's labels and zone / capacity type", () => {
    const claim: NodeClaim = {
      ...pendingClaim('general-1', 0),
      labels: { [LABEL]: 'default', 'karpenter.sh/nodepool': 'general' },
      state: 'Launched',
      instance: {
        instanceId: 'i-0123456789abcdef0',
        instanceType: 'm5.large',
        zone: 'us-west-2a',
        capacityType: 'spot',
        labels: { 'karpenter.k8s.aws/instance-family': 'm5', 'karpenter.k8s.aws/instance-cpu': '2' },
      },
    };
    expect(claimNodeLabels(claim)).toMatchObject({
      [LABEL]: 'default',
      'karpenter.sh/nodepool': 'default',
      'karpenter.sh/registered': 'true',
      'karpenter.sh/capacity-type': 'spot',
      'topology.kubernetes.io/zone': 'us-west-2a',
      'node.kubernetes.io/instance-type': 'm5.large',
      'karpenter.k8s.aws/instance-family': 'm5',
      'karpenter.k8s.aws/instance-cpu': '2',
    });
  });
});
