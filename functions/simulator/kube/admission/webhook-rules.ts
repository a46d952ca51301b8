/**
 * Which requests a webhook of a `ValidatingWebhookConfiguration` is called for: `rules`
 * (operations, apiGroups, apiVersions, resources with subresources, scope), `namespaceSelector`
 * and `objectSelector`.
 */
import type { LabelSelector } from '../../../core/model/kube-objects.js';
import type { AdmissionAttributes } from '../api/admission-types.js';
import { matchesLabelSelector } from '../api/label-selector.js';

/** One rule of a webhook. */
export interface WebhookRule {
  readonly operations?: string[];
  readonly apiGroups?: string[];
  readonly apiVersions?: string[];
  readonly resources?: string[];
  readonly scope?: 'Cluster' | 'Namespaced' | '*';
}

const has = (list: readonly string[] | undefined, value: string): boolean =>
  (list ?? []).some((v) => v === '*' || v === value);

function resourceMatches(patterns: readonly string[] | undefined, plural: string, sub: string): boolean {
  return (patterns ?? []).some((p) => {
    const [res, subPattern] = p.split('/');
    if (res !== '*' && res !== plural) return false;
    if (subPattern === undefined) return sub === '';
    return subPattern === '*' || subPattern === sub;
  });
}

/** Whether one rule covers the request. */
export function ruleMatches(rule: WebhookRule, a: AdmissionAttributes): boolean {
  if (!has(rule.operations, a.operation)) return false;
  if (!has(rule.apiGroups, a.type.group) || !has(rule.apiVersions, a.type.version)) return false;
  if (!resourceMatches(rule.resources, a.type.plural, a.subresource)) return false;
  const scope = rule.scope ?? '*';
  if (scope === 'Cluster' && a.type.namespaced) return false;
  if (scope === 'Namespaced' && !a.type.namespaced) return false;
  return true;
}

/**
 * Whether the selectors admit the request. A namespace selector applies to namespaced objects (and
 * namespaces themselves); an absent selector matches everything.
 */
export function selectorsMatch(
  selectors: { namespaceSelector?: LabelSelector; objectSelector?: LabelSelector },
  a: AdmissionAttributes,
  namespaceLabels: Record<string, string> | undefined,
): boolean {
  const nsSel = selectors.namespaceSelector;
  if (nsSel && (a.type.namespaced || a.type.plural === 'namespaces')) {
    const labels = a.type.plural === 'namespaces' ? a.object?.metadata.labels : namespaceLabels;
    if (!matchesLabelSelector(nsSel, labels ?? {})) return false;
  }
  const objSel = selectors.objectSelector;
  if (objSel) {
    const candidates = [a.object?.metadata?.labels, a.oldObject?.metadata?.labels].filter(
      (l) => l !== undefined,
    );
    if (candidates.length === 0) candidates.push({});
    if (!candidates.some((l) => matchesLabelSelector(objSel, l))) return false;
  }
  return true;
}
