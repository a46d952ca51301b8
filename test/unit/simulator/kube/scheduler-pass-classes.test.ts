/**
 * The simulated kube-scheduler's pass over many pending pods of few classes: a class's verdict
 * (no node takes it, and why) is reused for its next pods only until another pod is placed, so
 * every pod gets the reason the cluster has when its turn comes.
 */
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../../functions/core/model/kube-objects.js';
import { parseResource } from '../../../../functions/core/model/quantity.js';
import type { ExistingNode } from '../../../../functions/core/scheduling/types.js';
import { placeOnNodes } from '../../../../functions/simulator/kube/scheduler/kube-scheduler.js';
import { pod } from '../../../builders/workloads.js';

const ZONE = 'topology.kubernetes.io/zone';
const NO_VOLUMES = { pvs: [], pvcs: [] };

function node(name: string, cpu: string, labels: Record<string, string> = {}): ExistingNode {
  return {
    name,
    labels: { 'kubernetes.io/hostname': name, ...labels },
    taints: [],
    allocatable: { cpu: parseResource('cpu', cpu), memory: 8 * 2 ** 30, pods: 110 },
    pods: [],
  };
}

const reasonOf = (plan: ReturnType<typeof placeOnNodes>, name: string): string | undefined =>
  plan.unschedulable.find((u) => u.pod === `default/${name}`)?.reason.split('. preemption')[0];

const nodeOf = (plan: ReturnType<typeof placeOnNodes>, name: string): string | undefined =>
  plan.existingPlacements.find((p) => p.pods.includes(`default/${name}`))?.node;

describe('simulated kube-scheduler pass, pods of one class', () => {
  it('places what fits and gives every other pod of the class the same reason', () => {
    const pods: Pod[] = Array.from({ length: 50 }, (_, i) =>
      pod({ name: `p${String(i).padStart(2, '0')}`, requests: { cpu: '400m' } }),
    );
    const plan = placeOnNodes(pods, [node('n1', '1'), node('n2', '1')], NO_VOLUMES);
    expect(plan.existingPlacements.flatMap((p) => p.pods)).toHaveLength(4);
    expect(plan.unschedulable).toHaveLength(46);
    for (const u of plan.unschedulable)
      expect(u.reason.split('. preemption')[0]).toBe('0/2 nodes are available: 2 Insufficient cpu');
  });

  it('re-explains a class once another pod was placed in between', () => {
    // a1 and a2 need zone z2, whose node is too small; b1 (ordered between them) fills n1.
    const a = (name: string) => pod({ name, requests: { cpu: '1' }, nodeSelector: { [ZONE]: 'z2' } });
    const pods = [a('p1-a'), pod({ name: 'p2-b', requests: { cpu: '1' } }), a('p3-a')];
    const plan = placeOnNodes(pods, [node('n1', '1.5'), node('n2', '0.5', { [ZONE]: 'z2' })], NO_VOLUMES);
    expect(nodeOf(plan, 'p2-b')).toBe('n1');
    expect(reasonOf(plan, 'p1-a')).toBe(
      "0/2 nodes are available: 1 Insufficient cpu, 1 node(s) didn't match Pod's node affinity/selector",
    );
    expect(reasonOf(plan, 'p3-a')).toBe('0/2 nodes are available: 2 Insufficient cpu');
  });

  it('tries a class again once a pod it follows is placed', () => {
    // The follower needs a pod of app=leader on its node: no node takes it until the leader is placed.
    const follower = pod({
      name: 'a-follower',
      requests: { cpu: '100m' },
      affinity: {
        podAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [
            { labelSelector: { matchLabels: { app: 'leader' } }, topologyKey: 'kubernetes.io/hostname' },
          ],
        },
      },
    });
    const leader = pod({ name: 'b-leader', labels: { app: 'leader' }, requests: { cpu: '100m' } });
    const plan = placeOnNodes([follower, leader], [node('n1', '1'), node('n2', '2')], NO_VOLUMES);
    expect(plan.unschedulable).toEqual([]);
    expect(nodeOf(plan, 'a-follower')).toBe(nodeOf(plan, 'b-leader'));
  });
});
