import type { z } from 'zod';
import type { DocumentSource } from '../node-pool.js';
import { convertNodeClassV1, convertNodeClassV1beta1 } from './convert-node-class.js';
import { convertNodeOverlayV1alpha1 } from './convert-node-overlay.js';
import { convertNodePoolV1, convertNodePoolV1beta1 } from './convert-node-pool.js';
import { convertAwsNodeTemplate, convertProvisioner } from './convert-provisioner.js';
import type { Converted } from './convert-result.js';
import { nodeClassJoinerV1 } from './schema/joiner-v1.js';
import { ec2NodeClassV1, nodePoolV1 } from './schema/v1.js';
import { nodeOverlayV1alpha1 } from './schema/v1alpha1-overlay.js';
import { awsNodeTemplateV1alpha1, provisionerV1alpha5 } from './schema/v1alpha5.js';
import { ec2NodeClassV1beta1, nodePoolV1beta1 } from './schema/v1beta1.js';

/** How one configuration kind is validated and converted. */
export interface ConfigKind {
  readonly apiVersion: string;
  readonly kind: string;
  /** The kind's schema, built when first asked for (see `lazySchema`). */
  readonly schema: () => z.ZodType;
  readonly convert: (doc: never, source: DocumentSource) => Converted;
}

/** Every configuration kind joiner reads, keyed `apiVersion/kind`. */
export const CONFIG_KINDS: readonly ConfigKind[] = [
  { apiVersion: 'karpenter.sh/v1', kind: 'NodePool', schema: nodePoolV1, convert: convertNodePoolV1 },
  {
    apiVersion: 'karpenter.k8s.aws/v1',
    kind: 'EC2NodeClass',
    schema: ec2NodeClassV1,
    convert: convertNodeClassV1,
  },
  {
    apiVersion: 'karpenter.sh/v1beta1',
    kind: 'NodePool',
    schema: nodePoolV1beta1,
    convert: convertNodePoolV1beta1,
  },
  {
    apiVersion: 'karpenter.k8s.aws/v1beta1',
    kind: 'EC2NodeClass',
    schema: ec2NodeClassV1beta1,
    convert: convertNodeClassV1beta1,
  },
  {
    apiVersion: 'karpenter.sh/v1alpha5',
    kind: 'Provisioner',
    schema: provisionerV1alpha5,
    convert: convertProvisioner,
  },
  {
    apiVersion: 'karpenter.k8s.aws/v1alpha1',
    kind: 'AWSNodeTemplate',
    schema: awsNodeTemplateV1alpha1,
    convert: convertAwsNodeTemplate,
  },
  {
    apiVersion: 'karpenter.sh/v1alpha1',
    kind: 'NodeOverlay',
    schema: nodeOverlayV1alpha1,
    convert: convertNodeOverlayV1alpha1,
  },
  { apiVersion: 'joiner.sh/v1', kind: 'NodePool', schema: nodePoolV1, convert: convertNodePoolV1 },
  { apiVersion: 'joiner.sh/v1', kind: 'NodeClass', schema: nodeClassJoinerV1, convert: convertNodeClassV1 },
];

/** API groups whose kinds are configuration (an unsupported kind or version there is an error). */
export const CONFIG_GROUPS = new Set(['karpenter.sh', 'karpenter.k8s.aws', 'joiner.sh']);

/** Finds the handler of an apiVersion/kind pair. */
export function findConfigKind(apiVersion: string, kind: string): ConfigKind | undefined {
  return CONFIG_KINDS.find((k) => k.apiVersion === apiVersion && k.kind === kind);
}

/** A sentence listing the supported configuration kinds, for error messages. */
export function supportedConfigKinds(): string {
  return CONFIG_KINDS.map((k) => `${k.apiVersion} ${k.kind}`).join(', ');
}
