/**
 * The restricted label domains of `labels.ts` (`restrictedLabelReason`) as CEL rules, for the CRD
 * schemas of NodePool labels and requirement keys (Karpenter's CRDs carry the same rules). Written
 * with standard CEL only (`in`, `matches`), which every API server evaluates.
 */
import { WELL_KNOWN_AWS, WELL_KNOWN_KUBERNETES } from '../labels.js';
import type { CelRule } from './crd-rules.js';

const list = (items: Iterable<string>): string => `[${[...items].map((i) => `'${i}'`).join(', ')}]`;

/** A CEL test that the key `k` is in `domain` or one of its subdomains. */
const inDomain = (k: string, domain: string): string =>
  `${k}.matches('^([^/]*\\\\.)?${domain.replaceAll('.', '\\\\.')}/')`;

/**
 * The rules on one label key, the key being the CEL expression `k` (`self` for a requirement key,
 * the bound variable of `self.all(k, ...)` for a label map).
 */
export function restrictedLabelRules(k: string): { rule: string; message: string }[] {
  return [
    {
      rule: `!(${k} in ['karpenter.sh/nodepool', 'kubernetes.io/hostname'])`,
      message: 'labels "karpenter.sh/nodepool" and "kubernetes.io/hostname" are restricted',
    },
    {
      rule: `${k} in ${list(WELL_KNOWN_KUBERNETES)} || !${inDomain(k, 'kubernetes.io')} || ${inDomain(k, 'node.kubernetes.io')} || ${inDomain(k, 'node-restriction.kubernetes.io')}`,
      message: 'label domain "kubernetes.io" is restricted',
    },
    {
      rule: `!${inDomain(k, 'k8s.io')} || ${inDomain(k, 'kops.k8s.io')}`,
      message: 'label domain "k8s.io" is restricted',
    },
    {
      rule: `${k} == 'karpenter.sh/capacity-type' || !${inDomain(k, 'karpenter.sh')}`,
      message: 'label domain "karpenter.sh" is restricted',
    },
    {
      rule: `${k} in ${list(WELL_KNOWN_AWS)} || !${inDomain(k, 'karpenter.k8s.aws')}`,
      message: 'label domain "karpenter.k8s.aws" is restricted',
    },
  ];
}

/** The same rules over every key of a label map (`self`). */
export function restrictedLabelMapRules(): CelRule[] {
  return restrictedLabelRules('k').map(({ rule, message }) => ({ rule: `self.all(k, ${rule})`, message }));
}
