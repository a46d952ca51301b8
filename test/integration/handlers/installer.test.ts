import type { CdkCustomResourceEvent } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { kubeClients } from '../../../functions/adapters/kube/kube-clients.js';
import { KubeApiError } from '../../../functions/adapters/kube/kube-errors.js';
import { KubeManifestApplier, type ManifestApi } from '../../../functions/adapters/kube/manifest-applier.js';
import type { KubeManifest } from '../../../functions/core/install/kube-manifest.js';
import { joinerManifests, WEBHOOK_SECRET_PLACEHOLDER } from '../../../functions/core/install/manifests.js';
import { silentLog } from '../../../functions/core/ports/log.js';
import {
  ACCESS_ENTRY_DELAYS_MS,
  handleInstallerEvent,
  type InstallerDeps,
} from '../../../functions/handlers/installer.js';
import { type Harness, startHarness } from '../simulator/kube/fixtures.js';

const SECRET = 'installer-test-secret-0123456789';
const URL_BASE = 'https://abc123.lambda-url.us-west-2.on.aws/';

const poolsYaml = `apiVersion: joiner.sh/v1
kind: NodeClass
metadata:
  name: default
spec:
  role: joiner-node
  amiSelectorTerms:
    - alias: al2023@latest
---
apiVersion: joiner.sh/v1
kind: NodePool
metadata:
  name: default
spec:
  template:
    spec:
      nodeClassRef:
        group: joiner.sh
        kind: NodeClass
        name: default
      requirements: []
`;

const extraPoolYaml = `apiVersion: joiner.sh/v1
kind: NodePool
metadata:
  name: gpu
spec:
  template:
    spec:
      nodeClassRef:
        group: joiner.sh
        kind: NodeClass
        name: default
      requirements: []
`;

/** Install properties; joiner's own NodePool kind (these documents') exists with `karpenterKinds: ignore`. */
function properties(
  documents: { file: string; content: string }[],
  karpenterKinds: 'manage' | 'ignore' = 'ignore',
) {
  return {
    ServiceToken: 'arn:aws:lambda:us-west-2:111111111111:function:provider',
    ClusterName: 'prod',
    Manifests: JSON.stringify(
      joinerManifests({ webhookUrl: `${URL_BASE}${WEBHOOK_SECRET_PLACEHOLDER}`, karpenterKinds }),
    ),
    Documents: JSON.stringify(documents),
    WebhookSecretArn: 'arn:aws:secretsmanager:us-west-2:111111111111:secret:webhook',
  };
}

function event(
  type: 'Create' | 'Update' | 'Delete',
  props: ReturnType<typeof properties>,
  old?: ReturnType<typeof properties>,
): CdkCustomResourceEvent {
  const common = {
    ServiceToken: props.ServiceToken,
    ResponseURL: 'https://cloudformation-custom-resource-response.invalid/',
    StackId: 'arn:aws:cloudformation:us-west-2:111111111111:stack/joiner/1',
    RequestId: 'req-1',
    LogicalResourceId: 'Install',
    ResourceType: 'Custom::JoinerClusterInstall',
    ResourceProperties: props,
  };
  if (type === 'Create') return { ...common, RequestType: 'Create' };
  if (type === 'Update')
    return {
      ...common,
      RequestType: 'Update',
      PhysicalResourceId: 'joiner-install-prod',
      OldResourceProperties: old ?? props,
    };
  return { ...common, RequestType: 'Delete', PhysicalResourceId: 'joiner-install-prod' };
}

describe('installer handler against the simulated API server', () => {
  let h: Harness;
  let deletions: string[];
  let deps: InstallerDeps;

  beforeEach(async () => {
    h = await startHarness();
    deletions = [];
    const applier = new KubeManifestApplier(async () => kubeClients(h.kc), {
      log: silentLog,
      retryDelayMs: 1,
    });
    const recording: ManifestApi = {
      apply: (m) => applier.apply(m),
      delete: async (m: KubeManifest) => {
        deletions.push(`${m.kind}/${m.metadata.name}`);
        return applier.delete(m);
      },
      get: (m) => applier.get(m),
    };
    deps = { log: silentLog, manifests: () => recording, secret: async () => SECRET };
  });
  afterEach(async () => {
    await h.sim.close();
  });

  const get = (apiVersion: string, kind: string, name: string) => h.sim.store.get(apiVersion, kind, name);

  it('installs CRDs, RBAC, the webhook with its secret and the NodePools, the same on a second run', async () => {
    const props = properties([{ file: 'pools.yaml', content: poolsYaml }]);
    const first = await handleInstallerEvent(deps, event('Create', props));
    expect(first.PhysicalResourceId).toBe('joiner-install-prod');

    const webhook = get(
      'admissionregistration.k8s.io/v1',
      'ValidatingWebhookConfiguration',
      'joiner',
    ) as unknown as {
      webhooks: { clientConfig: { url: string } }[];
    };
    expect(webhook.webhooks.map((w) => w.clientConfig.url)).toEqual(
      webhook.webhooks.map(() => `${URL_BASE}${SECRET}`),
    );
    expect(get('apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'nodepools.joiner.sh')).toBeDefined();
    expect(get('joiner.sh/v1', 'NodePool', 'default')).toBeDefined();
    expect(get('joiner.sh/v1', 'NodeClass', 'default')).toBeDefined();

    const second = await handleInstallerEvent(deps, event('Update', props));
    expect(second.PhysicalResourceId).toBe(first.PhysicalResourceId);
    expect(second.Data).toEqual(first.Data);
    expect(h.sim.store.list('joiner.sh/v1', 'NodePool')).toHaveLength(1);
    expect(deletions).toEqual([]);
  });

  /** The API server refusing the installer's first `refusals` calls with `status`, as while a new access entry propagates. */
  function refusing(status: 401 | 403, refusals: number): { deps: InstallerDeps; waits: number[] } {
    const waits: number[] = [];
    let left = refusals;
    const api = deps.manifests('prod');
    const refused = (): never => {
      left--;
      throw new KubeApiError(
        'POST /apis/apiextensions.k8s.io/v1/customresourcedefinitions',
        status,
        status === 401
          ? 'Unauthorized'
          : 'forbidden: User "arn:aws:sts::111111111111:assumed-role/installer" cannot create resource',
      );
    };
    const gated: ManifestApi = {
      apply: async (m) => (left > 0 ? refused() : api.apply(m)),
      delete: async (m) => (left > 0 ? refused() : api.delete(m)),
      get: async (m) => (left > 0 ? refused() : api.get(m)),
    };
    return {
      waits,
      deps: { ...deps, manifests: () => gated, sleep: async (ms) => void waits.push(ms) },
    };
  }

  it('waits, with backoff, while a just-created access entry is not honoured yet (401, then 403)', async () => {
    for (const status of [401, 403] as const) {
      const { deps: waiting, waits } = refusing(status, 3);
      const props = properties([{ file: 'pools.yaml', content: poolsYaml }]);
      await expect(handleInstallerEvent(waiting, event('Create', props))).resolves.toMatchObject({
        PhysicalResourceId: 'joiner-install-prod',
      });
      expect(waits).toEqual(ACCESS_ENTRY_DELAYS_MS.slice(0, 3));
      expect(get('joiner.sh/v1', 'NodePool', 'default')).toBeDefined();
    }
  });

  it('gives up after the bounded waits, with the API server’s answer', async () => {
    const { deps: waiting, waits } = refusing(401, 100);
    await expect(handleInstallerEvent(waiting, event('Create', properties([])))).rejects.toThrow(/HTTP 401/);
    expect(waits).toEqual([...ACCESS_ENTRY_DELAYS_MS]);
  });

  it('removes documents an update dropped', async () => {
    const before = properties([
      { file: 'pools.yaml', content: poolsYaml },
      { file: 'gpu.yaml', content: extraPoolYaml },
    ]);
    await handleInstallerEvent(deps, event('Create', before));
    expect(get('joiner.sh/v1', 'NodePool', 'gpu')).toBeDefined();
    const after = properties([{ file: 'pools.yaml', content: poolsYaml }]);
    await handleInstallerEvent(deps, event('Update', after, before));
    expect(get('joiner.sh/v1', 'NodePool', 'gpu')).toBeUndefined();
    expect(get('joiner.sh/v1', 'NodePool', 'default')).toBeDefined();
  });

  it("an update that stops installing joiner's NodePool kind (karpenterKinds ignore -> manage) leaves its CRD and objects in place", async () => {
    const before = properties([{ file: 'pools.yaml', content: poolsYaml }], 'ignore');
    await handleInstallerEvent(deps, event('Create', before));
    expect(get('joiner.sh/v1', 'NodePool', 'default')).toBeDefined();
    const after = properties([{ file: 'karpenter.yaml', content: karpenterPoolYaml('In') }], 'manage');
    await handleInstallerEvent(deps, event('Update', after, before));
    expect(deletions).not.toContain('CustomResourceDefinition/nodepools.joiner.sh');
    expect(get('apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'nodepools.joiner.sh')).toBeDefined();
    expect(get('karpenter.sh/v1', 'NodePool', 'spot')).toBeDefined();
    // The documents the update dropped still go (here the NodeClass and NodePool of pools.yaml).
    expect(deletions).toContain('NodePool/default');
  });

  it('deletes the webhook configuration first, then everything else, and tolerates a second delete', async () => {
    const props = properties([{ file: 'pools.yaml', content: poolsYaml }]);
    await handleInstallerEvent(deps, event('Create', props));
    const result = await handleInstallerEvent(deps, event('Delete', props));
    expect(result.PhysicalResourceId).toBe('joiner-install-prod');
    expect(deletions[0]).toBe('ValidatingWebhookConfiguration/joiner');
    expect(
      get('admissionregistration.k8s.io/v1', 'ValidatingWebhookConfiguration', 'joiner'),
    ).toBeUndefined();
    expect(get('apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'nodepools.joiner.sh')).toBeUndefined();
    expect(get('rbac.authorization.k8s.io/v1', 'ClusterRole', 'joiner-controller')).toBeUndefined();
    await expect(handleInstallerEvent(deps, event('Delete', props))).resolves.toMatchObject({
      PhysicalResourceId: 'joiner-install-prod',
    });
  });

  const karpenterPoolYaml = (operator: string) => `apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: spot
spec:
  template:
    spec:
      nodeClassRef:
        group: karpenter.k8s.aws
        kind: EC2NodeClass
        name: default
      requirements:
        - key: karpenter.sh/capacity-type
          operator: ${operator}
          values: [spot]
`;
  const KARPENTER_CRDS = [
    'nodepools.karpenter.sh',
    'ec2nodeclasses.karpenter.k8s.aws',
    'nodeoverlays.karpenter.sh',
  ];
  const crd = (name: string) =>
    get('apiextensions.k8s.io/v1', 'CustomResourceDefinition', name) as unknown as
      | { metadata: { labels?: Record<string, string>; resourceVersion: string }; spec: unknown }
      | undefined;

  it("installs Karpenter's CRDs where Karpenter is absent, so Karpenter YAML applies (and bad YAML is refused)", async () => {
    const props = properties([{ file: 'karpenter.yaml', content: karpenterPoolYaml('In') }]);
    await handleInstallerEvent(deps, event('Create', props));
    for (const name of KARPENTER_CRDS) {
      expect(crd(name)?.metadata.labels).toMatchObject({ 'app.kubernetes.io/managed-by': 'joiner' });
    }
    expect(get('karpenter.sh/v1', 'NodePool', 'spot')).toBeDefined();
    expect(JSON.stringify(crd('nodepools.karpenter.sh')?.spec)).toContain('"enum":["In","NotIn"');
    const bad = properties([{ file: 'karpenter.yaml', content: karpenterPoolYaml('Inn') }]);
    await expect(handleInstallerEvent(deps, event('Update', bad, props))).rejects.toThrow(
      /spec\.template\.spec\.requirements\[0\]\.operator: Unsupported value: "Inn"/,
    );
    // joiner installed them, so removing joiner removes them.
    await handleInstallerEvent(deps, event('Delete', props));
    for (const name of KARPENTER_CRDS) expect(crd(name)).toBeUndefined();
  });

  it("leaves Karpenter's own CRDs as Karpenter installed them, through create, update and delete", async () => {
    const karpenters = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'nodepools.karpenter.sh', labels: { 'app.kubernetes.io/managed-by': 'Helm' } },
      spec: {
        group: 'karpenter.sh',
        scope: 'Cluster',
        names: { plural: 'nodepools', singular: 'nodepool', kind: 'NodePool', listKind: 'NodePoolList' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            subresources: { status: {} },
            schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
          },
        ],
      },
    };
    await h.sim.store.create(karpenters);
    const before = crd('nodepools.karpenter.sh');
    const props = properties([{ file: 'karpenter.yaml', content: karpenterPoolYaml('In') }]);
    await handleInstallerEvent(deps, event('Create', props));
    await handleInstallerEvent(deps, event('Update', props));
    expect(crd('nodepools.karpenter.sh')).toEqual(before);
    // The kinds Karpenter did not install are joiner's to add.
    expect(crd('ec2nodeclasses.karpenter.k8s.aws')?.metadata.labels).toMatchObject({
      'app.kubernetes.io/managed-by': 'joiner',
    });
    expect(get('karpenter.sh/v1', 'NodePool', 'spot')).toBeDefined();
    await handleInstallerEvent(deps, event('Delete', props));
    expect(crd('nodepools.karpenter.sh')).toEqual(before);
    expect(deletions).not.toContain('CustomResourceDefinition/nodepools.karpenter.sh');
    expect(crd('ec2nodeclasses.karpenter.k8s.aws')).toBeUndefined();
  });

  it('fails with an error naming the file and document that is wrong', async () => {
    const props = properties([
      { file: 'bad.yaml', content: 'apiVersion: joiner.sh/v1\nkind: NodePool\nmetadata: {}\n' },
    ]);
    await expect(handleInstallerEvent(deps, event('Create', props))).rejects.toThrow(
      /bad\.yaml document 1 \(NodePool\): metadata\.name is missing/,
    );
    await expect(handleInstallerEvent(deps, event('Create', { ...props, Manifests: '[{' }))).rejects.toThrow(
      /property Manifests is not JSON/,
    );
  });
});
