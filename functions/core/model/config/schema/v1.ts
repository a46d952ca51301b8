import * as z from 'zod';
import { capacityReservationSelectorTerm } from './capacity-reservation-term.js';
import {
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
  terminationGracePeriod,
} from './common.js';
import { resourceDocument } from './document.js';
import { lazySchema } from './lazy-schema.js';
import { nodePoolRequirement, requirementList } from './requirement.js';

/** `karpenter.sh/v1` NodePool (also the base of `joiner.sh/v1` NodePool). */
export const nodePoolV1 = lazySchema(() =>
  z.object({
    apiVersion: z.string(),
    kind: z.string(),
    metadata,
    spec: z.object({
      template: z.object({
        metadata: z.object({ labels: nodeLabels.optional(), annotations: stringMap.optional() }).optional(),
        spec: z.object({
          nodeClassRef: z.object({
            group: z.string().min(1),
            kind: z.string().min(1),
            name: z.string().min(1),
          }),
          taints: z.array(taint).optional(),
          startupTaints: z.array(taint).optional(),
          requirements: requirementList(nodePoolRequirement()).optional(),
          expireAfter: duration.optional(),
          terminationGracePeriod: terminationGracePeriod.optional(),
        }),
      }),
      disruption: z
        .object({
          /** `Balanced` is read to be refused with its reason (unimplemented-values.ts). */
          consolidationPolicy: z.enum(['WhenEmpty', 'WhenEmptyOrUnderutilized', 'Balanced']).optional(),
          consolidateAfter: duration.optional(),
          budgets: z.array(budget).max(50).optional(),
        })
        .optional(),
      limits: limits.optional(),
      weight: z.number().int().min(1).max(100).optional(),
      /** Karpenter v1.8 static capacity (see static-capacity.ts). */
      replicas: z.number().int().min(0).optional(),
    }),
    status: z.unknown().optional(),
  }),
);

/** The spec fields shared by v1 EC2NodeClass and joiner.sh/v1 NodeClass (a new shape per call). */
export const ec2NodeClassSpecV1Shape = () => ({
  subnetSelectorTerms: z.array(selectorTerm).max(30).optional(),
  securityGroupSelectorTerms: z.array(selectorTerm).max(30).optional(),
  capacityReservationSelectorTerms: z.array(capacityReservationSelectorTerm).max(30).optional(),
  associatePublicIPAddress: z.boolean().optional(),
  amiSelectorTerms: z.array(amiSelectorTerm).max(30).optional(),
  amiFamily: z
    .enum(['AL2', 'AL2023', 'Bottlerocket', 'Windows2019', 'Windows2022', 'Windows2025', 'Custom'])
    .optional(),
  userData: z.string().optional(),
  role: z.string().optional(),
  instanceProfile: z.string().optional(),
  tags: stringMap.optional(),
  kubelet: kubelet.optional(),
  blockDeviceMappings: z.array(blockDeviceMapping).max(50).optional(),
  instanceStorePolicy: z.enum(['RAID0']).optional(),
  detailedMonitoring: z.boolean().optional(),
  metadataOptions: metadataOptions.optional(),
  context: z.string().optional(),
});

/** `karpenter.k8s.aws/v1` EC2NodeClass. */
export const ec2NodeClassV1 = lazySchema(() => resourceDocument(z.object(ec2NodeClassSpecV1Shape())));

export type NodePoolV1 = z.infer<ReturnType<typeof nodePoolV1>>;
export type EC2NodeClassV1 = z.infer<ReturnType<typeof ec2NodeClassV1>>;
