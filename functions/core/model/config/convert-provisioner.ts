import type { AmiFamily, AmiSelectorTerm, NodeClass } from '../node-class.js';
import type { Disruption, DocumentSource, NodeClassRef, NodePool } from '../node-pool.js';
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
    launchTemplateName: p.launchTemplate,
  });
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

/**
 * Converts a karpenter.sh/v1alpha5 Provisioner into a NodePool and, for an inline `provider`, a
 * NodeClass named after the Provisioner. ttlSecondsAfterEmpty becomes WhenEmpty + consolidateAfter,
 * consolidation.enabled becomes WhenEmptyOrUnderutilized, ttlSecondsUntilExpired becomes expireAfter
 * (absent = Never, as v1alpha5 behaved).
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
    requirements: (spec.requirements ?? []).map(toRequirement),
    nodeClassRef: ref,
    expireAfterMs: spec.ttlSecondsUntilExpired === undefined ? null : spec.ttlSecondsUntilExpired * 1000,
    limits: toLimits(spec.limits?.resources),
    disruption: disruptionOf(spec),
    kubelet: spec.kubeletConfiguration === undefined ? undefined : toKubelet(spec.kubeletConfiguration),
  };
  out.nodePools.push(dropUndefined(pool));
  if (spec.provider !== undefined) {
    out.nodeClasses.push(providerToNodeClass(doc.metadata.name, source, spec.provider));
  }
  return out;
}

/** Converts a karpenter.k8s.aws/v1alpha1 AWSNodeTemplate into a NodeClass. */
export function convertAwsNodeTemplate(doc: AWSNodeTemplateV1alpha1, source: DocumentSource): Converted {
  const out = emptyConverted();
  out.nodeClasses.push(providerToNodeClass(doc.metadata.name, source, doc.spec));
  return out;
}
