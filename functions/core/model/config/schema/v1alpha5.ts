import * as z from 'zod';
import {
  blockDeviceMapping,
  kubelet,
  limits,
  metadata,
  metadataOptions,
  nodeLabels,
  stringMap,
  taint,
} from './common.js';
import { lazySchema } from './lazy-schema.js';
import { requirementList, requirementSchema } from './requirement.js';

/** The AWS provider fields of a v1alpha5 `provider` block and of a v1alpha1 AWSNodeTemplate spec (a new shape per call). */
export const awsProviderShape = () => ({
  subnetSelector: stringMap.optional(),
  securityGroupSelector: stringMap.optional(),
  amiSelector: stringMap.optional(),
  instanceProfile: z.string().optional(),
  amiFamily: z.enum(['AL2', 'Bottlerocket', 'Windows2019', 'Windows2022', 'Custom']).optional(),
  tags: stringMap.optional(),
  userData: z.string().optional(),
  blockDeviceMappings: z.array(blockDeviceMapping).optional(),
  metadataOptions: metadataOptions.optional(),
  detailedMonitoring: z.boolean().optional(),
  context: z.string().optional(),
});

/** `karpenter.sh/v1alpha5` Provisioner. */
export const provisionerV1alpha5 = lazySchema(() =>
  z.object({
    apiVersion: z.string(),
    kind: z.string(),
    metadata,
    spec: z.object({
      requirements: requirementList(
        requirementSchema({ restrictKeys: true, allowMinValues: false }),
      ).optional(),
      labels: nodeLabels.optional(),
      annotations: stringMap.optional(),
      taints: z.array(taint).optional(),
      startupTaints: z.array(taint).optional(),
      limits: z.object({ resources: limits.optional() }).optional(),
      weight: z.number().int().min(1).max(100).optional(),
      ttlSecondsAfterEmpty: z.number().int().min(0, 'cannot be negative').optional(),
      ttlSecondsUntilExpired: z.number().int().min(0, 'cannot be negative').optional(),
      consolidation: z.object({ enabled: z.boolean().optional() }).optional(),
      kubeletConfiguration: kubelet.optional(),
      provider: z
        .object({ apiVersion: z.string().optional(), kind: z.string().optional(), ...awsProviderShape() })
        .optional(),
      providerRef: z
        .object({ apiVersion: z.string().optional(), kind: z.string().optional(), name: z.string().min(1) })
        .optional(),
    }),
    status: z.unknown().optional(),
  }),
);

/** `karpenter.k8s.aws/v1alpha1` AWSNodeTemplate. */
export const awsNodeTemplateV1alpha1 = lazySchema(() =>
  z.object({
    apiVersion: z.string(),
    kind: z.string(),
    metadata,
    // apiVersion / kind: the Go type metadata of the provider struct Karpenter's CRD exposes in
    // the spec; they describe the block and change nothing, in Karpenter as here.
    spec: z.object({ apiVersion: z.string().optional(), kind: z.string().optional(), ...awsProviderShape() }),
    status: z.unknown().optional(),
  }),
);

export type ProvisionerV1alpha5 = z.infer<ReturnType<typeof provisionerV1alpha5>>;
export type AwsProvider = z.infer<z.ZodObject<ReturnType<typeof awsProviderShape>>>;
export type AWSNodeTemplateV1alpha1 = z.infer<ReturnType<typeof awsNodeTemplateV1alpha1>>;
