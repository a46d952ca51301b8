import { nodeClassJoinerV1 } from '../model/config/schema/joiner-v1.js';
import { nodePoolV1 } from '../model/config/schema/v1.js';
import {
  conditionColumn,
  crdManifest,
  documentSchema,
  OPEN_OBJECT,
  objectSchema,
} from './crd-schema/crd-manifest.js';
import type { StructuralSchema } from './crd-schema/structural-schema.js';
import { JOINER_API_GROUP, type KubeManifest } from './kube-manifest.js';

/**
 * The categories of joiner's CRDs: `joiner`, and Karpenter's `karpenter`: `kubectl get karpenter`
 * lists the objects of every CRD in the category, of both groups, whoever installed Karpenter's
 * CRDs. (`nodepools.joiner.sh` is installed only beside a running Karpenter, so a bare `nodepools`
 * names the pools joiner manages: see `installsJoinerNodePools`.)
 */
export const JOINER_CATEGORIES: readonly string[] = ['joiner', 'karpenter'];

/** The printer columns of a NodePool (Karpenter's). */
export const NODE_POOL_COLUMNS: readonly Readonly<Record<string, unknown>>[] = [
  { name: 'NodeClass', type: 'string', jsonPath: '.spec.template.spec.nodeClassRef.name' },
  { name: 'Nodes', type: 'string', jsonPath: '.status.resources.nodes' },
  conditionColumn('Ready'),
  { name: 'Weight', type: 'integer', jsonPath: '.spec.weight', priority: 1 },
  { name: 'CPU', type: 'string', jsonPath: '.status.resources.cpu', priority: 1 },
  { name: 'Memory', type: 'string', jsonPath: '.status.resources.memory', priority: 1 },
];

/**
 * The scale subresource of a NodePool (Karpenter v1.8 static capacity): `kubectl scale nodepool`
 * sets `spec.replicas`; the count is the pool's node count.
 */
export const NODE_POOL_SCALE = { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.nodes' };

/**
 * The `nodepools.joiner.sh` CRD: Karpenter's v1 NodePool, its schema generated from the zod schema
 * joiner validates NodePools with, so the API server refuses what joiner would refuse. Installed
 * with `karpenterKinds: ignore` only (see `installsJoinerNodePools`).
 */
export function nodePoolCrd(): KubeManifest {
  return crdManifest(
    JOINER_API_GROUP,
    {
      kind: 'NodePool',
      plural: 'nodepools',
      singular: 'nodepool',
      shortNames: ['jnp'],
      categories: JOINER_CATEGORIES,
    },
    { name: 'v1', schema: documentSchema(nodePoolV1()), columns: NODE_POOL_COLUMNS, scale: NODE_POOL_SCALE },
  );
}

/** The `nodeclasses.joiner.sh` CRD: the EC2NodeClass v1 schema plus the Multus interfaces, generated. */
export function nodeClassCrd(): KubeManifest {
  return crdManifest(
    JOINER_API_GROUP,
    {
      kind: 'NodeClass',
      plural: 'nodeclasses',
      singular: 'nodeclass',
      shortNames: ['jnc'],
      categories: JOINER_CATEGORIES,
    },
    {
      name: 'v1',
      schema: documentSchema(nodeClassJoinerV1()),
      columns: [
        conditionColumn('Ready'),
        { name: 'Role', type: 'string', jsonPath: '.spec.role' },
        { name: 'AMIFamily', type: 'string', jsonPath: '.spec.amiFamily', priority: 1 },
      ],
    },
  );
}

const openObject = (properties: Record<string, StructuralSchema>): StructuralSchema => ({
  ...OPEN_OBJECT,
  properties,
});

/**
 * The `nodeclaims.joiner.sh` CRD: the cluster's view of joiner's nodeclaims (DynamoDB is the
 * truth; joiner writes these, best effort, and its sweep repairs them), with Karpenter's NodeClaim
 * columns. A group of its own, so it never collides with Karpenter's `nodeclaims.karpenter.sh`:
 * with both installed, `kubectl get nodeclaims.joiner.sh` names joiner's. No status subresource:
 * joiner writes the whole object in one request. Only joiner writes them, so the schema is open.
 */
export function nodeClaimCrd(): KubeManifest {
  const label = (key: string) => `.metadata.labels.${key.replaceAll('.', '\\.')}`;
  const array: StructuralSchema = { type: 'array', items: OPEN_OBJECT };
  return crdManifest(
    JOINER_API_GROUP,
    {
      kind: 'NodeClaim',
      plural: 'nodeclaims',
      singular: 'nodeclaim',
      shortNames: [],
      categories: JOINER_CATEGORIES,
    },
    {
      name: 'v1',
      status: false,
      schema: objectSchema(
        openObject({
          nodeClassRef: openObject({ name: { type: 'string' } }),
          requirements: array,
          taints: array,
          startupTaints: array,
          resources: OPEN_OBJECT,
          expireAfter: { type: 'string' },
          terminationGracePeriod: { type: 'string' },
        }),
      ),
      columns: [
        { name: 'Type', type: 'string', jsonPath: label('node.kubernetes.io/instance-type') },
        { name: 'Capacity', type: 'string', jsonPath: label('karpenter.sh/capacity-type') },
        { name: 'Zone', type: 'string', jsonPath: label('topology.kubernetes.io/zone') },
        { name: 'Node', type: 'string', jsonPath: '.status.nodeName' },
        conditionColumn('Ready'),
        { name: 'ID', type: 'string', jsonPath: '.status.providerID', priority: 1 },
        { name: 'NodePool', type: 'string', jsonPath: label('karpenter.sh/nodepool'), priority: 1 },
        { name: 'NodeClass', type: 'string', jsonPath: '.spec.nodeClassRef.name', priority: 1 },
        { ...conditionColumn('Drifted'), priority: 1 },
      ],
    },
  );
}
