/** A NodeClass in its launch backoff: its pools place no pod, and the pods are told why. */
import { describe, expect, it } from 'vitest';
import { bundledCatalog } from '../../../../functions/core/catalog/bundled.js';
import type { Pod } from '../../../../functions/core/model/kube-objects.js';
import type { ClusterSnapshot } from '../../../../functions/core/provisioning/cluster-snapshot.js';
import { planRun } from '../../../../functions/core/provisioning/plan-run.js';
import { nodeClass, nodePool } from '../../../builders/config.js';
import { pod } from '../../../builders/workloads.js';

const NOW = 1_000_000;
const BLOCK = 'InvalidKMSKey (1 launch failure(s) in a row; launches resume at ...): EC2 terminated ...';

function snapshot(pendingPods: Pod[], fallback = false): ClusterSnapshot {
  const pools = [nodePool({ name: 'main', weight: 10 })];
  if (fallback)
    pools.push(
      nodePool({
        name: 'fallback',
        nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'other' },
      }),
    );
  return {
    pendingPods,
    nodes: [],
    boundPods: [],
    daemonSets: [],
    persistentVolumes: [],
    persistentVolumeClaims: [],
    storageClasses: [],
    nodePools: pools,
    nodeClasses: [nodeClass(), nodeClass({ name: 'other' })],
    invalidDocuments: 0,
    unmanagedNodePools: [],
  };
}

describe('planning while a NodeClass backs off', () => {
  const pods = [
    pod({ name: 'web-1', requests: { cpu: '500m' } }),
    pod({ name: 'web-2', requests: { cpu: '500m' } }),
  ];

  it('its pools make no claim; the pods are unschedulable naming the EC2NodeClass and the reason', () => {
    const planned = planRun(snapshot(pods), [], [], bundledCatalog, {
      now: NOW,
      launchBlocks: new Map([['default', BLOCK]]),
    });
    expect(planned.plan.nodeClaims).toEqual([]);
    expect(planned.plan.unschedulable).toHaveLength(2);
    expect(planned.plan.unschedulable[0].reason).toContain(`nodepool main: EC2NodeClass default: ${BLOCK}`);
  });

  it('another NodePool with another NodeClass takes the pods', () => {
    const planned = planRun(snapshot(pods, true), [], [], bundledCatalog, {
      now: NOW,
      launchBlocks: new Map([['default', BLOCK]]),
    });
    expect(planned.plan.nodeClaims.map((c) => c.nodePool)).toEqual(['fallback']);
  });

  it('without a block the pool plans as before', () => {
    const planned = planRun(snapshot(pods), [], [], bundledCatalog, { now: NOW, launchBlocks: new Map() });
    expect(planned.plan.nodeClaims.map((c) => c.nodePool)).toEqual(['main']);
  });
});
