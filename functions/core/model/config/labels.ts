/**
 * Label rules Karpenter enforces on NodePool labels and requirement keys: the `kubernetes.io`,
 * `k8s.io`, `karpenter.sh` and `karpenter.k8s.aws` domains are reserved except for well-known labels.
 */

/** Well-known `kubernetes.io` labels a NodePool may set or require. */
export const WELL_KNOWN_KUBERNETES = new Set([
  'beta.kubernetes.io/instance-type',
  'failure-domain.beta.kubernetes.io/region',
  'failure-domain.beta.kubernetes.io/zone',
  'beta.kubernetes.io/os',
  'beta.kubernetes.io/arch',
  'topology.kubernetes.io/zone',
  'topology.kubernetes.io/region',
  'node.kubernetes.io/instance-type',
  'kubernetes.io/arch',
  'kubernetes.io/os',
  'node.kubernetes.io/windows-build',
]);

/** Well-known `karpenter.k8s.aws` labels a NodePool may set or require. */
export const WELL_KNOWN_AWS = new Set(
  [
    'instance-tenancy',
    'capacity-reservation-type',
    'capacity-reservation-id',
    'capacity-reservation-interruptible',
    'nitro-sandbox',
    'instance-capability-flex',
    'placement-group-id',
    'placement-group-partition',
    'ec2nodeclass',
    'instance-encryption-in-transit-supported',
    'instance-category',
    'instance-hypervisor',
    'instance-family',
    'instance-generation',
    'instance-local-nvme',
    'instance-size',
    'instance-cpu',
    'instance-cpu-manufacturer',
    'instance-cpu-sustained-clock-speed-mhz',
    'instance-memory',
    'instance-ebs-bandwidth',
    'instance-network-bandwidth',
    'instance-gpu-name',
    'instance-gpu-manufacturer',
    'instance-gpu-count',
    'instance-gpu-memory',
    'instance-accelerator-name',
    'instance-accelerator-manufacturer',
    'instance-accelerator-count',
  ].map((s) => `karpenter.k8s.aws/${s}`),
);

function domainOf(key: string): string {
  const slash = key.indexOf('/');
  return slash < 0 ? '' : key.slice(0, slash);
}

const endsWithDomain = (domain: string, suffix: string): boolean =>
  domain === suffix || domain.endsWith(`.${suffix}`);

/**
 * Returns why a label key may not be set by a NodePool (as a label or requirement key), or
 * `undefined` when it is allowed.
 */
export function restrictedLabelReason(key: string): string | undefined {
  if (key === 'karpenter.sh/nodepool' || key === 'kubernetes.io/hostname') {
    return `label "${key}" is restricted: it is set by the autoscaler or the kubelet`;
  }
  const domain = domainOf(key);
  if (domain === '') return undefined;
  if (endsWithDomain(domain, 'kubernetes.io')) {
    if (WELL_KNOWN_KUBERNETES.has(key)) return undefined;
    if (
      endsWithDomain(domain, 'node.kubernetes.io') ||
      endsWithDomain(domain, 'node-restriction.kubernetes.io')
    ) {
      return undefined;
    }
    return 'label domain "kubernetes.io" is restricted';
  }
  if (endsWithDomain(domain, 'k8s.io') && !endsWithDomain(domain, 'kops.k8s.io')) {
    return 'label domain "k8s.io" is restricted';
  }
  if (endsWithDomain(domain, 'karpenter.sh') && key !== 'karpenter.sh/capacity-type') {
    return 'label domain "karpenter.sh" is restricted';
  }
  if (endsWithDomain(domain, 'karpenter.k8s.aws') && !WELL_KNOWN_AWS.has(key)) {
    return 'label domain "karpenter.k8s.aws" is restricted';
  }
  return undefined;
}

const NOT_COMPUTED =
  'joiner does not compute this label from its catalog, so it would match no instance type';

/**
 * Well-known labels Karpenter derives and joiner does not: a requirement or label on them would
 * be matched against nothing joiner knows, so it is refused with the reason. (Karpenter's
 * well-known labels are in aws/karpenter-provider-aws `pkg/apis/v1/labels.go`; every other one is
 * computed by joiner, see catalog/well-known-labels.ts and scheduling/zone-ids.ts.)
 */
const UNSUPPORTED_WELL_KNOWN: Readonly<Record<string, string>> = {
  'karpenter.k8s.aws/capacity-reservation-interruptible':
    'interruptible capacity reservations are not supported: joiner does not launch into them',
  'karpenter.k8s.aws/nitro-sandbox': NOT_COMPUTED,
  'karpenter.k8s.aws/instance-capability-flex': NOT_COMPUTED,
  'karpenter.k8s.aws/placement-group-id':
    'placement groups are not supported (an EC2NodeClass placementGroupSelector is refused)',
  'karpenter.k8s.aws/placement-group-partition':
    'placement groups are not supported (an EC2NodeClass placementGroupSelector is refused)',
  'node.kubernetes.io/windows-build': 'joiner does not launch Windows nodes',
  'karpenter.k8s.aws/capacity-reservation-id':
    'joiner does not select reservations by label: select them with the EC2NodeClass capacityReservationSelectorTerms and allow karpenter.sh/capacity-type reserved',
  'karpenter.k8s.aws/capacity-reservation-type':
    'joiner does not select reservations by label: select them with the EC2NodeClass capacityReservationSelectorTerms and allow karpenter.sh/capacity-type reserved',
};

/** Why joiner refuses a well-known label key it does not compute, or `undefined`. */
export function unsupportedLabelReason(key: string): string | undefined {
  const reason = UNSUPPORTED_WELL_KNOWN[key];
  return reason === undefined ? undefined : `label "${key}" is not supported: ${reason}`;
}

/** The tenancy label and the only value joiner launches. */
const TENANCY = 'karpenter.k8s.aws/instance-tenancy';
const SHARED_TENANCY = 'default';

/**
 * Why a requirement on the tenancy label cannot be met by joiner (it launches on shared hardware
 * only: tenancy `default`), or `undefined`.
 */
export function unsupportedTenancyReason(
  key: string,
  operator: string,
  values: readonly string[],
): string | undefined {
  if (key !== TENANCY) return undefined;
  const excludesDefault =
    (operator === 'In' && !values.includes(SHARED_TENANCY)) ||
    (operator === 'NotIn' && values.includes(SHARED_TENANCY)) ||
    operator === 'DoesNotExist';
  if (!excludesDefault) return undefined;
  return `instance tenancy other than "${SHARED_TENANCY}" is not supported: joiner launches on shared hardware only`;
}

const NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const PREFIX = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Returns why a string is not a valid Kubernetes label key (`[prefix/]name`), or `undefined`. */
export function invalidLabelKeyReason(key: string): string | undefined {
  const parts = key.split('/');
  if (parts.length > 2) return `label key "${key}" has more than one "/"`;
  const name = parts[parts.length - 1];
  if (name.length === 0 || name.length > 63 || !NAME.test(name)) {
    return `label key "${key}" is not a valid label name (alphanumerics, "-", "_", "." up to 63 characters)`;
  }
  if (parts.length === 2 && (parts[0].length > 253 || !PREFIX.test(parts[0]))) {
    return `label key "${key}" has an invalid prefix (must be a DNS subdomain)`;
  }
  return undefined;
}

/** Returns why a string is not a valid label value, or `undefined`. */
export function invalidLabelValueReason(value: string): string | undefined {
  if (value === '') return undefined;
  if (value.length > 63 || !NAME.test(value)) {
    return `label value "${value}" is invalid (alphanumerics, "-", "_", "." up to 63 characters)`;
  }
  return undefined;
}
