import { PatchStrategy, setHeaderOptions, type V1Node, type V1Pod } from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SimInstance } from '../../../../functions/simulator/instance.js';
import { nodeConfigUserData } from '../../../builders/node-config.js';
import { type Harness, startHarness } from './fixtures.js';
import { startWebhookBackend, type WebhookBackend, webhookConfiguration } from './webhook-backend.js';

const MULTUS_TAINT = { key: 'k8s.cni.cncf.io/multus', value: 'notready', effect: 'NoSchedule' };

const userData = nodeConfigUserData({
  maxPods: 58,
  flags: [
    '--node-labels=karpenter.sh/nodepool=default,karpenter.sh/capacity-type=on-demand',
    '--register-with-taints=k8s.cni.cncf.io/multus=notready:NoSchedule,dedicated=web:NoSchedule',
  ],
});

function instance(): SimInstance {
  return {
    instanceId: 'i-0123456789abcdef0',
    instanceType: 'm5.2xlarge',
    availabilityZone: 'us-west-2b',
    capacityType: 'on-demand',
    imageId: 'ami-0abc',
    launchTime: Date.UTC(2026, 0, 1),
    privateDnsName: 'ip-10-0-1-23.us-west-2.compute.internal',
    privateIpAddress: '10.0.1.23',
    userData,
    tags: { 'karpenter.sh/nodepool': 'default' },
    networkInterfaces: [],
    state: 'running',
  };
}

const UNSCHEDULABLE =
  "has(object.status.conditions) && object.status.conditions.exists(c, c.type == 'PodScheduled' && c.status == 'False' && c.reason == 'Unschedulable')";

describe('scenario: unschedulable pods, a webhook, a new node', () => {
  let h: Harness;
  let backend: WebhookBackend;
  beforeEach(async () => {
    h = await startHarness();
    backend = await startWebhookBackend();
  });
  afterEach(async () => {
    await h.sim.close();
    await backend.close();
  });

  const advance = async (ms: number): Promise<void> => {
    for (let t = 0; t < ms; t += 1000) {
      await h.clock.advance(1000);
      await h.sim.idle();
    }
  };
  const pods = () => h.sim.store.list<V1Pod>('v1', 'Pod', { namespace: 'default', labelSelector: 'app=web' });

  it('marks pods Unschedulable through the webhook, then binds them to the node a new instance registers', async () => {
    await h.sim.store.create(
      webhookConfiguration(backend.url, {
        rules: [
          {
            operations: ['UPDATE'],
            apiGroups: [''],
            apiVersions: ['v1'],
            resources: ['pods/status'],
            scope: 'Namespaced',
          },
        ],
        matchConditions: [{ name: 'unschedulable', expression: UNSCHEDULABLE }],
      }),
    );
    await h.sim.store.create({
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'kube-multus-ds', namespace: 'kube-system', labels: { app: 'multus' } },
      spec: {
        selector: { matchLabels: { app: 'multus' } },
        template: {
          metadata: { labels: { app: 'multus', name: 'multus' } },
          spec: {
            tolerations: [{ operator: 'Exists' }],
            containers: [
              { name: 'multus', image: 'multus', resources: { requests: { cpu: '100m', memory: '50Mi' } } },
            ],
          },
        },
      },
    });
    await h.apps.createNamespacedDeployment({
      namespace: 'default',
      body: {
        metadata: { name: 'web' },
        spec: {
          replicas: 1,
          selector: { matchLabels: { app: 'web' } },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: {
              nodeSelector: { 'karpenter.sh/nodepool': 'default' },
              tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'web', effect: 'NoSchedule' }],
              containers: [
                { name: 'web', image: 'nginx', resources: { requests: { cpu: '500m', memory: '512Mi' } } },
              ],
            },
          },
        },
      },
    });
    const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
    await h.apps.patchNamespacedDeploymentScale(
      { name: 'web', namespace: 'default', body: { spec: { replicas: 5 } } },
      merge,
    );
    await h.sim.idle();
    await h.sim.scheduleNow();

    expect(pods()).toHaveLength(5);
    for (const p of pods()) {
      expect(p.metadata?.name).toMatch(/^web-[a-z0-9]{10}-[a-z0-9]{5}$/);
      const cond = p.status?.conditions?.find((c) => c.type === 'PodScheduled');
      expect(cond).toMatchObject({
        status: 'False',
        reason: 'Unschedulable',
        message: 'no nodes available to schedule pods',
      });
    }
    expect(backend.reviews).toHaveLength(5);
    expect(new Set(backend.reviews.map((r) => r.name))).toEqual(new Set(pods().map((p) => p.metadata?.name)));
    expect(backend.reviews.every((r) => r.operation === 'UPDATE' && r.subResource === 'status')).toBe(true);
    await advance(5000);
    expect(backend.reviews).toHaveLength(5);

    h.sim.observer.instanceRunning(instance());
    await advance(20_000);
    expect(h.sim.store.list('v1', 'Node')).toHaveLength(0);
    await advance(40_000);
    const node = await h.core.readNode({ name: 'ip-10-0-1-23.us-west-2.compute.internal' });
    expect(node.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
    expect(node.spec?.providerID).toBe('aws:///us-west-2b/i-0123456789abcdef0');
    expect(node.metadata?.labels).toMatchObject({
      'karpenter.sh/nodepool': 'default',
      'node.kubernetes.io/instance-type': 'm5.2xlarge',
      'topology.kubernetes.io/zone': 'us-west-2b',
      'topology.kubernetes.io/region': 'us-west-2',
      'kubernetes.io/hostname': 'ip-10-0-1-23.us-west-2.compute.internal',
      'kubernetes.io/arch': 'amd64',
    });
    // Karpenter's instance labels are the autoscaler's to set (joiner's lifecycle), never the kubelet's.
    expect(
      Object.keys(node.metadata?.labels ?? {}).filter((k) => k.startsWith('karpenter.k8s.aws/')),
    ).toEqual([]);
    expect(node.spec?.taints).toEqual([
      MULTUS_TAINT,
      { key: 'dedicated', value: 'web', effect: 'NoSchedule' },
    ]);
    expect(node.status?.allocatable).toEqual({
      cpu: '7910m',
      memory: '29317Mi',
      pods: '58',
      'ephemeral-storage': expect.any(String),
    });

    // The Multus pod runs on the node; the web pods wait for the startup taint to go.
    const multus = h.sim.store.list<V1Pod>('v1', 'Pod', {
      namespace: 'kube-system',
      labelSelector: 'app=multus',
    });
    expect(multus).toHaveLength(1);
    expect(multus[0].spec?.nodeName).toBe(node.metadata?.name);
    await advance(10_000);
    const multusReady = h.sim.store.list<V1Pod>('v1', 'Pod', {
      namespace: 'kube-system',
      labelSelector: 'app=multus',
    })[0];
    expect(multusReady.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
    expect(pods().every((p) => !p.spec?.nodeName)).toBe(true);
    expect(pods()[0].status?.conditions?.find((c) => c.type === 'PodScheduled')?.message).toContain(
      '1 node(s) had untolerated taint {k8s.cni.cncf.io/multus: notready}',
    );

    await h.core.patchNode(
      {
        name: node.metadata!.name!,
        body: { spec: { taints: [{ key: 'dedicated', value: 'web', effect: 'NoSchedule' }] } },
      },
      merge,
    );
    await advance(10_000);
    expect(pods().map((p) => p.spec?.nodeName)).toEqual(Array(5).fill(node.metadata?.name));
    expect(pods().every((p) => p.status?.phase === 'Running')).toBe(true);

    // The instance terminates: the node goes away and the pods come back Pending.
    h.sim.observer.instanceTerminated({ ...instance(), state: 'terminated' });
    await advance(60_000);
    expect(h.sim.store.list<V1Node>('v1', 'Node')).toHaveLength(0);
    expect(pods()).toHaveLength(5);
    expect(pods().every((p) => !p.spec?.nodeName && p.status?.phase === 'Pending')).toBe(true);
    expect(h.sim.problems()).toEqual([]);
  });
});
