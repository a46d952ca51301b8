/** Kubernetes label selectors (matchLabels AND matchExpressions). */
import type { LabelSelector } from '../model/kube-objects.js';

/**
 * Whether labels match a selector. A missing selector matches nothing (as in pod affinity terms and
 * topology spread constraints); an empty selector `{}` matches everything.
 */
export function matchesSelector(
  selector: LabelSelector | undefined,
  labels: Readonly<Record<string, string>>,
): boolean {
  if (!selector) return false;
  if (selector.matchLabels) {
    for (const key in selector.matchLabels) if (labels[key] !== selector.matchLabels[key]) return false;
  }
  for (const expr of selector.matchExpressions ?? []) {
    const value = labels[expr.key];
    const values = expr.values ?? [];
    switch (expr.operator) {
      case 'In':
        if (value === undefined || !values.includes(value)) return false;
        break;
      case 'NotIn':
        if (value !== undefined && values.includes(value)) return false;
        break;
      case 'Exists':
        if (value === undefined) return false;
        break;
      case 'DoesNotExist':
        if (value !== undefined) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

/** A canonical text form of a selector, for grouping identical selectors. */
export function selectorKey(selector: LabelSelector | undefined): string {
  if (!selector) return '-';
  const labels = Object.keys(selector.matchLabels ?? {})
    .sort()
    .map((k) => `${k}=${selector.matchLabels![k]}`);
  const exprs = (selector.matchExpressions ?? [])
    .map((e) => `${e.key} ${e.operator} ${[...(e.values ?? [])].sort().join(',')}`)
    .sort();
  return `${labels.join(',')};${exprs.join(';')}`;
}
