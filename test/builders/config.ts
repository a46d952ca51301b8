/**
 * Builders for fully-defaulted internal NodePools and NodeClasses, for tests:
 * `nodePool({ name: 'gpu', weight: 10 })`, `nodeClass({ name: 'default' })`.
 */
import {
  DEFAULT_DISRUPTION,
  DEFAULT_EXPIRE_AFTER_MS,
  DEFAULT_METADATA_OPTIONS,
  EC2_NODE_CLASS_GROUP,
  EC2_NODE_CLASS_KIND,
} from '../../functions/core/model/config/defaults.js';
import type { NodeClass } from '../../functions/core/model/node-class.js';
import type { Disruption, DocumentSource, NodePool } from '../../functions/core/model/node-pool.js';

function source(apiVersion: string, kind: string, name: string): DocumentSource {
  return { file: 'test', index: 0, apiVersion, kind, name };
}

/** Overrides for `nodePool`; `disruption` may be partial. */
export type NodePoolOverrides = Partial<Omit<NodePool, 'disruption'>> & { disruption?: Partial<Disruption> };

/** A NodePool with Karpenter v1 defaults (weight 0, expireAfter 720h, WhenEmptyOrUnderutilized after 0s, budget 10%) referencing EC2NodeClass `default`. */
export function nodePool(overrides: NodePoolOverrides = {}): NodePool {
  const name = overrides.name ?? 'default';
  const { disruption, ...rest } = overrides;
  return {
    name,
    source: source('karpenter.sh/v1', 'NodePool', name),
    weight: 0,
    labels: {},
    annotations: {},
    taints: [],
    startupTaints: [],
    requirements: [],
    nodeClassRef: { group: EC2_NODE_CLASS_GROUP, kind: EC2_NODE_CLASS_KIND, name: 'default' },
    expireAfterMs: DEFAULT_EXPIRE_AFTER_MS,
    limits: {},
    ...rest,
    disruption: { ...DEFAULT_DISRUPTION, ...(disruption ?? {}) },
  };
}

/** A NodeClass with Karpenter v1 defaults (AL2023, IMDSv2 required, hop limit 1, no Multus interfaces). */
export function nodeClass(overrides: Partial<NodeClass> = {}): NodeClass {
  const name = overrides.name ?? 'default';
  return {
    name,
    source: source('karpenter.k8s.aws/v1', 'EC2NodeClass', name),
    amiFamily: 'AL2023',
    amiSelectorTerms: [{ alias: 'al2023@latest' }],
    subnetSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'test-cluster' } }],
    securityGroupSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'test-cluster' } }],
    capacityReservationSelectorTerms: [],
    role: 'KarpenterNodeRole-test-cluster',
    tags: {},
    blockDeviceMappings: [],
    metadataOptions: { ...DEFAULT_METADATA_OPTIONS },
    kubelet: {},
    detailedMonitoring: false,
    multusInterfaces: [],
    ...overrides,
  };
}
