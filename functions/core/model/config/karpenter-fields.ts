/**
 * Fields of Karpenter's own kinds (its CRDs' `spec`) that joiner does not implement. A document
 * that sets one is refused with an error naming the field and why, never loaded with the field
 * dropped: joiner's schemas know every other Karpenter field, and a key neither knows is a typo
 * (a warning). `test/fixtures/karpenter-fields.json` lists every field of the CRDs, and a unit
 * test holds each one to either joiner's schema (with where it is implemented) or this table.
 */

const LATER = 'joiner does not implement it yet';

/** Unimplemented EC2NodeClass fields (`karpenter.k8s.aws`), by path under the document. */
const NODE_CLASS: Readonly<Record<string, string>> = {
  'spec.connectionTracking': `connection tracking timeouts are not sent to the launched ENIs: ${LATER}`,
  'spec.cpuOptions': `CPU options (nested virtualization) are not set on the launch template: ${LATER}`,
  'spec.ipPrefixCount': `IPv4 prefixes are not assigned to the primary ENI (max pods does not count them): ${LATER}`,
  'spec.networkInterfaces':
    'Karpenter network interfaces are not read: joiner attaches EFA interfaces itself and extra interfaces through its joiner.sh/v1 NodeClass multusInterfaces',
  'spec.placementGroupSelector': `instances are not launched into placement groups: ${LATER}`,
  'spec.kubelet.*':
    'joiner passes clusterDNS, maxPods, podsPerCore, systemReserved, kubeReserved, evictionHard, evictionSoft, evictionSoftGracePeriod, evictionMaxPodGracePeriod, imageGCHighThresholdPercent, imageGCLowThresholdPercent and cpuCFSQuota to the kubelet; no other KubeletConfiguration field',
};

/** Karpenter's kinds, keyed `group/kind`: the unimplemented fields of each. */
const UNIMPLEMENTED: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'karpenter.k8s.aws/EC2NodeClass': NODE_CLASS,
  // joiner's own NodeClass is the v1 EC2NodeClass plus Multus interfaces.
  'joiner.sh/NodeClass': NODE_CLASS,
};

/** The path as the field tables write it: array indices become `[]` (`a[0].b` → `a[].b`). */
export function fieldPattern(path: readonly (string | number)[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += '[]';
    else out += out === '' ? part : `.${part}`;
  }
  return out;
}

/**
 * Why a field joiner's schema does not know, at `path` in a document of `apiVersion` / `kind`,
 * is a Karpenter field joiner refuses; `undefined` when it is not one of Karpenter's (a typo).
 * A field under an unimplemented one is refused with its parent's reason, and `path.*` refuses
 * every field under `path` the schema does not know (a KubeletConfiguration field under
 * `spec.kubelet` that joiner does not pass).
 */
export function unimplementedKarpenterField(
  apiVersion: string,
  kind: string,
  path: readonly (string | number)[],
): string | undefined {
  const table = UNIMPLEMENTED[`${apiVersion.split('/')[0]}/${kind}`];
  if (!table) return undefined;
  let pattern = fieldPattern(path);
  if (table[pattern] !== undefined) return table[pattern];
  for (;;) {
    const cut = Math.max(pattern.lastIndexOf('.'), pattern.lastIndexOf('['));
    if (cut <= 0) return undefined;
    pattern = pattern.slice(0, cut);
    const reason = table[pattern] ?? table[`${pattern}.*`];
    if (reason !== undefined) return reason;
  }
}
