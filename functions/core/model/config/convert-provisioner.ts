import type { AmiFamily, AmiSelectorTerm, NodeClass } from '../node-class.js';
import type { Disruption, DocumentSource, NodeClassRef, NodePool } from '../node-pool.js';
import type { Requirement } from '../requirement.js';
import {
  selectorMapToTerms,
  toBlockDeviceMappings,
  toKubelet,
  toLimits,
  toMetadataOptions,
  toRequirement,
  toTaint,
} from './convert-common.js';
import { dropUndefined } from './convert-node-class.js';
import type { Converted } from './convert-result.js';
import { emptyConverted } from './convert-result.js';
import { DEFAULT_WEIGHT, EC2_NODE_CLASS_GROUP } from './defaults.js';
import type { AWSNodeTemplateV1alpha1, AwsProvider, ProvisionerV1alpha5 } from './schema/v1alpha5.js';
import { contextIssues, unsupportedIssues } from './unsupported.js';

/** The kind a v1alpha5 Provisioner's `providerRef` points to. */
export const AWS_NODE_TEMPLATE_KIND = 'AWSNodeTemplate';

function amiSelectorToTerms(map: Record<string, string> | undefined): AmiSelectorTerm[] {
  if (map === undefined) return [];
  const terms: AmiSelectorTerm[] = [];
  const tags: Record<string, string> = {};
  for (const [key, value] of Object.entries(map)) {
    const list = value
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    if (key === 'aws-ids' || key === 'aws::ids') terms.push(...list.map((id) => ({ id })));
    else if (key === 'aws::name') terms.push(...list.map((name) => ({ name })));
    else if (key === 'aws::owners') terms.push(...list.map((owner) => ({ owner })));
    else tags[key] = value;
  }
  if (Object.keys(tags).length > 0) terms.push({ tags });
  return terms;
}

/** Converts a v1alpha5 AWS provider block (or AWSNodeTemplate spec) into a NodeClass. */
export function providerToNodeClass(name: string, source: DocumentSource, p: AwsProvider): NodeClass {
  return dropUndefined<NodeClass>({
    name,
    source,
    amiFamily: (p.amiFamily ?? 'AL2') as AmiFamily,
    amiSelectorTerms: amiSelectorToTerms(p.amiSelector),
    subnetSelectorTerms: selectorMapToTerms(p.subnetSelector),
    securityGroupSelectorTerms: selectorMapToTerms(p.securityGroupSelector),
    capacityReservationSelectorTerms: [],
    instanceProfile: p.instanceProfile,
    userData: p.userData,
    tags: { ...(p.tags ?? {}) },
    blockDeviceMappings: toBlockDeviceMappings(p.blockDeviceMappings),
    metadataOptions: toMetadataOptions(p.metadataOptions),
    kubelet: {},
    detailedMonitoring: p.detailedMonitoring ?? false,
    multusInterfaces: [],
  });
}

/** Instance type keys any of which stops the v1alpha5 default instance category / generation. */
const INSTANCE_TYPE_KEYS = [
  'node.kubernetes.io/instance-type',
  'karpenter.k8s.aws/instance-family',
  'karpenter.k8s.aws/instance-category',
  'karpenter.k8s.aws/instance-generation',
];

/** Deprecated keys Karpenter reads as their stable names. */
const BETA_KEYS: Readonly<Record<string, string>> = {
  'beta.kubernetes.io/os': 'kubernetes.io/os',
  'beta.kubernetes.io/arch': 'kubernetes.io/arch',
  'beta.kubernetes.io/instance-type': 'node.kubernetes.io/instance-type',
};

/**
 * The requirements Karpenter's AWS defaulting webhook added to a v1alpha5 Provisioner for what its
 * requirements leave open: `kubernetes.io/os In [linux]`, `kubernetes.io/arch In [amd64]`,
 * `karpenter.sh/capacity-type In [on-demand]`, and `instance-category In [c, m, r]` with
 * `instance-generation Gt 2` unless an instance type, family, category or generation is constrained.
 * (v1beta1 and v1 NodePools dropped these defaults: there, an open key allows every value.)
 */
export function v1alpha5DefaultRequirements(requirements: readonly Requirement[]): Requirement[] {
  const keys = new Set(requirements.map((r) => BETA_KEYS[r.key] ?? r.key));
  const has = (key: string) => keys.has(key);
  const out: Requirement[] = [];
  if (!has('kubernetes.io/os')) out.push({ key: 'kubernetes.io/os', operator: 'In', values: ['linux'] });
  if (!has('kubernetes.io/arch')) out.push({ key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] });
  if (!has('karpenter.sh/capacity-type')) {
    out.push({ key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] });
  }
  if (!INSTANCE_TYPE_KEYS.some(has)) {
    out.push(
      { key: 'karpenter.k8s.aws/instance-category', operator: 'In', values: ['c', 'm', 'r'] },
      { key: 'karpenter.k8s.aws/instance-generation', operator: 'Gt', values: ['2'] },
    );
  }
  return out;
}

/**
 * v1alpha5 had no disruption budgets: every node empty for ttlSecondsAfterEmpty went at once. An
 * empty budget list is exactly that (no budget limits any reason), where a v1 NodePool without
 * `budgets` gets Karpenter's default of 10%.
 */
const V1ALPHA5_BUDGETS: Disruption['budgets'] = [];

function disruptionOf(spec: ProvisionerV1alpha5['spec']): Disruption {
  if (spec.consolidation?.enabled === true) {
    return {
      consolidationPolicy: 'WhenEmptyOrUnderutilized',
      consolidateAfterMs: 0,
      budgets: V1ALPHA5_BUDGETS,
    };
  }
  // v1alpha5 without ttlSecondsAfterEmpty never removed empty nodes: WhenEmpty after Never.
  const after = spec.ttlSecondsAfterEmpty === undefined ? null : spec.ttlSecondsAfterEmpty * 1000;
  return { consolidationPolicy: 'WhenEmpty', consolidateAfterMs: after, budgets: V1ALPHA5_BUDGETS };
}

function nodeClassRefOf(doc: ProvisionerV1alpha5, out: Converted): NodeClassRef | undefined {
  const { provider, providerRef } = doc.spec;
  if (provider !== undefined && providerRef !== undefined) {
    out.issues.push({
      severity: 'error',
      path: 'spec.providerRef',
      message: 'provider and providerRef are mutually exclusive',
      hint: 'keep one of them',
    });
    return undefined;
  }
  if (providerRef !== undefined) {
    return {
      group: EC2_NODE_CLASS_GROUP,
      kind: providerRef.kind ?? AWS_NODE_TEMPLATE_KIND,
      name: providerRef.name,
    };
  }
  if (provider === undefined) {
    out.issues.push({
      severity: 'error',
      path: 'spec',
      message: 'a Provisioner needs spec.provider or spec.providerRef',
      hint: 'add provider: { subnetSelector: ..., securityGroupSelector: ... } or providerRef: { name: <AWSNodeTemplate> }',
    });
    return undefined;
  }
  return { group: EC2_NODE_CLASS_GROUP, kind: 'EC2NodeClass', name: doc.metadata.name };
}

function withV1alpha5Defaults(requirements: Requirement[]): Requirement[] {
  return [...requirements, ...v1alpha5DefaultRequirements(requirements)];
}

/**
 * Converts a karpenter.sh/v1alpha5 Provisioner into a NodePool and, for an inline `provider`, a
 * NodeClass named after the Provisioner. ttlSecondsAfterEmpty becomes WhenEmpty + consolidateAfter,
 * consolidation.enabled becomes WhenEmptyOrUnderutilized, ttlSecondsUntilExpired becomes expireAfter
 * (absent = Never, as v1alpha5 behaved), and the requirements get the webhook's defaults.
 */
export function convertProvisioner(doc: ProvisionerV1alpha5, source: DocumentSource): Converted {
  const out = emptyConverted();
  const spec = doc.spec;
  const ref = nodeClassRefOf(doc, out);
  if (ref === undefined) return out;
  if (spec.consolidation?.enabled === true && spec.ttlSecondsAfterEmpty !== undefined) {
    out.issues.push({
      severity: 'error',
      path: 'spec.ttlSecondsAfterEmpty',
      message: 'ttlSecondsAfterEmpty cannot be combined with consolidation.enabled',
      hint: 'consolidation already removes empty nodes; drop ttlSecondsAfterEmpty',
    });
    return out;
  }
  const pool: NodePool = {
    name: doc.metadata.name,
    source,
    weight: spec.weight ?? DEFAULT_WEIGHT,
    labels: { ...(spec.labels ?? {}) },
    annotations: { ...(spec.annotations ?? {}) },
    taints: (spec.taints ?? []).map(toTaint),
    startupTaints: (spec.startupTaints ?? []).map(toTaint),
    requirements: withV1alpha5Defaults((spec.requirements ?? []).map(toRequirement)),
    nodeClassRef: ref,
    expireAfterMs: spec.ttlSecondsUntilExpired === undefined ? null : spec.ttlSecondsUntilExpired * 1000,
    limits: toLimits(spec.limits?.resources),
    disruption: disruptionOf(spec),
    kubelet: spec.kubeletConfiguration === undefined ? undefined : toKubelet(spec.kubeletConfiguration),
  };
  out.nodePools.push(dropUndefined(pool));
  if (spec.provider !== undefined) {
    const nodeClass = providerToNodeClass(doc.metadata.name, source, spec.provider);
    out.issues.push(
      ...unsupportedIssues(nodeClass, 'spec.provider'),
      ...contextIssues(spec.provider, 'spec.provider'),
    );
    out.nodeClasses.push(nodeClass);
  }
  return out;
}

/** Converts a karpenter.k8s.aws/v1alpha1 AWSNodeTemplate into a NodeClass. */
export function convertAwsNodeTemplate(doc: AWSNodeTemplateV1alpha1, source: DocumentSource): Converted {
  const out = emptyConverted();
  const nodeClass = providerToNodeClass(doc.metadata.name, source, doc.spec);
  out.issues.push(...unsupportedIssues(nodeClass), ...contextIssues(doc.spec));
  out.nodeClasses.push(nodeClass);
  return out;
}
