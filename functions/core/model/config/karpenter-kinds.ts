/**
 * Coexistence with Karpenter: whether joiner acts on NodePools of Karpenter's kinds. Two
 * autoscalers must never act on the same pods, and Karpenter's controller reads exactly these
 * kinds, so the choice is the operator's, stack-wide: `manage` (joiner replaces Karpenter; the
 * default) or `ignore` (Karpenter runs; joiner acts only on its own joiner.sh kinds, which
 * Karpenter never reads). joiner's own kinds are always managed.
 */
import type { ConfigDocument } from '../../ports/cluster-api.js';

/** What joiner does with karpenter.sh NodePools / Provisioners. */
export type KarpenterKinds = 'manage' | 'ignore';

export const KARPENTER_KINDS_VALUES: readonly KarpenterKinds[] = ['manage', 'ignore'];

/** The default: joiner is the cluster's only node autoscaler and reads Karpenter's kinds. */
export const DEFAULT_KARPENTER_KINDS: KarpenterKinds = 'manage';

/** A NodePool document joiner leaves alone, and why. */
export interface UnmanagedNodePool {
  readonly name: string;
  readonly apiVersion: string;
  readonly kind: string;
  readonly reason: string;
}

/** The API group of Karpenter's NodePool-like kinds (NodePool, Provisioner). */
const KARPENTER_GROUP = 'karpenter.sh';

/**
 * Parses a `manage` / `ignore` setting; undefined or empty is the default. `where` names the
 * setting (an environment variable, a context key) in the error.
 */
export function parseKarpenterKinds(value: string | undefined, where: string): KarpenterKinds {
  if (value === undefined || value === '') return DEFAULT_KARPENTER_KINDS;
  if ((KARPENTER_KINDS_VALUES as readonly string[]).includes(value)) return value as KarpenterKinds;
  throw new Error(`${where} must be one of ${KARPENTER_KINDS_VALUES.join(', ')} (got '${value}')`);
}

/** Why joiner does not act on the NodePool document `doc`; undefined when it does. */
export function unmanagedReason(doc: ConfigDocument, policy: KarpenterKinds): string | undefined {
  if (policy === 'manage') return undefined;
  if (typeof doc.apiVersion !== 'string' || doc.apiVersion.split('/')[0] !== KARPENTER_GROUP)
    return undefined;
  return `${doc.apiVersion} ${doc.kind} is Karpenter's and joiner is set to ignore Karpenter's kinds (joiner:karpenterKinds=ignore)`;
}

/**
 * Splits configuration documents into those joiner acts on and the NodePools it leaves alone (with
 * the reason). Only NodePool-like kinds are in Karpenter's karpenter.sh group, so NodeClass
 * documents always pass (see {@link managedNodeClasses} for them).
 */
export function selectManagedNodePools(
  documents: readonly ConfigDocument[],
  policy: KarpenterKinds,
): { managed: ConfigDocument[]; unmanaged: UnmanagedNodePool[] } {
  const managed: ConfigDocument[] = [];
  const unmanaged: UnmanagedNodePool[] = [];
  for (const doc of documents) {
    const reason = unmanagedReason(doc, policy);
    if (reason === undefined) managed.push(doc);
    else unmanaged.push({ name: doc.metadata.name, apiVersion: doc.apiVersion, kind: doc.kind, reason });
  }
  return { managed, unmanaged };
}

/**
 * The NodeClasses joiner uses under `policy`: with `ignore`, a NodeClass of Karpenter's kinds
 * (EC2NodeClass, AWSNodeTemplate, a Provisioner's inline provider) only when a managed NodePool
 * refers to it, so joiner prepares nothing (instance profiles, launch templates) for Karpenter.
 */
export function managedNodeClasses<
  C extends { readonly name: string; readonly source: { readonly apiVersion: string } },
>(
  nodeClasses: readonly C[],
  nodePools: readonly { readonly nodeClassRef: { readonly name: string } }[],
  policy: KarpenterKinds,
): C[] {
  if (policy === 'manage') return [...nodeClasses];
  const referenced = new Set(nodePools.map((p) => p.nodeClassRef.name));
  return nodeClasses.filter((c) => c.source.apiVersion.startsWith('joiner.sh/') || referenced.has(c.name));
}

/**
 * The sentence added to the reason of a pod no managed NodePool could take while NodePools are
 * left alone: those NodePools may be meant for it, and another autoscaler may act on them.
 */
export function unmanagedPoolsSentence(unmanaged: readonly UnmanagedNodePool[]): string | undefined {
  if (unmanaged.length === 0) return undefined;
  const names = unmanaged.map((u) => u.name).join(', ');
  return `joiner does not manage NodePool(s) ${names} (Karpenter's kinds are ignored: joiner:karpenterKinds=ignore)`;
}
