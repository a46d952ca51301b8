import { describe, expect, it } from 'vitest';
import {
  joinerManifests,
  WEBHOOK_SECRET_PLACEHOLDER,
  withWebhookSecret,
} from '../../../../functions/core/install/index.js';

const byKind = (kind: string) =>
  joinerManifests({ webhookUrl: 'https://hook.example/x', karpenterKinds: 'ignore' }).filter(
    (m) => m.kind === kind,
  );

describe('joinerManifests', () => {
  it('installs CRDs first and the webhook configuration last', () => {
    const kinds = joinerManifests({ webhookUrl: 'https://hook.example/x' }).map((m) => m.kind);
    expect(kinds).toEqual([
      ...Array(5).fill('CustomResourceDefinition'),
      'ClusterRole',
      'ClusterRoleBinding',
      'ValidatingWebhookConfiguration',
    ]);
  });

  it("installs joiner's own NodePool kind only beside a Karpenter that keeps Karpenter's kinds (karpenterKinds: ignore), so one `nodepools` resource lists every pool joiner manages", () => {
    const crdNames = (karpenterKinds?: 'manage' | 'ignore') =>
      joinerManifests({ webhookUrl: 'https://hook.example/x', karpenterKinds })
        .filter((m) => m.kind === 'CustomResourceDefinition')
        .map((m) => m.metadata.name);
    for (const names of [crdNames(), crdNames('manage')]) {
      expect(names.filter((n) => n.startsWith('nodepools.'))).toEqual(['nodepools.karpenter.sh']);
      expect(names).toContain('nodeclasses.joiner.sh');
    }
    expect(crdNames('ignore').filter((n) => n.startsWith('nodepools.'))).toEqual([
      'nodepools.karpenter.sh',
      'nodepools.joiner.sh',
    ]);
  });

  it("defines cluster-scoped v1 CRDs for NodePool, NodeClass and NodeClaim in joiner.sh, then Karpenter's", () => {
    const all = byKind('CustomResourceDefinition');
    expect(all.map((c) => c.metadata.name)).toEqual([
      'nodepools.karpenter.sh',
      'ec2nodeclasses.karpenter.k8s.aws',
      'nodeoverlays.karpenter.sh',
      'nodepools.joiner.sh',
      'nodeclasses.joiner.sh',
      'nodeclaims.joiner.sh',
    ]);
    const crds = all.slice(3);
    for (const crd of crds) {
      type Version = { name: string; schema: { openAPIV3Schema: { properties: Record<string, object> } } };
      const spec = crd.spec as { scope: string; group: string; versions: Version[] };
      expect(spec.scope).toBe('Cluster');
      expect(spec.group).toBe('joiner.sh');
      expect(spec.versions).toEqual([expect.objectContaining({ name: 'v1', served: true, storage: true })]);
      const schema = spec.versions[0].schema.openAPIV3Schema;
      expect(schema.properties.spec).toHaveProperty('type', 'object');
    }
    const nodeClass = JSON.stringify(crds[1]);
    expect(nodeClass).toContain('multusInterfaces');
  });

  it("serves Karpenter's kinds in the versions current Karpenter serves (v1; no v1beta1 since v1.1), with Karpenter's names", () => {
    type Spec = {
      names: { shortNames: string[]; categories: string[] };
      versions: { name: string; served: boolean; storage: boolean }[];
    };
    const crds = byKind('CustomResourceDefinition');
    const spec = (name: string) => crds.find((c) => c.metadata.name === name)?.spec as Spec;
    const served = (name: string) =>
      spec(name)
        .versions.filter((v) => v.served)
        .map((v) => v.name);
    expect(served('nodepools.karpenter.sh')).toEqual(['v1']);
    expect(served('ec2nodeclasses.karpenter.k8s.aws')).toEqual(['v1']);
    expect(served('nodeoverlays.karpenter.sh')).toEqual(['v1alpha1']);
    expect(spec('ec2nodeclasses.karpenter.k8s.aws').names.shortNames).toEqual(['ec2nc', 'ec2ncs']);
    expect(spec('nodeoverlays.karpenter.sh').names.shortNames).toEqual(['overlays']);
    // One category lists both groups' objects: `kubectl get karpenter` (and, where joiner installed
    // Karpenter's CRDs, `kubectl get joiner`).
    for (const crd of crds)
      expect(spec(crd.metadata.name).names.categories.sort()).toEqual(['joiner', 'karpenter']);
  });

  it("names NodeClaims in joiner's own group, never Karpenter's, with Karpenter's columns", () => {
    const claims = byKind('CustomResourceDefinition')[5];
    type Column = { name: string; jsonPath: string; priority?: number };
    const spec = claims.spec as {
      group: string;
      names: { kind: string };
      versions: { additionalPrinterColumns: Column[]; subresources?: unknown }[];
    };
    expect(spec.group).toBe('joiner.sh');
    expect(spec.group).not.toBe('karpenter.sh');
    expect(spec.names.kind).toBe('NodeClaim');
    const columns = spec.versions[0].additionalPrinterColumns;
    expect(columns.filter((c) => !c.priority).map((c) => c.name)).toEqual([
      'Type',
      'Capacity',
      'Zone',
      'Node',
      'Ready',
      'Age',
    ]);
    expect(columns.find((c) => c.name === 'Type')?.jsonPath).toBe(
      '.metadata.labels.node\\.kubernetes\\.io/instance-type',
    );
    // One request writes the whole object (the mirror has no status subresource).
    expect(spec.versions[0].subresources).toBeUndefined();
  });

  it('binds the controller ClusterRole to the Lambda group, default or chosen', () => {
    const [binding] = byKind('ClusterRoleBinding');
    expect(binding.subjects).toEqual([
      expect.objectContaining({ kind: 'Group', name: 'joiner-controllers' }),
    ]);
    const custom = joinerManifests({ webhookUrl: 'https://h.example/', lambdaGroup: 'my-joiner' });
    expect(custom.find((m) => m.kind === 'ClusterRoleBinding')?.subjects).toEqual([
      expect.objectContaining({ name: 'my-joiner' }),
    ]);
    const [role] = byKind('ClusterRole');
    const rules = role.rules as { resources: string[]; verbs: string[] }[];
    expect(rules.some((r) => r.resources.includes('pods/eviction') && r.verbs.includes('create'))).toBe(true);
    expect(rules.every((r) => !r.verbs.includes('*') && !r.resources.includes('*'))).toBe(true);
  });

  it('configures every webhook to observe without ever blocking the API server', () => {
    const [config] = byKind('ValidatingWebhookConfiguration');
    const webhooks = config.webhooks as Record<string, unknown>[];
    expect(webhooks).toHaveLength(6);
    for (const w of webhooks) {
      expect(w).toMatchObject({
        failurePolicy: 'Ignore',
        timeoutSeconds: 2,
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
        clientConfig: { url: 'https://hook.example/x' },
      });
      expect((w.matchConditions as unknown[]).length).toBeGreaterThan(0);
      expect(w.clientConfig).not.toHaveProperty('caBundle');
    }
    const rules = webhooks.flatMap((w) => w.rules as { operations: string[]; resources: string[] }[]);
    const pairs = rules.flatMap((r) =>
      r.resources.flatMap((res) => r.operations.map((op) => `${res} ${op}`)),
    );
    expect(new Set(pairs)).toEqual(
      new Set([
        'pods/status UPDATE',
        'nodes CREATE',
        'nodes UPDATE',
        'nodes/status UPDATE',
        'pods DELETE',
        'nodes DELETE',
        'nodeclaims DELETE',
        // karpenter.sh NodeClaims created (joiner refuses those made by hand at once).
        'nodeclaims CREATE',
        'nodepools/scale UPDATE',
        ...['nodepools', 'provisioners', 'nodeclasses', 'ec2nodeclasses', 'awsnodetemplates'].flatMap((r) => [
          `${r} CREATE`,
          `${r} UPDATE`,
        ]),
      ]),
    );
  });

  it('adds the caBundle when given', () => {
    const [config] = joinerManifests({ webhookUrl: 'https://h.example/', caBundle: 'TUlJQ0FURQ==' }).filter(
      (m) => m.kind === 'ValidatingWebhookConfiguration',
    );
    for (const w of config.webhooks as { clientConfig: { caBundle?: string } }[]) {
      expect(w.clientConfig.caBundle).toBe('TUlJQ0FURQ==');
    }
  });

  it('rejects bad input with an error naming the field', () => {
    expect(() => joinerManifests({ webhookUrl: 'http://hook.example/' })).toThrow(/webhookUrl .* https/);
    expect(() => joinerManifests({ webhookUrl: 'not a url' })).toThrow(/webhookUrl/);
    expect(() => joinerManifests({ webhookUrl: 'https://h.example/?a=1' })).toThrow(/query/);
    expect(() => joinerManifests({ webhookUrl: 'https://h.example/', caBundle: 'not base64!' })).toThrow(
      /caBundle/,
    );
    expect(() =>
      joinerManifests({ webhookUrl: 'https://h.example/', lambdaGroup: 'system:masters' }),
    ).toThrow(/lambdaGroup/);
  });
});

describe('withWebhookSecret', () => {
  it('fills the secret into every webhook URL and nowhere else', () => {
    const manifests = joinerManifests({ webhookUrl: `https://h.example/${WEBHOOK_SECRET_PLACEHOLDER}` });
    const filled = withWebhookSecret(manifests, 'abcdefghijklmnop1234');
    const text = JSON.stringify(filled);
    expect(text).not.toContain(WEBHOOK_SECRET_PLACEHOLDER);
    expect(text.split('https://h.example/abcdefghijklmnop1234').length - 1).toBe(6);
    expect(JSON.stringify(manifests)).toContain(WEBHOOK_SECRET_PLACEHOLDER);
  });

  it('rejects a secret that is short or not URL-safe', () => {
    expect(() => withWebhookSecret([], 'short')).toThrow(/webhook secret/);
    expect(() => withWebhookSecret([], 'has/slash/and/more/chars')).toThrow(/URL-safe/);
  });
});
