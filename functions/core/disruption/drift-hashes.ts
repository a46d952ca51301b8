/**
 * The hashes static drift compares, as Karpenter computes them: a NodePool's hash covers what its
 * nodeclaim template puts on a node (labels, annotations, taints, startup taints, NodeClass
 * reference, expireAfter, terminationGracePeriod) but not its requirements, which are checked
 * against the node's labels instead; a NodeClass's hash covers its whole spec except the selector
 * terms, whose changes show through what they resolve to (AMIs, subnets, security groups).
 * Behavioural fields (weight, limits, disruption) and where a document came from are in neither.
 *
 * Lists whose order carries no meaning (taints, block devices, Multus interfaces) hash as sets and
 * empty maps or lists hash as absent, as Karpenter's hashing does (`SlicesAsSets`,
 * `IgnoreZeroValue`), so an equivalent document never drifts a node.
 */
import { shortHash, stableStringify } from '../launch/hash.js';
import type { AmiFamily, AmiSelectorTerm, NodeClass } from '../model/node-class.js';
import type { NodePool } from '../model/node-pool.js';

/**
 * Version of {@link nodePoolDriftHash}. Bump it whenever the hash of an unchanged NodePool would
 * change (a field added to or removed from the hash, a default changed): claims stamped with
 * another version are not compared, so such a release drifts no node.
 */
export const NODEPOOL_HASH_VERSION = 'joiner-v1';

/** Version of {@link nodeClassDriftHash}; bumped under the same rules as {@link NODEPOOL_HASH_VERSION}. */
export const NODECLASS_HASH_VERSION = 'joiner-v1';

/** The drift hash of a NodePool's nodeclaim template (see the file comment for what it covers). */
export function nodePoolDriftHash(pool: NodePool): string {
  return shortHash(
    pruned({
      labels: pool.labels,
      annotations: pool.annotations,
      taints: asSet(pool.taints),
      startupTaints: asSet(pool.startupTaints),
      nodeClassRef: pool.nodeClassRef,
      expireAfterMs: pool.expireAfterMs,
      terminationGracePeriodMs: pool.terminationGracePeriodMs,
      // v1beta1 / v1alpha5 carried kubelet settings on the template, where Karpenter hashed them.
      kubelet: pool.kubelet,
    }),
  );
}

/** The drift hash of a NodeClass: its spec without selector terms (see the file comment). */
export function nodeClassDriftHash(nodeClass: NodeClass): string {
  const {
    name: _name,
    source: _source,
    amiSelectorTerms: _amis,
    subnetSelectorTerms: _subnets,
    securityGroupSelectorTerms: _securityGroups,
    capacityReservationSelectorTerms: _reservations,
    amiFamily: _family,
    blockDeviceMappings,
    multusInterfaces,
    ...spec
  } = nodeClass;
  return shortHash(
    pruned({
      ...spec,
      // The family the node boots with, whether written or implied by an alias, as Karpenter
      // hashes it: writing down the family an alias already implies drifts nothing.
      amiFamily: effectiveAmiFamily(nodeClass.amiFamily, nodeClass.amiSelectorTerms),
      blockDeviceMappings: asSet(blockDeviceMappings),
      // Multus interfaces hash whole: their selectors are not checked through resolution.
      multusInterfaces: asSet(multusInterfaces),
    }),
  );
}

const ALIAS_FAMILIES: Readonly<Record<string, AmiFamily>> = {
  al2: 'AL2',
  al2023: 'AL2023',
  bottlerocket: 'Bottlerocket',
  windows2019: 'Windows2019',
  windows2022: 'Windows2022',
  windows2025: 'Windows2025',
};

/** The written AMI family, else the family of the alias term (`al2023@latest` -> AL2023). */
function effectiveAmiFamily(
  written: AmiFamily | undefined,
  terms: readonly AmiSelectorTerm[],
): AmiFamily | undefined {
  if (written) return written;
  const alias = terms.find((t) => t.alias)?.alias;
  return alias ? ALIAS_FAMILIES[alias.split('@')[0].toLowerCase()] : undefined;
}

/** The list in a canonical order, so two orderings of the same members hash the same. */
function asSet<T>(list: readonly T[] | undefined): readonly T[] | undefined {
  if (!list) return undefined;
  return list
    .map((item) => ({ item, key: stableStringify(item) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map(({ item }) => item);
}

/** The value without undefined fields, empty maps and empty lists (at every level). */
function pruned(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(pruned);
    return items.length === 0 ? undefined : items;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => [k, pruned(v)] as const)
      .filter(([, v]) => v !== undefined);
    return entries.length === 0 ? undefined : Object.fromEntries(entries);
  }
  return value;
}
