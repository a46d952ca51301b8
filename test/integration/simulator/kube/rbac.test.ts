import { ApiException, CoreV1Api, CustomObjectsApi, KubeConfig, VersionApi } from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, nodeBody, podBody, startHarness } from './fixtures.js';

const ROLE = 'arn:aws:iam::111122223333:role/team';
const USER = 'arn:aws:sts::111122223333:assumed-role/team/joiner';

let h: Harness;

beforeEach(async () => {
  h = await startHarness();
});

afterEach(async () => {
  await h.sim.close();
});

/** A client-node config acting as `ROLE` mapped to `groups` by its access entry. */
function configAs(groups: string[]): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromString(h.sim.kubeconfig({ principalArn: ROLE, kubernetesGroups: groups }));
  return kc;
}

async function statusOf(call: Promise<unknown>): Promise<{ code: number; status: Record<string, unknown> }> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiException);
  const e = error as ApiException<string>;
  return { code: e.code, status: JSON.parse(String(e.body)) };
}

async function grant(
  rules: Record<string, unknown>[],
  bind: { kind: 'ClusterRoleBinding' } | { kind: 'RoleBinding'; namespace: string },
): Promise<void> {
  await h.sim.store.apply({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: 'team' },
    rules,
  });
  await h.sim.store.apply({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: bind.kind,
    metadata: { name: 'team', ...(bind.kind === 'RoleBinding' ? { namespace: bind.namespace } : {}) },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'team' },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'team' }],
  });
}

describe('RBAC in the simulated API server', () => {
  it('answers 403 Forbidden with a Status to a client whose group has no binding', async () => {
    await h.core.createNode({ body: nodeBody('n1') });
    const core = configAs(['team']).makeApiClient(CoreV1Api);
    const denied = await statusOf(core.patchNode({ name: 'n1', body: { metadata: { labels: { a: 'b' } } } }));
    expect(denied).toEqual({
      code: 403,
      status: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        reason: 'Forbidden',
        message: `nodes "n1" is forbidden: User "${USER}" cannot patch resource "nodes" in API group "" at the cluster scope`,
        details: { group: '', kind: 'nodes', name: 'n1' },
        code: 403,
      },
    });
    expect((await statusOf(core.listNode())).code).toBe(403);
    // Discovery stays readable by every authenticated user; the admin is unaffected.
    expect((await configAs(['team']).makeApiClient(VersionApi).getCode()).gitVersion).toBeDefined();
    expect((await h.core.listNode()).items).toHaveLength(1);
    expect(h.sim.problems()).toContain(`forbidden PATCH /api/v1/nodes/n1: ${denied.status.message}`);
  });

  it('answers 401 Unauthorized to a token no access entry gave, and to none', async () => {
    for (const headers of [{ Authorization: 'Bearer k8s-aws-v1.forged' }, {}] as Record<string, string>[]) {
      const response = await fetch(`${h.sim.url}/api/v1/nodes`, { headers });
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ kind: 'Status', code: 401, reason: 'Unauthorized' });
    }
  });

  it('authorizes before routing: a resource that is not served is 403 without a rule, 404 with one', async () => {
    const custom = configAs(['team']).makeApiClient(CustomObjectsApi);
    const list = () =>
      custom.listClusterCustomObject({ group: 'karpenter.sh', version: 'v1', plural: 'nodepools' });
    const denied = await statusOf(list());
    expect(denied.code).toBe(403);
    expect(denied.status.message).toBe(
      `nodepools.karpenter.sh is forbidden: User "${USER}" cannot list resource "nodepools" in API group "karpenter.sh" at the cluster scope`,
    );
    await grant([{ apiGroups: ['karpenter.sh'], resources: ['nodepools'], verbs: ['list'] }], {
      kind: 'ClusterRoleBinding',
    });
    expect((await statusOf(list())).code).toBe(404);
  });

  it('grants through a RoleBinding in its namespace only, and a subresource only when named', async () => {
    await h.core.createNamespace({ body: { metadata: { name: 'team' } } });
    await h.core.createNamespacedPod({
      namespace: 'team',
      body: { ...podBody('p1'), metadata: { name: 'p1', namespace: 'team' } },
    });
    await grant([{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'create'] }], {
      kind: 'RoleBinding',
      namespace: 'team',
    });
    const kc = configAs(['team']);
    const core = kc.makeApiClient(CoreV1Api);
    expect((await core.listNamespacedPod({ namespace: 'team' })).items.map((p) => p.metadata?.name)).toEqual([
      'p1',
    ]);
    const elsewhere = await statusOf(core.listNamespacedPod({ namespace: 'default' }));
    expect(elsewhere.status.message).toBe(
      `pods is forbidden: User "${USER}" cannot list resource "pods" in API group "" in the namespace "default"`,
    );
    expect((await statusOf(core.listPodForAllNamespaces())).code).toBe(403);
    const denied = await statusOf(
      core.createNamespacedPodEviction({
        name: 'p1',
        namespace: 'team',
        body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'p1', namespace: 'team' } },
      }),
    );
    expect(denied.status.message).toBe(
      `pods "p1" is forbidden: User "${USER}" cannot create resource "pods/eviction" in API group "" in the namespace "team"`,
    );
  });
});
