import { ec2NodeClassV1, nodePoolV1 } from '../model/config/schema/v1.js';
import { nodeOverlayV1alpha1 } from '../model/config/schema/v1alpha1-overlay.js';
import { conditionColumn, crdManifest, documentSchema } from './crd-schema/crd-manifest.js';
import { NODE_POOL_COLUMNS, NODE_POOL_SCALE } from './crds.js';
import type { KubeManifest } from './kube-manifest.js';

export { NODE_POOL_SCALE } from './crds.js';

/**
 * The annotation that makes the installer create an object only where none exists, and update it
 * only while joiner owns it (it carries joiner's managed-by label): Karpenter's CRDs, which a
 * Karpenter installation owns when it is there.
 */
export const INSTALL_POLICY_ANNOTATION = 'joiner.sh/install-policy';

/** The value of {@link INSTALL_POLICY_ANNOTATION} for objects installed only where absent. */
export const UNLESS_PRESENT = 'unless-present';

/**
 * Karpenter's names of a kind (its short names and its `karpenter` category), plus the `joiner`
 * category: where joiner installs these CRDs, `kubectl get joiner` lists their objects with
 * joiner's own, as `kubectl get karpenter` does (joiner's CRDs are in both categories).
 */
const names = (kind: string, plural: string, shortNames: string[] = []) => ({
  kind,
  plural,
  singular: kind.toLowerCase(),
  shortNames,
  categories: ['karpenter', 'joiner'],
});

function unlessPresent(manifest: KubeManifest): KubeManifest {
  return {
    ...manifest,
    metadata: { ...manifest.metadata, annotations: { [INSTALL_POLICY_ANNOTATION]: UNLESS_PRESENT } },
  };
}

/**
 * Karpenter's `nodepools.karpenter.sh`, `ec2nodeclasses.karpenter.k8s.aws` and
 * `nodeoverlays.karpenter.sh` CRDs with Karpenter's names and printer columns and schemas
 * generated from joiner's zod schemas of those kinds, so Karpenter YAML applies unchanged where
 * Karpenter is not installed (and is refused where joiner would refuse it). Installed only where
 * absent: a Karpenter installation keeps its own.
 */
export function karpenterCrds(): KubeManifest[] {
  return [
    crdManifest('karpenter.sh', names('NodePool', 'nodepools'), {
      name: 'v1',
      schema: documentSchema(nodePoolV1()),
      columns: NODE_POOL_COLUMNS,
      scale: NODE_POOL_SCALE,
    }),
    crdManifest('karpenter.k8s.aws', names('EC2NodeClass', 'ec2nodeclasses', ['ec2nc', 'ec2ncs']), {
      name: 'v1',
      schema: documentSchema(ec2NodeClassV1()),
      columns: [
        conditionColumn('Ready'),
        { name: 'Role', type: 'string', jsonPath: '.spec.role', priority: 1 },
      ],
    }),
    crdManifest('karpenter.sh', names('NodeOverlay', 'nodeoverlays', ['overlays']), {
      name: 'v1alpha1',
      schema: documentSchema(nodeOverlayV1alpha1()),
      columns: [
        conditionColumn('Ready'),
        { name: 'Weight', type: 'integer', jsonPath: '.spec.weight', priority: 1 },
      ],
    }),
  ].map(unlessPresent);
}
