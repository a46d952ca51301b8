import { JOINER_API_GROUP, type KubeManifest, managedMetadata } from './kube-manifest.js';

type Schema = Readonly<Record<string, unknown>>;

/** An object whose unknown fields are kept: the handlers validate documents with their own error paths. */
const openObject = (properties: Record<string, Schema> = {}): Schema => ({
  type: 'object',
  'x-kubernetes-preserve-unknown-fields': true,
  properties,
});

const selectorTerms: Schema = { type: 'array', items: openObject() };

const quantity: Schema = {
  'x-kubernetes-int-or-string': true,
  anyOf: [{ type: 'integer' }, { type: 'string' }],
};

const nodePoolSpec: Schema = openObject({
  template: openObject({
    metadata: openObject({
      labels: { type: 'object', additionalProperties: { type: 'string' } },
      annotations: { type: 'object', additionalProperties: { type: 'string' } },
    }),
    spec: openObject({
      nodeClassRef: openObject({ name: { type: 'string', minLength: 1 } }),
      requirements: { type: 'array', items: openObject() },
      taints: { type: 'array', items: openObject() },
      startupTaints: { type: 'array', items: openObject() },
    }),
  }),
  disruption: openObject(),
  limits: { type: 'object', additionalProperties: quantity },
  weight: { type: 'integer', minimum: 1, maximum: 100 },
});

const nodeClassSpec: Schema = openObject({
  amiFamily: { type: 'string' },
  amiSelectorTerms: selectorTerms,
  subnetSelectorTerms: selectorTerms,
  securityGroupSelectorTerms: selectorTerms,
  role: { type: 'string' },
  instanceProfile: { type: 'string' },
  userData: { type: 'string' },
  tags: { type: 'object', additionalProperties: { type: 'string' } },
  multusInterfaces: {
    type: 'array',
    items: openObject({
      subnetSelectorTerms: selectorTerms,
      securityGroupSelectorTerms: selectorTerms,
      deviceIndex: { type: 'integer', minimum: 1 },
      networkCardIndex: { type: 'integer', minimum: 0 },
      disableSourceDestCheck: { type: 'boolean' },
      ipv6AddressCount: { type: 'integer', minimum: 0 },
    }),
  },
});

interface CrdNames {
  readonly kind: string;
  readonly plural: string;
  readonly singular: string;
  readonly shortNames: readonly string[];
}

function crd(names: CrdNames, spec: Schema, columns: readonly Schema[]): KubeManifest {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: managedMetadata(`${names.plural}.${JOINER_API_GROUP}`),
    spec: {
      group: JOINER_API_GROUP,
      scope: 'Cluster',
      names: {
        ...names,
        shortNames: [...names.shortNames],
        listKind: `${names.kind}List`,
        categories: ['joiner'],
      },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: { status: {} },
          additionalPrinterColumns: [
            ...columns,
            { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
          ],
          schema: {
            openAPIV3Schema: {
              type: 'object',
              required: ['spec'],
              properties: {
                apiVersion: { type: 'string' },
                kind: { type: 'string' },
                metadata: { type: 'object' },
                spec: spec,
                status: openObject(),
              },
            },
          },
        },
      ],
    },
  };
}

/** The `nodepools.joiner.sh` CRD: Karpenter's v1 NodePool schema, unknown fields preserved. */
export function nodePoolCrd(): KubeManifest {
  return crd(
    { kind: 'NodePool', plural: 'nodepools', singular: 'nodepool', shortNames: ['jnp'] },
    nodePoolSpec,
    [
      { name: 'NodeClass', type: 'string', jsonPath: '.spec.template.spec.nodeClassRef.name' },
      { name: 'Nodes', type: 'string', jsonPath: '.status.resources.nodes' },
      { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
      { name: 'Weight', type: 'integer', jsonPath: '.spec.weight', priority: 1 },
      { name: 'CPU', type: 'string', jsonPath: '.status.resources.cpu', priority: 1 },
      { name: 'Memory', type: 'string', jsonPath: '.status.resources.memory', priority: 1 },
    ],
  );
}

/** The `nodeclasses.joiner.sh` CRD: the EC2NodeClass v1 schema plus the Multus interfaces. */
export function nodeClassCrd(): KubeManifest {
  return crd(
    { kind: 'NodeClass', plural: 'nodeclasses', singular: 'nodeclass', shortNames: ['jnc'] },
    nodeClassSpec,
    [
      { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
      { name: 'Role', type: 'string', jsonPath: '.spec.role' },
      { name: 'AMIFamily', type: 'string', jsonPath: '.spec.amiFamily', priority: 1 },
    ],
  );
}

/**
 * The `nodeclaims.joiner.sh` CRD: the cluster's view of joiner's nodeclaims (DynamoDB is the
 * truth; joiner writes these, best effort, and its sweep repairs them), with Karpenter's NodeClaim
 * columns. A group of its own, so it never collides with Karpenter's `nodeclaims.karpenter.sh`:
 * with both installed, `kubectl get nodeclaims.joiner.sh` names joiner's. No status subresource:
 * joiner writes the whole object in one request.
 */
export function nodeClaimCrd(): KubeManifest {
  const label = (key: string) => `.metadata.labels.${key.replaceAll('.', '\\.')}`;
  const manifest = crd(
    { kind: 'NodeClaim', plural: 'nodeclaims', singular: 'nodeclaim', shortNames: [] },
    openObject({
      nodeClassRef: openObject({ name: { type: 'string' } }),
      requirements: { type: 'array', items: openObject() },
      taints: { type: 'array', items: openObject() },
      startupTaints: { type: 'array', items: openObject() },
      resources: openObject(),
    }),
    [
      { name: 'Type', type: 'string', jsonPath: label('node.kubernetes.io/instance-type') },
      { name: 'Capacity', type: 'string', jsonPath: label('karpenter.sh/capacity-type') },
      { name: 'Zone', type: 'string', jsonPath: label('topology.kubernetes.io/zone') },
      { name: 'Node', type: 'string', jsonPath: '.status.nodeName' },
      { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
      { name: 'ID', type: 'string', jsonPath: '.status.providerID', priority: 1 },
      { name: 'NodePool', type: 'string', jsonPath: label('karpenter.sh/nodepool'), priority: 1 },
      { name: 'NodeClass', type: 'string', jsonPath: '.spec.nodeClassRef.name', priority: 1 },
      {
        name: 'Drifted',
        type: 'string',
        jsonPath: '.status.conditions[?(@.type=="Drifted")].status',
        priority: 1,
      },
    ],
  );
  const spec = manifest.spec as { versions: Record<string, unknown>[] };
  return {
    ...manifest,
    spec: { ...spec, versions: spec.versions.map(({ subresources: _, ...version }) => version) },
  };
}
