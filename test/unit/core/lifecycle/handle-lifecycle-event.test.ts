import { describe, expect, it } from 'vitest';
import { handleLifecycleEvent } from '../../../../functions/core/lifecycle/handle-lifecycle-event.js';
import { registrationPatch } from '../../../../functions/core/lifecycle/reconcile-node.js';
import { kubeletNode, markReady, podOn } from './fakes.js';
import { harness, launchedClaim, MULTUS_TAINT } from './harness.js';

const STARTUP = { key: 'example.com/agent-not-ready', effect: 'NoSchedule' } as const;
const registered = (nodeName: string) => ({ detailType: 'NodeRegistered' as const, detail: { nodeName } });
const ready = (nodeName: string) => ({ detailType: 'NodeReady' as const, detail: { nodeName } });
const podReady = (nodeName: string, name: string) => ({
  detailType: 'PodReady' as const,
  detail: { nodeName, namespace: 'default', name, uid: `uid-${name}` },
});

/** Claim `default-abc` on a Ready node `ip-1` (instance i-0a), brought to Initialized by its NodeReady. */
async function initializedNode(h: ReturnType<typeof harness>): Promise<ReturnType<typeof kubeletNode>> {
  launchedClaim(h, 'default-abc', 'i-0a');
  const node = kubeletNode('ip-1', 'i-0a');
  markReady(node);
  h.cluster.nodes.set('ip-1', node);
  await handleLifecycleEvent(h.lifecycle, ready('ip-1'));
  return node;
}

describe('handleLifecycleEvent: registration', () => {
  it('moves a Launched claim to Registered and syncs labels, taints and the owner annotation', async () => {
    const h = harness();
    launchedClaim(h, 'default-abc', 'i-0a');
    h.cluster.nodes.set('ip-1', kubeletNode('ip-1', 'i-0a', [MULTUS_TAINT]));

    expect(await handleLifecycleEvent(h.lifecycle, registered('ip-1'))).toBe('reconciled');

    const claim = h.store.claims.get('default-abc');
    expect(claim?.state).toBe('Registered');
    expect(claim?.nodeName).toBe('ip-1');
    const node = h.cluster.nodes.get('ip-1');
    expect(node?.metadata.labels).toMatchObject({
      team: 'telco',
      'karpenter.sh/nodepool': 'default',
      'joiner.sh/nodeclaim': 'default-abc',
      'karpenter.sh/capacity-type': 'spot',
      'topology.kubernetes.io/zone': 'us-west-2a',
      'node.kubernetes.io/instance-type': 'c5.large',
      'karpenter.sh/registered': 'true',
    });
    expect(node?.metadata.annotations).toMatchObject({
      'joiner.sh/managed-by': 'joiner',
      'karpenter.sh/nodepool-hash': 'p',
      'karpenter.k8s.aws/ec2nodeclass-hash': 'c',
    });
    expect(node?.spec?.taints).toEqual([
      MULTUS_TAINT,
      { key: 'dedicated', value: 'telco', effect: 'NoSchedule' },
    ]);
    expect(h.log.messages()).toContain('registered nodeclaim');
  });

  it('is a no-op for a duplicate event: no second transition, no second patch', async () => {
    const h = harness();
    launchedClaim(h, 'default-abc', 'i-0a');
    h.cluster.nodes.set('ip-1', kubeletNode('ip-1', 'i-0a'));
    await handleLifecycleEvent(h.lifecycle, registered('ip-1'));
    const version = h.store.claims.get('default-abc')?.version;
    const patches = h.cluster.patches.length;

    await handleLifecycleEvent(h.lifecycle, registered('ip-1'));

    expect(h.store.claims.get('default-abc')?.version).toBe(version);
    expect(h.cluster.patches.length).toBe(patches);
  });

  it('annotates the hash versions of a claim that has them, and re-annotates only what changed', async () => {
    const h = harness();
    const launched = launchedClaim(h, 'default-abc', 'i-0a');
    const node = kubeletNode('ip-1', 'i-0a');
    const claim = {
      ...launched,
      nodePoolHashVersion: 'joiner-v1',
      nodeClassHashVersion: 'joiner-v1',
    };
    const first = registrationPatch(claim, node);
    expect(first?.annotations).toEqual({
      'joiner.sh/managed-by': 'joiner',
      'karpenter.sh/nodepool-hash': 'p',
      'karpenter.sh/nodepool-hash-version': 'joiner-v1',
      'karpenter.k8s.aws/ec2nodeclass-hash': 'c',
      'karpenter.k8s.aws/ec2nodeclass-hash-version': 'joiner-v1',
    });
    const annotated = {
      ...node,
      metadata: {
        ...node.metadata,
        labels: { ...node.metadata.labels, ...(first?.labels as Record<string, string>) },
        annotations: first?.annotations as Record<string, string>,
        finalizers: first?.finalizers ? [...first.finalizers] : undefined,
      },
      spec: { ...node.spec, taints: first?.taints ? [...first.taints] : node.spec?.taints },
    };
    expect(registrationPatch(claim, annotated)).toBeUndefined();
    expect(registrationPatch({ ...claim, nodePoolHash: 'p2' }, annotated)).toEqual({
      annotations: { 'karpenter.sh/nodepool-hash': 'p2' },
    });
  });

  it("sets the NodePool template's annotations on the node; joiner's own keys win", () => {
    const h = harness();
    const claim = {
      ...launchedClaim(h, 'default-abc', 'i-0a'),
      annotations: { 'example.com/team': 'ml', 'joiner.sh/managed-by': 'someone-else' },
    };
    const patch = registrationPatch(claim, kubeletNode('ip-1', 'i-0a'));
    expect(patch?.annotations).toMatchObject({ 'example.com/team': 'ml', 'joiner.sh/managed-by': 'joiner' });
  });

  it('two handlers on the same event at once register the claim once', async () => {
    const h = harness();
    launchedClaim(h, 'default-abc', 'i-0a');
    h.cluster.nodes.set('ip-1', kubeletNode('ip-1', 'i-0a'));
    await Promise.all([
      handleLifecycleEvent(h.lifecycle, registered('ip-1')),
      handleLifecycleEvent(h.lifecycle, registered('ip-1')),
    ]);
    expect(h.store.claims.get('default-abc')?.state).toBe('Registered');
    expect(h.log.messages().filter((m) => m === 'registered nodeclaim')).toHaveLength(1);
  });

  it('re-decides after losing a write race', async () => {
    const h = harness();
    launchedClaim(h, 'default-abc', 'i-0a');
    h.cluster.nodes.set('ip-1', kubeletNode('ip-1', 'i-0a'));
    h.store.conflicts = 2;
    await handleLifecycleEvent(h.lifecycle, registered('ip-1'));
    expect(h.store.claims.get('default-abc')?.state).toBe('Registered');
  });

  it('ignores nodes joiner does not own and missing nodes', async () => {
    const h = harness();
    h.cluster.nodes.set('other', kubeletNode('other', 'i-0zz'));
    expect(await handleLifecycleEvent(h.lifecycle, registered('other'))).toBe('ignored');
    expect(await handleLifecycleEvent(h.lifecycle, registered('nowhere'))).toBe('ignored');
    expect(h.cluster.patches).toEqual([]);
    expect(h.log.lines.filter((l) => l.message.includes('not owned'))).toHaveLength(1);
  });
});

describe('handleLifecycleEvent: initialization', () => {
  it('waits for Ready and for the startup taints to go before Initialized', async () => {
    const h = harness();
    launchedClaim(h, 'default-abc', 'i-0a');
    const node = kubeletNode('ip-1', 'i-0a', [STARTUP]);
    h.cluster.nodes.set('ip-1', node);
    await handleLifecycleEvent(h.lifecycle, registered('ip-1'));
    const stored = h.cluster.nodes.get('ip-1');
    if (!stored) throw new Error('node gone');
    markReady(stored);
    await handleLifecycleEvent(h.lifecycle, ready('ip-1'));
    expect(h.store.claims.get('default-abc')?.state).toBe('Registered');

    stored.spec = {
      ...stored.spec,
      taints: (stored.spec?.taints ?? []).filter((t) => t.key !== STARTUP.key),
    };
    await handleLifecycleEvent(h.lifecycle, ready('ip-1'));
    const claim = h.store.claims.get('default-abc');
    expect(claim?.state).toBe('Initialized');
    expect(claim?.timers.registrationTimeout).toBeUndefined();
    expect(h.cluster.nodes.get('ip-1')?.metadata.labels?.['karpenter.sh/initialized']).toBe('true');
  });

  it('keeps the Multus taint until the Multus pod is Ready, then removes it and initializes', async () => {
    const h = harness();
    launchedClaim(h, 'default-abc', 'i-0a');
    const node = kubeletNode('ip-1', 'i-0a', [MULTUS_TAINT]);
    markReady(node);
    h.cluster.nodes.set('ip-1', node);
    const multus = podOn(
      'ip-1',
      'kube-multus-ds-x',
      {
        labels: { app: 'multus' },
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'kube-multus-ds' }],
      },
      false,
    );
    h.cluster.pods.push(multus);

    await handleLifecycleEvent(h.lifecycle, ready('ip-1'));
    await handleLifecycleEvent(h.lifecycle, podReady('ip-1', 'kube-multus-ds-x'));
    expect(h.cluster.nodes.get('ip-1')?.spec?.taints).toContainEqual(MULTUS_TAINT);
    expect(h.store.claims.get('default-abc')?.state).toBe('Registered');

    multus.status = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] };
    await handleLifecycleEvent(h.lifecycle, podReady('ip-1', 'kube-multus-ds-x'));
    expect(h.cluster.nodes.get('ip-1')?.spec?.taints).not.toContainEqual(MULTUS_TAINT);
    expect(h.store.claims.get('default-abc')?.state).toBe('Initialized');
    expect(h.log.messages()).toContain('removed multus startup taint');
  });
});

describe('handleLifecycleEvent: PodGone', () => {
  it('arms the emptiness timer when only daemonset pods remain, and deletes nothing', async () => {
    const h = harness({ consolidateAfterMs: 30_000 });
    await initializedNode(h);
    h.cluster.pods.push(
      podOn('ip-1', 'ds-pod', {
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'ds' }],
      }),
    );
    const gone = {
      detailType: 'PodGone' as const,
      detail: { nodeName: 'ip-1', namespace: 'default', name: 'web', uid: 'u' },
    };

    expect(await handleLifecycleEvent(h.lifecycle, gone)).toBe('emptiness-checked');
    const dueAt = h.clock.now() + 30_000;
    expect(h.store.claims.get('default-abc')?.timers.emptiness).toBe(dueAt);
    expect(h.timers.scheduled).toEqual([{ nodeClaimId: 'default-abc', dueAt }]);
    expect(h.cluster.deleted).toEqual([]);
    expect(h.cloud.terminated).toEqual([]);

    // The same event again at once changes nothing; a pod leaving later moves the timer on.
    await handleLifecycleEvent(h.lifecycle, gone);
    expect(h.store.claims.get('default-abc')?.timers.emptiness).toBe(dueAt);
    h.clock.advance(10_000);
    await handleLifecycleEvent(h.lifecycle, gone);
    expect(h.store.claims.get('default-abc')?.timers.emptiness).toBe(dueAt + 10_000);

    h.cluster.pods.push(podOn('ip-1', 'web-2'));
    await handleLifecycleEvent(h.lifecycle, gone);
    expect(h.store.claims.get('default-abc')?.timers.emptiness).toBeUndefined();
  });

  it('a pod leaving an underutilized node of a consolidating pool asks for one consolidation check', async () => {
    const h = harness({ consolidateAfterMs: 30_000, consolidationPolicy: 'WhenEmptyOrUnderutilized' });
    await initializedNode(h);
    h.cluster.pods.push(podOn('ip-1', 'web-2'));
    const gone = {
      detailType: 'PodGone' as const,
      detail: { nodeName: 'ip-1', namespace: 'default', name: 'web-1', uid: 'u1' },
    };
    await handleLifecycleEvent(h.lifecycle, gone);
    const dueAt = h.clock.now() + 60_000;
    expect(h.store.claims.get('default-abc')?.timers.consolidation).toBe(dueAt);
    expect(h.timers.scheduled).toContainEqual({ nodeClaimId: 'default-abc', dueAt });
    // Debounced: another departure before the check keeps the one timer.
    h.clock.advance(10_000);
    await handleLifecycleEvent(h.lifecycle, gone);
    expect(h.store.claims.get('default-abc')?.timers.consolidation).toBe(dueAt);
    expect(h.store.claims.get('default-abc')?.lastPodRemovedAt).toBe(h.clock.now());
  });

  it('once the check is armed, a pod leaving a node that keeps pods records its time without reading the NodePools', async () => {
    const h = harness({ consolidateAfterMs: 30_000, consolidationPolicy: 'WhenEmptyOrUnderutilized' });
    await initializedNode(h);
    h.cluster.pods.push(podOn('ip-1', 'web-2'), podOn('ip-1', 'web-3'));
    let configReads = 0;
    const lifecycle = {
      ...h.lifecycle,
      config: () => {
        configReads++;
        return h.lifecycle.config();
      },
    };
    const gone = (name: string) => ({
      detailType: 'PodGone' as const,
      detail: { nodeName: 'ip-1', namespace: 'default', name, uid: name },
    });
    await handleLifecycleEvent(lifecycle, gone('web-1'));
    expect(configReads).toBe(1);
    const dueAt = h.store.claims.get('default-abc')?.timers.consolidation;
    expect(dueAt).toBeDefined();
    h.clock.advance(5_000);
    h.cluster.pods.pop();
    await handleLifecycleEvent(lifecycle, gone('web-3'));
    expect(configReads).toBe(1);
    expect(h.store.claims.get('default-abc')).toMatchObject({
      lastPodRemovedAt: h.clock.now(),
      timers: { consolidation: dueAt },
    });
    // The last pod goes: the pool decides whether the node is empty now.
    h.clock.advance(5_000);
    h.cluster.pods.pop();
    await handleLifecycleEvent(lifecycle, gone('web-2'));
    expect(configReads).toBe(2);
    expect(h.store.claims.get('default-abc')?.timers.emptiness).toBe(h.clock.now() + 30_000);
  });

  it('a pod event writes the claim it looked up without reading it again', async () => {
    const h = harness({ consolidateAfterMs: 30_000, consolidationPolicy: 'WhenEmptyOrUnderutilized' });
    await initializedNode(h);
    h.cluster.pods.push(podOn('ip-1', 'web-2'), podOn('ip-1', 'web-3'));
    let reads = 0;
    const get = h.store.getNodeClaim.bind(h.store);
    h.store.getNodeClaim = async (id: string) => {
      reads++;
      return get(id);
    };
    const gone = (name: string) => ({
      detailType: 'PodGone' as const,
      detail: { nodeName: 'ip-1', namespace: 'default', name, uid: name },
    });
    // Arms the check, then only records the time: each a single write, no second read.
    await handleLifecycleEvent(h.lifecycle, gone('web-1'));
    h.clock.advance(5_000);
    h.cluster.pods.pop();
    await handleLifecycleEvent(h.lifecycle, gone('web-3'));
    expect(reads).toBe(0);
    expect(h.store.claims.get('default-abc')).toMatchObject({ lastPodRemovedAt: h.clock.now() });
    expect(h.store.claims.get('default-abc')?.timers.consolidation).toBeDefined();
  });

  it('a pod leaving a node being drained or deleted looks up no claim and lists no pods', async () => {
    const h = harness({ consolidateAfterMs: 30_000 });
    const node = await initializedNode(h);
    const lookups: string[] = [];
    const find = h.store.findNodeClaimByInstanceId.bind(h.store);
    h.store.findNodeClaimByInstanceId = async (id: string) => {
      lookups.push(id);
      return find(id);
    };
    const gone = {
      detailType: 'PodGone' as const,
      detail: { nodeName: 'ip-1', namespace: 'default', name: 'web', uid: 'u' },
    };
    h.cluster.nodes.set('ip-1', {
      ...node,
      spec: { ...node.spec, taints: [{ key: 'karpenter.sh/disrupted', effect: 'NoSchedule' }] },
    });
    expect(await handleLifecycleEvent(h.lifecycle, gone)).toBe('ignored');
    h.cluster.nodes.set('ip-1', {
      ...node,
      metadata: { ...node.metadata, deletionTimestamp: '2026-01-01T00:00:00Z' },
    });
    expect(await handleLifecycleEvent(h.lifecycle, gone)).toBe('ignored');
    expect(lookups).toEqual([]);
    expect(h.store.claims.get('default-abc')?.timers.emptiness).toBeUndefined();
    // The same node without the taint: the claim is looked up and its emptiness recorded.
    h.cluster.nodes.set('ip-1', node);
    expect(await handleLifecycleEvent(h.lifecycle, gone)).toBe('emptiness-checked');
    expect(lookups).toEqual(['i-0a']);
  });

  it('arms nothing when the pool never consolidates', async () => {
    const h = harness({ consolidateAfterMs: null });
    await initializedNode(h);
    await handleLifecycleEvent(h.lifecycle, {
      detailType: 'PodGone',
      detail: { nodeName: 'ip-1', namespace: 'default', name: 'web', uid: 'u' },
    });
    expect(h.store.claims.get('default-abc')?.timers.emptiness).toBeUndefined();
  });
});
