/**
 * A provisioning run's pending and bound pods are one state of the cluster. When every node of a
 * pool drains at once, pods are evicted (and their ReplicaSet's replacements created pending)
 * while runs read the cluster; read by two lists, an evicted pod could be counted on its draining
 * node and its replacement pending too, and the run launched a node for pods that did not exist
 * (an interruption of 50 nodes left 51).
 */
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../../functions/core/model/kube-objects.js';
import { readClusterSnapshot } from '../../../../functions/core/provisioning/cluster-snapshot.js';
import { pod } from '../../../builders/workloads.js';
import { FakeCluster, RecordingLog } from './fakes.js';

/**
 * A cluster where the pods of `n1` are evicted and replaced by pending pods right after the first
 * pod list has been read (before any other list is answered).
 */
class EvictingCluster extends FakeCluster {
  private evicted = false;

  private evictOnce(): void {
    if (this.evicted) return;
    this.evicted = true;
    this.pods = this.pods.map((p, i) =>
      p.spec.nodeName === 'n1' ? pod({ name: `replacement-${i}`, requests: { cpu: '100m' } }) : p,
    );
  }

  override listPendingPods(): Promise<Pod[]> {
    const read = super.listPendingPods();
    this.evictOnce();
    return read;
  }

  override listPodsOnNode(nodeName?: string): Promise<Pod[]> {
    const read = super.listPodsOnNode(nodeName);
    this.evictOnce();
    return read;
  }

  override listPendingAndBoundPods(): Promise<{ pending: Pod[]; bound: Pod[] }> {
    const read = super.listPendingAndBoundPods();
    this.evictOnce();
    return read;
  }
}

describe('the cluster snapshot of a provisioning run', () => {
  it('counts each pod once while pods are evicted and replaced during the read', async () => {
    const cluster = new EvictingCluster();
    cluster.pods = Array.from({ length: 20 }, (_, i) =>
      pod({ name: `web-${i}`, nodeName: 'n1', requests: { cpu: '100m' } }),
    );
    const snapshot = await readClusterSnapshot(cluster, new RecordingLog());
    const names = [...snapshot.pendingPods, ...snapshot.boundPods].map((p) => p.metadata.name);
    // Either all 20 still on n1 or all 20 replacements pending: never both, never neither.
    expect(names).toHaveLength(20);
    expect(new Set(names.map((n) => n.split('-')[0])).size).toBe(1);
  });
});
