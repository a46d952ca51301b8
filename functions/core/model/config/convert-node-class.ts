import type { AmiFamily, MultusInterface, NodeClass } from '../node-class.js';
import type { DocumentSource } from '../node-pool.js';
import {
  parseTaintString,
  toBlockDeviceMappings,
  toKubelet,
  toMetadataOptions,
  toSelectorTerm,
  toTaint,
} from './convert-common.js';
import type { Converted, ConvertIssue } from './convert-result.js';
import { emptyConverted } from './convert-result.js';
import { DEFAULT_MULTUS } from './defaults.js';
import type { NodeClassJoinerV1 } from './schema/joiner-v1.js';
import type { EC2NodeClassV1 } from './schema/v1.js';
import type { EC2NodeClassV1beta1 } from './schema/v1beta1.js';
import { contextIssues, unsupportedIssues } from './unsupported.js';

type Spec = EC2NodeClassV1['spec'] &
  Partial<Pick<NodeClassJoinerV1['spec'], 'multusInterfaces' | 'multusReadyTaint'>>;

/** Warnings for fields Karpenter requires that joiner can do without, and errors for conflicts. */
export function nodeClassIssues(spec: {
  subnetSelectorTerms?: unknown[];
  securityGroupSelectorTerms?: unknown[];
  role?: string;
  instanceProfile?: string;
}): ConvertIssue[] {
  const issues: ConvertIssue[] = [];
  for (const field of ['subnetSelectorTerms', 'securityGroupSelectorTerms'] as const) {
    if ((spec[field] ?? []).length === 0) {
      issues.push({
        severity: 'warning',
        path: `spec.${field}`,
        message: `${field} is not set: no ${field === 'subnetSelectorTerms' ? 'subnet' : 'security group'} will be selected`,
        hint: 'select by tag, e.g. - tags: { karpenter.sh/discovery: my-cluster }',
      });
    }
  }
  if (spec.role !== undefined && spec.instanceProfile !== undefined) {
    issues.push({
      severity: 'error',
      path: 'spec.role',
      message: 'role and instanceProfile are mutually exclusive',
      hint: 'set only one of them',
    });
  } else if (spec.role === undefined && spec.instanceProfile === undefined) {
    issues.push({
      severity: 'warning',
      path: 'spec',
      message: 'neither role nor instanceProfile is set: nodes get the node role joiner deploys',
      hint: 'set role: KarpenterNodeRole-<cluster>',
    });
  }
  return issues;
}

function toMultus(m: NonNullable<Spec['multusInterfaces']>[number]): MultusInterface {
  return {
    subnetSelectorTerms: m.subnetSelectorTerms.map(toSelectorTerm),
    securityGroupSelectorTerms: m.securityGroupSelectorTerms.map(toSelectorTerm),
    deviceIndex: m.deviceIndex,
    networkCardIndex: m.networkCardIndex ?? DEFAULT_MULTUS.networkCardIndex,
    disableSourceDestCheck: m.disableSourceDestCheck ?? DEFAULT_MULTUS.disableSourceDestCheck,
    ipv6AddressCount: m.ipv6AddressCount ?? DEFAULT_MULTUS.ipv6AddressCount,
  };
}

function buildNodeClass(name: string, source: DocumentSource, spec: Spec): NodeClass {
  const taint = spec.multusReadyTaint;
  const nodeClass: NodeClass = {
    name,
    source,
    amiFamily: spec.amiFamily as AmiFamily | undefined,
    amiSelectorTerms: (spec.amiSelectorTerms ?? []).map((t) => ({ ...t })),
    subnetSelectorTerms: (spec.subnetSelectorTerms ?? []).map(toSelectorTerm),
    securityGroupSelectorTerms: (spec.securityGroupSelectorTerms ?? []).map(toSelectorTerm),
    capacityReservationSelectorTerms: (spec.capacityReservationSelectorTerms ?? []).map(toSelectorTerm),
    role: spec.role,
    instanceProfile: spec.instanceProfile,
    userData: spec.userData,
    tags: { ...(spec.tags ?? {}) },
    blockDeviceMappings: toBlockDeviceMappings(spec.blockDeviceMappings),
    instanceStorePolicy: spec.instanceStorePolicy,
    metadataOptions: toMetadataOptions(spec.metadataOptions),
    kubelet: toKubelet(spec.kubelet),
    associatePublicIPAddress: spec.associatePublicIPAddress,
    detailedMonitoring: spec.detailedMonitoring ?? false,
    multusInterfaces: (spec.multusInterfaces ?? []).map(toMultus),
    multusReadyTaint:
      taint === undefined ? undefined : typeof taint === 'string' ? parseTaintString(taint) : toTaint(taint),
  };
  return dropUndefined(nodeClass);
}

/** Removes keys whose value is `undefined`, so converted models compare cleanly. */
export function dropUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/** Converts a karpenter.k8s.aws/v1 EC2NodeClass or a joiner.sh/v1 NodeClass. */
export function convertNodeClassV1(
  doc: EC2NodeClassV1 | NodeClassJoinerV1,
  source: DocumentSource,
): Converted {
  const out = emptyConverted();
  out.issues.push(...nodeClassIssues(doc.spec), ...contextIssues(doc.spec));
  const nodeClass = buildNodeClass(doc.metadata.name, source, doc.spec);
  out.issues.push(...unsupportedIssues(nodeClass));
  out.nodeClasses.push(nodeClass);
  return out;
}

/** Converts a karpenter.k8s.aws/v1beta1 EC2NodeClass (kubelet settings live on its NodePools). */
export function convertNodeClassV1beta1(doc: EC2NodeClassV1beta1, source: DocumentSource): Converted {
  const out = emptyConverted();
  out.issues.push(...nodeClassIssues(doc.spec), ...contextIssues(doc.spec));
  const nodeClass = buildNodeClass(doc.metadata.name, source, doc.spec);
  out.issues.push(...unsupportedIssues(nodeClass));
  out.nodeClasses.push(nodeClass);
  return out;
}
