import { KubeConfig, RbacAuthorizationV1Api } from '@kubernetes/client-node';
import type { SQSEvent } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { createClusterApi } from '../../../../functions/adapters/kube/create-cluster-api.js';
import { nodeClaimCrd, nodeClassCrd, nodePoolCrd } from '../../../../functions/core/install/crds.js';
import { controllerClusterRole } from '../../../../functions/core/install/rbac.js';
import { nodeClaimResource } from '../../../../functions/core/status/nodeclaim-resource.js';
import { createProvisionerHandler } from '../../../../functions/handlers/provisioner.js';
import { type SimulatedCloud, startSimulatedCloud } from '../../../../functions/simulator/cloud.js';
import { ensureKinds } from '../../../../functions/simulator/scenario/cluster-manifests.js';
import {
  podUnschedulableEnvelope,
  provisionerContext,
  provisioningRecord,
} from '../../../builders/provisioning-event.js';
import { pendingClaim } from '../../../unit/core/lifecycle/fakes.js';
import { RecordingLog } from '../../../unit/core/provisioning/fakes.js';
import { type SimProvisioning, startWithSeed } from '../../provisioning/sim-harness.js';
import { nodeBody, podBody } from '../kube/fixtures.js';
import { smallCatalog } from './small-catalog.js';

let cloud: SimulatedCloud | undefined;
let sim: SimProvisioning | undefined;

afterEach(async () => {
  await cloud?.close();
  await sim?.cloud.close();
  cloud = sim = undefined;
});

type Rule = { apiGroups: string[]; resources: string[]; verbs: string[] };

/** One object of each configuration kind whose status joiner writes. */
const CONFIG_KINDS = [
  ['joiner.sh/v1', 'NodePool'],
  ['joiner.sh/v1', 'NodeClass'],
  ['karpenter.sh/v1', 'NodePool'],
  ['karpenter.sh/v1alpha5', 'Provisioner'],
  ['karpenter.k8s.aws/v1', 'EC2NodeClass'],
  ['karpenter.k8s.aws/v1alpha1', 'AWSNodeTemplate'],
  ['karpenter.sh/v1alpha1', 'NodeOverlay'],
  // A karpenter.sh NodeClaim made by hand: joiner lists them and refuses them on their status.
  ['karpenter.sh/v1', 'NodeClaim'],
].map(([apiVersion, kind]) => ({
  apiVersion,
  kind,
  metadata: { name: `a-${kind.toLowerCase()}` },
  // What the CRDs' schemas require (joiner's NodePool needs its template).
  spec:
    kind === 'NodePool'
      ? {
          template: {
            spec: { nodeClassRef: { group: 'joiner.sh', kind: 'NodeClass', name: 'a-nodeclass' } },
          },
        }
      : {},
}));

/** Every `verb group resource` the installer's ClusterRole grants. */
function granted(): string[] {
  const rules = controllerClusterRole().rules as Rule[];
  return rules
    .flatMap((r) =>
      r.apiGroups.flatMap((g) =>
        r.resources.flatMap((res) => r.verbs.map((v) => `${v} ${g || '""'} ${res}`)),
      ),
    )
    .sort();
}

/** The Kubernetes username the controller role's access entry gives. */
function controllerUser(c: SimulatedCloud): string {
  const [, account, role] = /^arn:aws:iam::(\d+):role\/(.+)$/.exec(c.controllerRoleArn) ?? [];
  return `arn:aws:sts::${account}:assumed-role/${role}/joiner`;
}

function provisioningEvent(name: string, uid: string): SQSEvent {
  return { Records: [provisioningRecord('m1', podUnschedulableEnvelope(name, uid))] };
}

const context = provisionerContext;

describe("joiner's functions under the installer's RBAC", () => {
  it('every call of the Kubernetes adapter is allowed, and together they use every permission granted', async () => {
    cloud = await startSimulatedCloud({ seed: 2, catalog: smallCatalog });
    const admin = cloud.kube.store;
    await admin.create(nodeBody('n1'));
    await admin.create({ ...podBody('bound'), spec: { ...podBody('bound').spec, nodeName: 'n1' } });
    await admin.create({ ...podBody('doomed'), spec: { ...podBody('doomed').spec, nodeName: 'n1' } });
    await admin.create({
      ...podBody('pending'),
      spec: { ...podBody('pending').spec, nodeSelector: { zone: 'none' } },
    });
    const log = new RecordingLog();
    const api = createClusterApi(
      { kubeconfigPath: cloud.controllerKubeconfigPath },
      { log, clock: cloud.clock },
    );
    await api.listPendingPods();
    expect((await api.listPodsOnNode('n1')).map((p) => p.metadata.name).sort()).toEqual(['bound', 'doomed']);
    await api.listPodsOnNode();
    expect(await api.getPod('default', 'bound')).toBeDefined();
    expect((await api.listNodes()).map((n) => n.metadata.name)).toEqual(['n1']);
    expect(await api.getNode('n1')).toBeDefined();
    await api.listDaemonSets();
    await api.listPersistentVolumes();
    await api.listPersistentVolumeClaims();
    await api.listStorageClasses();
    await api.listPodDisruptionBudgets();
    await api.listNodePoolDocuments();
    await api.listNodeClassDocuments();
    // No NodeOverlay kind is served yet: the adapter reads none (a 404 is not an error).
    expect(await api.listNodeOverlayDocuments()).toEqual([]);
    await api.patchNode('n1', {
      labels: { 'joiner.sh/registered': 'true' },
      taints: [{ key: 'joiner.sh/disrupted', effect: 'NoSchedule' }],
    });
    await api.createEvents([
      { involvedObject: { kind: 'Node', name: 'n1' }, type: 'Normal', reason: 'Test', message: 'hello' },
    ]);
    expect(await api.evictPod('default', 'bound')).toBe('evicted');
    expect(await api.deletePod('default', 'doomed', 0)).toBe('deleted');
    await api.deleteNode('n1');
    // What kubectl shows: NodeClaim resources and the status of every configuration kind.
    for (const crd of [nodePoolCrd(), nodeClassCrd(), nodeClaimCrd()]) await admin.apply(crd);
    await ensureKinds(admin, CONFIG_KINDS);
    for (const m of CONFIG_KINDS) await admin.create(m);
    expect((await api.listNodeOverlayDocuments()).map((d) => d.metadata.name)).toEqual(['a-nodeoverlay']);
    expect((await api.listKarpenterNodeClaimDocuments?.())?.map((d) => d.metadata.name)).toEqual([
      'a-nodeclaim',
    ]);
    const claim = nodeClaimResource(pendingClaim('c1', 0));
    await api.applyNodeClaims([claim]);
    await api.applyNodeClaims([{ ...claim, status: { ...claim.status, nodeName: 'n1' } }]);
    expect((await api.listNodeClaims()).map((m) => m.name)).toEqual(['c1']);
    await api.deleteNodeClaims(['c1']);
    expect(await api.listNodeClaims()).toEqual([]);
    for (const m of CONFIG_KINDS) {
      await api.patchConfigStatus(
        { apiVersion: m.apiVersion, kind: m.kind, name: m.metadata.name },
        { ok: 'yes' },
      );
      const stored = admin.get(m.apiVersion, m.kind, m.metadata.name) as { status?: unknown };
      expect(stored.status).toEqual({ ok: 'yes' });
    }
    expect(log.lines.filter((e) => e.level === 'warn')).toEqual([]);
    expect(cloud.kube.problems().filter((p) => p.startsWith('forbidden'))).toEqual([]);
    expect(cloud.kube.authorizer.permissionsUsedBy(controllerUser(cloud))).toEqual(granted());
  });

  it('the controller identity is refused what the ClusterRole does not grant', async () => {
    cloud = await startSimulatedCloud({ seed: 2, catalog: smallCatalog });
    const kc = new KubeConfig();
    kc.loadFromFile(cloud.controllerKubeconfigPath);
    const error = await kc
      .makeApiClient(RbacAuthorizationV1Api)
      .listClusterRole()
      .catch((e: unknown) => e);
    expect((error as { code: number }).code).toBe(403);
    expect(cloud.kube.problems()).toEqual([
      `forbidden GET /apis/rbac.authorization.k8s.io/v1/clusterroles: clusterroles.rbac.authorization.k8s.io is forbidden: User "${controllerUser(cloud)}" cannot list resource "clusterroles" in API group "rbac.authorization.k8s.io" at the cluster scope`,
    ]);
  });

  it('without the Provisioners rule the provisioner run fails naming that rule and launches nothing; with it, it provisions', async () => {
    sim = await startWithSeed('examples/seed-004');
    const installed = controllerClusterRole();
    const rules = (installed.rules as Rule[]).map((r) =>
      r.apiGroups.includes('karpenter.sh')
        ? { ...r, resources: r.resources.filter((x) => x !== 'provisioners') }
        : r,
    );
    await sim.cloud.kube.store.apply({ ...installed, rules });
    const pods = sim.cloud.kube.store.api.list(sim.cloud.kube.store.api.typeOf('v1', 'Pod'), {
      namespace: 'default',
    }).items;
    const pod = pods[0].metadata;
    const handler = createProvisionerHandler(() => sim!.deps);
    await expect(handler(provisioningEvent(pod.name, pod.uid ?? ''), context())).rejects.toThrow(
      'joiner cannot list provisioners.karpenter.sh (403 Forbidden): the ClusterRole joiner-controller needs {apiGroups: [karpenter.sh], resources: [provisioners], verbs: [list]}',
    );
    expect(sim.liveInstances()).toEqual([]);
    expect(sim.cloud.kube.problems().some((p) => p.includes('cannot list resource "provisioners"'))).toBe(
      true,
    );

    await sim.cloud.kube.store.apply(installed);
    const response = await handler(provisioningEvent(pod.name, pod.uid ?? ''), context());
    expect(response).toEqual({ batchItemFailures: [] });
    expect(sim.liveInstances()).toHaveLength(4);
  });
});
