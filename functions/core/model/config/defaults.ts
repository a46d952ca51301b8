import type { MetadataOptions } from '../node-class.js';
import type { Disruption, DisruptionBudget } from '../node-pool.js';

/** Karpenter v1 default `expireAfter`: 720h. */
export const DEFAULT_EXPIRE_AFTER_MS = 720 * 3_600_000;

/** Karpenter v1 default `consolidateAfter`: 0s. */
export const DEFAULT_CONSOLIDATE_AFTER_MS = 0;

/** Karpenter v1 default budgets: `[{ nodes: 10% }]`. */
export const DEFAULT_BUDGETS: readonly DisruptionBudget[] = [{ nodes: { percent: 10 } }];

/** Karpenter v1 default disruption settings. */
export const DEFAULT_DISRUPTION: Disruption = {
  consolidationPolicy: 'WhenEmptyOrUnderutilized',
  consolidateAfterMs: DEFAULT_CONSOLIDATE_AFTER_MS,
  budgets: DEFAULT_BUDGETS,
};

/** Karpenter v1 default metadata options: IMDSv2 required, hop limit 1, endpoint on, IPv6 off. */
export const DEFAULT_METADATA_OPTIONS: MetadataOptions = {
  httpEndpoint: 'enabled',
  httpProtocolIPv6: 'disabled',
  httpPutResponseHopLimit: 1,
  httpTokens: 'required',
};

/** Default NodePool weight. */
export const DEFAULT_WEIGHT = 0;

/** The group and kind a karpenter.sh NodePool's nodeClassRef points to by default. */
export const EC2_NODE_CLASS_GROUP = 'karpenter.k8s.aws';
export const EC2_NODE_CLASS_KIND = 'EC2NodeClass';

/** Defaults of a joiner.sh/v1 Multus interface. */
export const DEFAULT_MULTUS = {
  networkCardIndex: 0,
  disableSourceDestCheck: true,
  ipv6AddressCount: 0,
} as const;
