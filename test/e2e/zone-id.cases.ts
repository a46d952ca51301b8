import { describe, expect, it } from 'vitest';
import type { SimulatedCloud } from '../../functions/simulator/cloud.js';
import type { KubeObject } from '../../functions/simulator/kube/api/object-store.js';
import { explain, runShippedScenario } from './scenario-runner.js';

const ZONE_ID = 'topology.k8s.aws/zone-id';

describe('scenario zone-id: placement by topology.k8s.aws/zone-id in the simulated cloud', () => {
  it('keeps out of usw2-az3, spreads web over the two other zone IDs, pins a pod to usw2-az1; nodes carry the label', async () => {
    let cloud: SimulatedCloud | undefined;
    const result = await runShippedScenario('zone-id', {
      prepare: async (c) => {
        cloud = c;
      },
    });
    expect(result.failures, explain(result)).toEqual([]);
    const nodes = cloud!.kube.store.list('v1', 'Node') as KubeObject[];
    const labels = (n: KubeObject) => (n.metadata.labels ?? {}) as Record<string, string>;
    const idOf = new Map(nodes.map((n) => [n.metadata.name, labels(n)[ZONE_ID]]));
    // Every node carries its zone's ID, as the simulated EC2's subnets give it.
    for (const n of nodes) {
      const zone = labels(n)['topology.kubernetes.io/zone'];
      expect(labels(n)[ZONE_ID], n.metadata.name).toBe(
        { 'us-west-2a': 'usw2-az1', 'us-west-2b': 'usw2-az2' }[zone],
      );
    }
    const pods = (cloud!.kube.store.list('v1', 'Pod') as KubeObject[]).filter(
      (p) => p.metadata.namespace === 'default',
    );
    const zoneIdOfPod = (p: KubeObject) => idOf.get((p.spec as { nodeName?: string }).nodeName ?? '');
    expect(zoneIdOfPod(pods.find((p) => p.metadata.name === 'pinned')!)).toBe('usw2-az1');
    const web = pods.filter((p) => p.metadata.name.startsWith('web-')).map(zoneIdOfPod);
    expect(web.filter((id) => id === 'usw2-az1')).toHaveLength(2);
    expect(web.filter((id) => id === 'usw2-az2')).toHaveLength(2);
  }, 180_000);
});
