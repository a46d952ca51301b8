import * as z from 'zod';
import {
  addIssue,
  amiSelectorTerm,
  blockDeviceMapping,
  budget,
  duration,
  kubelet,
  limits,
  metadata,
  metadataOptions,
  nodeLabels,
  selectorTerm,
  stringMap,
  taint,
} from './common.js';
import { lazySchema } from './lazy-schema.js';
import { nodePoolRequirement, requirementList } from './requirement.js';

/**
 * Karpenter v1beta1's two rules on `spec.disruption` (CEL on the CRD): consolidateAfter cannot be
 * combined with consolidationPolicy WhenUnderutilized (the default policy) unless it is `Never`,
 * and WhenEmpty needs a consolidateAfter.
 */
function checkConsolidateAfter(
  d: { consolidationPolicy?: 'WhenEmpty' | 'WhenUnderutilized'; consolidateAfter?: string | number },
  ctx: z.core.$RefinementCtx,
): void {
  const policy = d.consolidationPolicy ?? 'WhenUnderutilized';
  if (policy === 'WhenUnderutilized' && d.consolidateAfter !== undefined && d.consolidateAfter !== 'Never') {
    addIssue(
      ctx,
      'consolidateAfter cannot be combined with consolidationPolicy=WhenUnderutilized',
      ['consolidateAfter'],
      d.consolidationPolicy === undefined
        ? 'consolidationPolicy defaults to WhenUnderutilized: set consolidationPolicy: WhenEmpty, or drop consolidateAfter'
        : 'drop consolidateAfter, or use consolidationPolicy: WhenEmpty',
    );
  }
  if (policy === 'WhenEmpty' && d.consolidateAfter === undefined) {
    addIssue(
      ctx,
      'consolidateAfter must be specified with consolidationPolicy=WhenEmpty',
      ['consolidateAfter'],
      'say how long a node stays empty before it goes, e.g. consolidateAfter: 30s',
    );
  }
}

/** `karpenter.sh/v1beta1` NodePool. */
export const nodePoolV1beta1 = lazySchema(() =>
  z.object({
    apiVersion: z.string(),
    kind: z.string(),
    metadata,
    spec: z.object({
      template: z.object({
        metadata: z.object({ labels: nodeLabels.optional(), annotations: stringMap.optional() }).optional(),
        spec: z.object({
          nodeClassRef: z
            .object({
              apiVersion: z.string().optional(),
              kind: z.string().optional(),
              name: z.string().min(1),
            })
            .optional(),
          taints: z.array(taint).optional(),
          startupTaints: z.array(taint).optional(),
          requirements: requirementList(nodePoolRequirement()).optional(),
          kubelet: kubelet.optional(),
        }),
      }),
      disruption: z
        .object({
          consolidationPolicy: z.enum(['WhenEmpty', 'WhenUnderutilized']).optional(),
          consolidateAfter: duration.optional(),
          expireAfter: duration.optional(),
          budgets: z.array(budget).max(50).optional(),
        })
        .superRefine(checkConsolidateAfter)
        .optional(),
      limits: limits.optional(),
      weight: z.number().int().min(1).max(100).optional(),
    }),
    status: z.unknown().optional(),
  }),
);

/** `karpenter.k8s.aws/v1beta1` EC2NodeClass. */
export const ec2NodeClassV1beta1 = lazySchema(() =>
  z.object({
    apiVersion: z.string(),
    kind: z.string(),
    metadata,
    spec: z.object({
      subnetSelectorTerms: z.array(selectorTerm).max(30).optional(),
      securityGroupSelectorTerms: z.array(selectorTerm).max(30).optional(),
      associatePublicIPAddress: z.boolean().optional(),
      amiSelectorTerms: z.array(amiSelectorTerm).max(30).optional(),
      amiFamily: z.enum(['AL2', 'AL2023', 'Bottlerocket', 'Windows2019', 'Windows2022', 'Custom']).optional(),
      userData: z.string().optional(),
      role: z.string().optional(),
      instanceProfile: z.string().optional(),
      tags: stringMap.optional(),
      blockDeviceMappings: z.array(blockDeviceMapping).max(50).optional(),
      instanceStorePolicy: z.enum(['RAID0']).optional(),
      detailedMonitoring: z.boolean().optional(),
      metadataOptions: metadataOptions.optional(),
      context: z.string().optional(),
    }),
    status: z.unknown().optional(),
  }),
);

export type NodePoolV1beta1 = z.infer<ReturnType<typeof nodePoolV1beta1>>;
export type EC2NodeClassV1beta1 = z.infer<ReturnType<typeof ec2NodeClassV1beta1>>;
