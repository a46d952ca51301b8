/**
 * Every field of Karpenter's CRDs (test/fixtures/karpenter-fields.json, derived from the CRDs of
 * kubernetes-sigs/karpenter and aws/karpenter-provider-aws) is either implemented by joiner —
 * its schema knows the field and a pointer names where it takes effect — or refused with an
 * error naming it. A field added to the fixture from a newer CRD fails here until it is one or
 * the other, so no Karpenter field is accepted and ignored.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { structuralSchema } from '../../../../../functions/core/install/crd-schema/structural-schema.js';
import { unimplementedKarpenterField } from '../../../../../functions/core/model/config/karpenter-fields.js';
import { loadDocuments } from '../../../../../functions/core/model/config/load.js';
import { ec2NodeClassV1, nodePoolV1 } from '../../../../../functions/core/model/config/schema/v1.js';
import { nodeOverlayV1alpha1 } from '../../../../../functions/core/model/config/schema/v1alpha1-overlay.js';
import {
  awsNodeTemplateV1alpha1,
  provisionerV1alpha5,
} from '../../../../../functions/core/model/config/schema/v1alpha5.js';
import {
  ec2NodeClassV1beta1,
  nodePoolV1beta1,
} from '../../../../../functions/core/model/config/schema/v1beta1.js';
import { namedInBackticks, readmeNotSupported } from '../../../../helpers/readme-not-supported.js';

interface Fixture {
  readonly kinds: Readonly<Record<string, readonly string[]>>;
}
const fixture = JSON.parse(
  readFileSync(new URL('../../../../fixtures/karpenter-fields.json', import.meta.url), 'utf8'),
) as Fixture;

const SCHEMAS: Record<string, () => z.ZodType> = {
  'karpenter.sh/v1 NodePool': nodePoolV1,
  'karpenter.sh/v1alpha1 NodeOverlay': nodeOverlayV1alpha1,
  'karpenter.k8s.aws/v1 EC2NodeClass': ec2NodeClassV1,
  'karpenter.sh/v1beta1 NodePool': nodePoolV1beta1,
  'karpenter.k8s.aws/v1beta1 EC2NodeClass': ec2NodeClassV1beta1,
  'karpenter.sh/v1alpha5 Provisioner': provisionerV1alpha5,
  'karpenter.k8s.aws/v1alpha1 AWSNodeTemplate': awsNodeTemplateV1alpha1,
};

/**
 * Where each implemented field (or the nearest listed ancestor) takes effect: a file that names
 * the field. Fields joiner's schema knows but refuses at validate are listed in REFUSED_AT_VALIDATE.
 */
const POINTERS: Record<string, Record<string, string>> = {
  'karpenter.sh/v1 NodePool': {
    'spec.disruption.budgets': 'functions/core/disruption/budgets.ts',
    'spec.disruption.budgets[].schedule': 'functions/core/model/config/cron.ts',
    'spec.disruption.consolidateAfter': 'functions/core/model/config/convert-node-pool.ts',
    'spec.disruption.consolidationPolicy': 'functions/core/disruption/consolidation/candidates.ts',
    'spec.disruption': 'functions/core/disruption/decide.ts',
    'spec.limits': 'functions/core/scheduling/pool-context.ts',
    'spec.replicas': 'functions/core/model/config/static-capacity.ts',
    'spec.weight': 'functions/core/scheduling/pool-context.ts',
    'spec.template': 'functions/core/model/config/convert-node-pool.ts',
    'spec.template.metadata.annotations': 'functions/core/model/config/convert-node-pool.ts',
    'spec.template.metadata.labels': 'functions/core/lifecycle/node-labels.ts',
    'spec.template.spec.expireAfter': 'functions/core/disruption/expiration.ts',
    'spec.template.spec.nodeClassRef': 'functions/core/model/config/cross-check.ts',
    'spec.template.spec.requirements': 'functions/core/scheduling/pool-context.ts',
    'spec.template.spec.requirements[].minValues': 'functions/core/scheduling/finalize.ts',
    'spec.template.spec.startupTaints': 'functions/core/scheduling/finalize.ts',
    'spec.template.spec.taints': 'functions/core/scheduling/pool-context.ts',
    'spec.template.spec.taints[].timeAdded': 'functions/core/model/config/convert-common.ts',
    'spec.template.spec.startupTaints[].timeAdded': 'functions/core/model/config/convert-common.ts',
    'spec.template.spec.terminationGracePeriod': 'functions/core/model/config/convert-node-pool.ts',
  },
  'karpenter.sh/v1alpha1 NodeOverlay': {
    'spec.capacity': 'functions/core/scheduling/node-overlays.ts',
    'spec.price': 'functions/core/scheduling/node-overlays.ts',
    'spec.priceAdjustment': 'functions/core/model/node-overlay.ts',
    'spec.requirements': 'functions/core/scheduling/node-overlays.ts',
    'spec.weight': 'functions/core/scheduling/node-overlays.ts',
  },
  'karpenter.k8s.aws/v1 EC2NodeClass': {
    'spec.amiFamily': 'functions/core/model/ami-family.ts',
    'spec.amiSelectorTerms': 'functions/core/model/config/convert-node-class.ts',
    'spec.amiSelectorTerms[].ssmParameter': 'functions/core/launch/ami-variant.ts',
    'spec.associatePublicIPAddress': 'functions/core/launch/launch-template.ts',
    'spec.blockDeviceMappings': 'functions/core/launch/launch-template.ts',
    'spec.blockDeviceMappings[].rootVolume': 'functions/core/catalog/root-volume.ts',
    'spec.capacityReservationSelectorTerms': 'functions/core/model/config/convert-node-class.ts',
    'spec.capacityReservationSelectorTerms[].ownerID': 'functions/core/status/capacity-reservation-status.ts',
    'spec.capacityReservationSelectorTerms[].instanceMatchCriteria':
      'functions/core/status/capacity-reservation-status.ts',
    'spec.detailedMonitoring': 'functions/core/launch/launch-template.ts',
    'spec.instanceProfile': 'functions/core/launch/launch-template.ts',
    'spec.instanceStorePolicy': 'functions/core/catalog/allocatable.ts',
    'spec.kubelet': 'functions/core/launch/user-data-al2023.ts',
    'spec.kubelet.kubeReserved': 'functions/core/catalog/allocatable.ts',
    'spec.kubelet.systemReserved': 'functions/core/catalog/allocatable.ts',
    'spec.kubelet.evictionHard': 'functions/core/catalog/allocatable.ts',
    'spec.kubelet.evictionSoftGracePeriod': 'functions/core/launch/user-data-bottlerocket.ts',
    'spec.metadataOptions': 'functions/core/launch/launch-template.ts',
    'spec.role': 'functions/core/launch/node-role.ts',
    'spec.securityGroupSelectorTerms': 'functions/core/model/config/convert-node-class.ts',
    'spec.subnetSelectorTerms': 'functions/core/model/config/convert-node-class.ts',
    'spec.tags': 'functions/core/launch/tags.ts',
    'spec.userData': 'functions/core/launch/user-data.ts',
  },
};

const KUBELET_POINTERS = (at: string, file: string): Record<string, string> => ({
  [at]: file,
  [`${at}.kubeReserved`]: 'functions/core/catalog/allocatable.ts',
  [`${at}.systemReserved`]: 'functions/core/catalog/allocatable.ts',
  [`${at}.evictionHard`]: 'functions/core/catalog/allocatable.ts',
  [`${at}.evictionSoftGracePeriod`]: 'functions/core/launch/user-data-bottlerocket.ts',
});

/** The AWS provider fields of v1alpha5 (a Provisioner's `provider`, an AWSNodeTemplate's `spec`). */
const PROVIDER_POINTERS = (at: string): Record<string, string> => ({
  [`${at}.amiFamily`]: 'functions/core/model/ami-family.ts',
  [`${at}.amiSelector`]: 'functions/core/model/config/convert-provisioner.ts',
  [`${at}.blockDeviceMappings`]: 'functions/core/launch/launch-template.ts',
  [`${at}.detailedMonitoring`]: 'functions/core/launch/launch-template.ts',
  [`${at}.instanceProfile`]: 'functions/core/launch/launch-template.ts',
  [`${at}.metadataOptions`]: 'functions/core/launch/launch-template.ts',
  [`${at}.securityGroupSelector`]: 'functions/core/model/config/convert-provisioner.ts',
  [`${at}.subnetSelector`]: 'functions/core/model/config/convert-provisioner.ts',
  [`${at}.tags`]: 'functions/core/launch/tags.ts',
  [`${at}.userData`]: 'functions/core/launch/user-data.ts',
});

const V1_POOL = POINTERS['karpenter.sh/v1 NodePool'];
POINTERS['karpenter.sh/v1beta1 NodePool'] = {
  ...V1_POOL,
  'spec.disruption.expireAfter': 'functions/core/model/config/convert-node-pool.ts',
  'spec.template.spec.nodeClassRef': 'functions/core/model/config/convert-node-pool.ts',
  ...KUBELET_POINTERS('spec.template.spec.kubelet', 'functions/core/model/config/convert-node-pool.ts'),
};
POINTERS['karpenter.k8s.aws/v1beta1 EC2NodeClass'] = POINTERS['karpenter.k8s.aws/v1 EC2NodeClass'];
POINTERS['karpenter.sh/v1alpha5 Provisioner'] = {
  'spec.annotations': 'functions/core/model/config/convert-provisioner.ts',
  'spec.consolidation': 'functions/core/model/config/convert-provisioner.ts',
  'spec.labels': 'functions/core/lifecycle/node-labels.ts',
  'spec.limits': 'functions/core/scheduling/pool-context.ts',
  'spec.provider': 'functions/core/model/config/convert-provisioner.ts',
  'spec.providerRef': 'functions/core/model/config/convert-provisioner.ts',
  'spec.requirements': 'functions/core/scheduling/pool-context.ts',
  'spec.startupTaints': 'functions/core/scheduling/finalize.ts',
  'spec.taints': 'functions/core/scheduling/pool-context.ts',
  'spec.taints[].timeAdded': 'functions/core/model/config/convert-common.ts',
  'spec.startupTaints[].timeAdded': 'functions/core/model/config/convert-common.ts',
  'spec.ttlSecondsAfterEmpty': 'functions/core/model/config/convert-provisioner.ts',
  'spec.ttlSecondsUntilExpired': 'functions/core/model/config/convert-provisioner.ts',
  'spec.weight': 'functions/core/scheduling/pool-context.ts',
  ...KUBELET_POINTERS('spec.kubeletConfiguration', 'functions/core/model/config/convert-provisioner.ts'),
  ...PROVIDER_POINTERS('spec.provider'),
};
POINTERS['karpenter.k8s.aws/v1alpha1 AWSNodeTemplate'] = PROVIDER_POINTERS('spec');

/**
 * Go type metadata Karpenter's v1alpha5 CRDs expose inside the provider block: they describe the
 * block and change nothing in Karpenter either, so joiner's schema takes them and nothing reads them.
 */
const TYPE_META: Record<string, readonly string[]> = {
  'karpenter.sh/v1alpha5 Provisioner': ['spec.provider.apiVersion', 'spec.provider.kind'],
  'karpenter.k8s.aws/v1alpha1 AWSNodeTemplate': ['spec.apiVersion', 'spec.kind'],
};

/** Fields joiner's schema reads but refuses with an error at validate, with a value to try. */
const REFUSED_AT_VALIDATE: Record<string, Record<string, unknown>> = {
  'karpenter.k8s.aws/v1 EC2NodeClass': { 'spec.context': 'cr-group-1' },
  'karpenter.k8s.aws/v1beta1 EC2NodeClass': { 'spec.context': 'cr-group-1' },
  'karpenter.sh/v1alpha5 Provisioner': { 'spec.provider.context': 'cr-group-1' },
  'karpenter.k8s.aws/v1alpha1 AWSNodeTemplate': { 'spec.context': 'cr-group-1' },
};

/** The field paths a structural schema knows, written as the fixture writes them. */
function schemaPaths(node: Record<string, unknown>, prefix: string, out: Set<string>): Set<string> {
  const props = node.properties as Record<string, Record<string, unknown>> | undefined;
  if (props) {
    for (const [k, v] of Object.entries(props)) {
      const p = prefix ? `${prefix}.${k}` : k;
      out.add(p);
      schemaPaths(v, p, out);
    }
  } else if (node.items) schemaPaths(node.items as Record<string, unknown>, `${prefix}[]`, out);
  return out;
}

function nearest(pointers: Record<string, string>, path: string): [string, string] | undefined {
  for (let p = path; p.length > 0; p = p.slice(0, Math.max(p.lastIndexOf('.'), 0))) {
    if (pointers[p]) return [p, pointers[p]];
    if (p.endsWith('[]') && pointers[p.slice(0, -2)]) return [p.slice(0, -2), pointers[p.slice(0, -2)]];
    if (!p.includes('.')) break;
  }
  return undefined;
}

const NODE_CLASS = {
  apiVersion: 'karpenter.k8s.aws/v1',
  kind: 'EC2NodeClass',
  metadata: { name: 'default' },
  spec: {
    role: 'node-role',
    amiSelectorTerms: [{ alias: 'al2023@latest' }],
    subnetSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'demo' } }],
    securityGroupSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'demo' } }],
  },
};

/** A valid document of each kind the fixture lists (loaded alone, so NodePools refer to nothing). */
const BASE: Record<string, Record<string, unknown>> = {
  'karpenter.sh/v1 NodePool': {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodePool',
    metadata: { name: 'pool' },
    spec: {
      template: { spec: { nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'x' } } },
    },
  },
  'karpenter.sh/v1alpha1 NodeOverlay': {
    apiVersion: 'karpenter.sh/v1alpha1',
    kind: 'NodeOverlay',
    metadata: { name: 'overlay' },
    spec: { requirements: [], price: '1' },
  },
  'karpenter.k8s.aws/v1 EC2NodeClass': NODE_CLASS,
  'karpenter.sh/v1beta1 NodePool': {
    apiVersion: 'karpenter.sh/v1beta1',
    kind: 'NodePool',
    metadata: { name: 'pool' },
    spec: { template: { spec: { nodeClassRef: { name: 'x' } } } },
  },
  'karpenter.k8s.aws/v1beta1 EC2NodeClass': {
    apiVersion: 'karpenter.k8s.aws/v1beta1',
    kind: 'EC2NodeClass',
    metadata: { name: 'default' },
    spec: { amiFamily: 'AL2023', ...NODE_CLASS.spec },
  },
  'karpenter.sh/v1alpha5 Provisioner': {
    apiVersion: 'karpenter.sh/v1alpha5',
    kind: 'Provisioner',
    metadata: { name: 'prov' },
    spec: { provider: { subnetSelector: { a: 'b' }, securityGroupSelector: { a: 'b' } } },
  },
  'karpenter.k8s.aws/v1alpha1 AWSNodeTemplate': {
    apiVersion: 'karpenter.k8s.aws/v1alpha1',
    kind: 'AWSNodeTemplate',
    metadata: { name: 'tpl' },
    spec: { subnetSelector: { a: 'b' }, securityGroupSelector: { a: 'b' } },
  },
};

/** The EC2NodeClass the base NodePools refer to, loaded beside them. */
const REFERRED = { ...NODE_CLASS, metadata: { name: 'x' } };

/** Loads the base document of `kind` with `value` at `path` (array steps as one-element lists). */
function documentWith(kind: string, path: string, value: unknown) {
  const doc = structuredClone(BASE[kind]);
  let cur: Record<string, unknown> = doc;
  const parts = path.split('.');
  parts.forEach((raw, i) => {
    const arr = raw.endsWith('[]');
    const key = arr ? raw.slice(0, -2) : raw;
    const last = i === parts.length - 1;
    if (last) cur[key] = arr ? [value] : value;
    else if (arr) {
      const item: Record<string, unknown> = {};
      cur[key] = [item];
      cur = item;
    } else {
      cur[key] ??= {};
      cur = cur[key] as Record<string, unknown>;
    }
  });
  const docs = [{ file: 'doc.yaml', index: 0, object: doc }];
  if (kind.endsWith(' NodePool')) docs.push({ file: 'class.yaml', index: 0, object: REFERRED });
  return loadDocuments(docs);
}

const nodeClassWith = (path: string, value: unknown) =>
  documentWith('karpenter.k8s.aws/v1 EC2NodeClass', path, value);

/** The objects loaded from the document under test (not the EC2NodeClass beside a NodePool). */
const loadedObjects = (loaded: ReturnType<typeof loadDocuments>) =>
  [...loaded.nodePools, ...loaded.nodeClasses, ...loaded.nodeOverlays].filter(
    (o) => o.source.file === 'doc.yaml',
  );

describe("Karpenter's CRD fields: implemented or refused, never ignored", () => {
  for (const [kind, fields] of Object.entries(fixture.kinds)) {
    const known = schemaPaths(structuralSchema(SCHEMAS[kind]()), '', new Set());
    const [apiVersion, name] = kind.split(' ');
    it(`${kind}: ${fields.length} fields, each known to joiner's schema with a pointer, or refused`, () => {
      const unclassified: string[] = [];
      for (const field of fields) {
        if (!known.has(field)) {
          // joiner's schema does not read it: a document setting it must be refused.
          if (unimplementedKarpenterField(apiVersion, name, field.split('.')) === undefined)
            unclassified.push(field);
          continue;
        }
        if (REFUSED_AT_VALIDATE[kind]?.[field] !== undefined || TYPE_META[kind]?.includes(field)) continue;
        const pointer = nearest(POINTERS[kind], field);
        if (!pointer) {
          unclassified.push(field);
          continue;
        }
        const [at, file] = pointer;
        const leaf = at.split('.').at(-1)!.replace('[]', '');
        const text = readFileSync(new URL(`../../../../../${file}`, import.meta.url), 'utf8');
        expect(text, `${file} should name ${leaf} (pointer of ${field})`).toMatch(
          new RegExp(`\\b${leaf}\\b`),
        );
      }
      expect(unclassified, 'Karpenter fields neither implemented (schema + pointer) nor refused').toEqual([]);
    });
  }

  for (const kind of Object.keys(fixture.kinds)) {
    const known = schemaPaths(structuralSchema(SCHEMAS[kind]()), '', new Set());
    const refused = fixture.kinds[kind].filter((f) => !known.has(f));
    it(`${kind}: each of the ${refused.length} refused field(s) is an error naming it and saying joiner does not implement it`, () => {
      expect(BASE[kind], `a base document of ${kind}`).toBeDefined();
      expect(loadedObjects(documentWith(kind, 'metadata.name', 'ok')).length).toBeGreaterThan(0);
      for (const field of refused) {
        const loaded = documentWith(kind, field, field.endsWith('[]') ? {} : 1);
        const errors = loaded.diagnostics.filter((d) => d.severity === 'error');
        expect(
          errors.some(
            (d) =>
              field.startsWith(d.path.replace(/\[\d+\]/g, '[]')) &&
              d.document === `${kind.split(' ')[1]}/${(BASE[kind].metadata as { name: string }).name}` &&
              /^field "[^"]+" is not supported, joiner does not implement it: /.test(d.message),
          ),
          `${field}: ${JSON.stringify(loaded.diagnostics)}`,
        ).toBe(true);
        expect(loadedObjects(loaded)).toEqual([]);
      }
      for (const [field, value] of Object.entries(REFUSED_AT_VALIDATE[kind] ?? {})) {
        const loaded = documentWith(kind, field, value);
        expect(loaded.diagnostics.some((d) => d.severity === 'error' && d.path === field)).toBe(true);
        expect(loadedObjects(loaded)).toEqual([]);
      }
    });
  }

  it('the refused fields of the older versions are the ones named in the README', () => {
    const refusedOf = (kind: string) => {
      const known = schemaPaths(structuralSchema(SCHEMAS[kind]()), '', new Set());
      return fixture.kinds[kind].filter((f) => !known.has(f));
    };
    expect(refusedOf('karpenter.sh/v1beta1 NodePool')).toEqual([
      'spec.template.spec.resources',
      'spec.template.spec.resources.requests',
    ]);
    expect(refusedOf('karpenter.sh/v1alpha5 Provisioner')).toEqual([
      'spec.kubeletConfiguration.containerRuntime',
      'spec.provider.launchTemplate',
    ]);
    expect(refusedOf('karpenter.k8s.aws/v1alpha1 AWSNodeTemplate')).toEqual(['spec.launchTemplate']);
    const readme = readFileSync(new URL('../../../../../README.md', import.meta.url), 'utf8');
    for (const name of ['resources', 'containerRuntime', 'launchTemplate'])
      expect(readme).toMatch(new RegExp(`\`${name}\``));
  });

  it("README's not-supported list names every refused field of every kind (kubelet fields by the list of those joiner passes)", () => {
    const section = readmeNotSupported();
    const named = namedInBackticks(section);
    // The kubelet fields joiner passes, as its v1 EC2NodeClass schema knows them.
    const passed = [...schemaPaths(structuralSchema(ec2NodeClassV1()), '', new Set())]
      .filter((p) => p.startsWith('spec.kubelet.') && p.split('.').length === 3)
      .map((p) => p.split('.')[2]);
    const allowList = section.slice(section.indexOf('every `kubelet` field other than'));
    const listed = [...allowList.slice(0, allowList.indexOf(';')).matchAll(/`([^`]+)`/g)]
      .map((m) => m[1])
      .filter((n) => n !== 'kubelet');
    expect(listed.sort()).toEqual(passed.sort());
    const missing: string[] = [];
    for (const [kind, fields] of Object.entries(fixture.kinds)) {
      const known = schemaPaths(structuralSchema(SCHEMAS[kind]()), '', new Set());
      const refused = [
        ...fields.filter((f) => !known.has(f)),
        ...Object.keys(REFUSED_AT_VALIDATE[kind] ?? {}),
      ];
      for (const field of refused) {
        if (/(^|\.)(kubelet|kubeletConfiguration)\./.test(field)) continue;
        // A field under a refused one is named by its nearest refused ancestor.
        const parts = field.replaceAll('[]', '').split('.');
        const isNamed = parts.some(
          (part, i) => i > 0 && (named.has(part) || named.has(parts.slice(0, i + 1).join('.'))),
        );
        if (!isNamed) missing.push(`${kind} ${field}`);
      }
    }
    expect(missing, `refused Karpenter fields the README does not name: ${missing.join(', ')}`).toEqual([]);
  });

  it('a KubeletConfiguration field joiner does not pass is refused under a v1beta1 NodePool and a v1alpha5 Provisioner, as under v1', () => {
    for (const [kind, at] of [
      ['karpenter.sh/v1beta1 NodePool', 'spec.template.spec.kubelet'],
      ['karpenter.sh/v1alpha5 Provisioner', 'spec.kubeletConfiguration'],
      ['karpenter.k8s.aws/v1 EC2NodeClass', 'spec.kubelet'],
    ]) {
      const loaded = documentWith(kind, at, { maxPods: 20, shutdownGracePeriod: '30s' });
      expect(loaded.diagnostics, kind).toContainEqual(
        expect.objectContaining({
          severity: 'error',
          path: `${at}.shutdownGracePeriod`,
          message: expect.stringMatching(
            /^field "shutdownGracePeriod" is not supported, joiner does not implement it: joiner passes clusterDNS/,
          ),
        }),
      );
      expect(loadedObjects(loaded), kind).toEqual([]);
    }
  });

  it('a misspelt field of a v1beta1 NodePool or a v1alpha5 Provisioner still only warns', () => {
    const pool = documentWith('karpenter.sh/v1beta1 NodePool', 'spec.wieght', 3);
    expect(pool.diagnostics).toEqual([
      expect.objectContaining({ severity: 'warning', message: 'unknown field "wieght" is ignored' }),
    ]);
    expect(pool.nodePools).toHaveLength(1);
    const prov = documentWith('karpenter.sh/v1alpha5 Provisioner', 'spec.ttlSecondsAfterEmty', 30);
    expect(prov.diagnostics).toContainEqual(
      expect.objectContaining({
        severity: 'warning',
        message: 'unknown field "ttlSecondsAfterEmty" is ignored',
      }),
    );
    expect(prov.nodePools).toHaveLength(1);
  });

  it('a KubeletConfiguration field joiner does not pass is refused; a misspelt top-level field only warns', () => {
    const kubelet = nodeClassWith('spec.kubelet', { shutdownGracePeriod: '30s' });
    expect(kubelet.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'error',
        path: 'spec.kubelet.shutdownGracePeriod',
        message: expect.stringMatching(
          /^field "shutdownGracePeriod" is not supported, joiner does not implement it: joiner passes clusterDNS/,
        ),
      }),
    ]);
    const typo = nodeClassWith('spec.subnetSelectorTerm', []);
    expect(typo.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'warning',
        message: 'unknown field "subnetSelectorTerm" is ignored',
      }),
    ]);
    expect(typo.nodeClasses).toHaveLength(1);
  });

  it("joiner's own NodeClass (joiner.sh/v1) refuses the same fields", () => {
    const loaded = loadDocuments([
      {
        file: 'class.yaml',
        index: 0,
        object: {
          ...NODE_CLASS,
          apiVersion: 'joiner.sh/v1',
          kind: 'NodeClass',
          spec: { ...NODE_CLASS.spec, ipPrefixCount: 1 },
        },
      },
    ]);
    expect(loaded.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'error',
        path: 'spec.ipPrefixCount',
        message: expect.stringMatching(/not supported/),
      }),
    ]);
  });
});
