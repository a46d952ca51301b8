/**
 * Karpenter's registration taint end to end in the simulated cloud: the kubelet of every node
 * joiner launches registers with `karpenter.sh/unregistered:NoExecute` because the user data asks
 * for it (the simulated kubelet reads its taints from the user data), no pod is bound to the node
 * while it carries it, and joiner's registration removes it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { handleLifecycleEvent } from '../../../functions/core/lifecycle/handle-lifecycle-event.js';
import type { Node, Pod } from '../../../functions/core/model/kube-objects.js';
import { provision } from '../../../functions/core/provisioning/provision.js';
import { sweepDepsFrom } from '../../../functions/core/sweep/sweep-deps-from.js';
import { dependenciesFromEnv } from '../../../functions/handlers/runtime/dependencies.js';
import type { StoreEvent } from '../../../functions/simulator/kube/api/object-store.js';
import { type SimProvisioning, startWithSeed } from '../provisioning/sim-harness.js';

const KEY = 'karpenter.sh/unregistered';
let sim: SimProvisioning | undefined;

afterEach(async () => {
  await sim?.cloud.close();
  sim = undefined;
});

const plural = (e: StoreEvent) => e.resource.split('/').pop();
const tainted = (node: Node | undefined) =>
  (node?.spec?.taints ?? []).some((t) => t.key === KEY && t.effect === 'NoExecute');

describe('the karpenter.sh/unregistered taint in the simulated cloud', () => {
  it('nodes register with it from their user data; no pod binds before joiner registers the node and removes it', async () => {
    sim = await startWithSeed('examples/seed-004');
    const s = sim;
    const nodes = new Map<string, Node>();
    const registeredTainted = new Set<string>();
    const boundWhileTainted: string[] = [];
    let bindings = 0;
    const stop = s.cloud.kube.store.api.store.subscribe((event) => {
      if (plural(event) === 'nodes') {
        const node = event.object as unknown as Node;
        if (event.type === 'ADDED' && tainted(node)) registeredTainted.add(node.metadata.name);
        nodes.set(node.metadata.name, node);
      } else if (plural(event) === 'pods') {
        const pod = event.object as unknown as Pod;
        const before = event.oldObject as unknown as Pod | undefined;
        const nodeName = pod.spec?.nodeName;
        if (!nodeName || before?.spec?.nodeName === nodeName) return;
        bindings++;
        if (tainted(nodes.get(nodeName))) boundWhileTainted.push(`${pod.metadata.name} on ${nodeName}`);
      }
    });
    try {
      const deps = sweepDepsFrom(dependenciesFromEnv(s.cloud.env(), { clock: s.cloud.clock, log: s.log }));
      const result = await provision(s.deps, { hints: [] });
      expect(result.launched.length).toBeGreaterThan(0);
      let sawWaiting = false;
      for (let second = 0; second < 180; second += 2) {
        await s.cloud.clock.advance(2_000);
        await s.cloud.kube.idle();
        const listed = await deps.cluster.listNodes();
        // A node the kubelet registered and joiner has not yet: the scheduler leaves it alone.
        if (
          listed.some(
            (n) => tainted(n) && n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
          )
        )
          sawWaiting = true;
        // No hints in the first virtual minute: the nodes turn Ready still carrying the taint, and
        // the scheduler must leave them alone until joiner registers them.
        if (second >= 60 && second % 10 === 0)
          for (const node of listed) {
            const nodeName = node.metadata.name;
            await handleLifecycleEvent(deps, { detailType: 'NodeRegistered', detail: { nodeName } });
            await handleLifecycleEvent(deps, { detailType: 'NodeReady', detail: { nodeName } });
          }
        const claims = await deps.store.listNodeClaims();
        if (second > 60 && claims.every((c) => c.state === 'Initialized') && bindings > 0) break;
      }
      const claims = await deps.store.listNodeClaims();
      expect(claims.map((c) => c.state)).toEqual(claims.map(() => 'Initialized'));
      const listed = await deps.cluster.listNodes();
      expect(listed).toHaveLength(result.launched.length);
      expect([...registeredTainted].sort()).toEqual(listed.map((n) => n.metadata.name).sort());
      expect(listed.filter(tainted)).toEqual([]);
      expect(sawWaiting).toBe(true);
      expect(bindings).toBeGreaterThan(0);
      expect(boundWhileTainted).toEqual([]);
    } finally {
      stop();
    }
  }, 120_000);
});
