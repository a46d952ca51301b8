/** A pod's node constraints (nodeSelector and node affinity) as requirement sets. */
import type { NodeSelectorTerm, Pod } from '../model/kube-objects.js';
import type { Requirement } from '../model/requirement.js';
import { Requirements } from './requirements.js';

/** Requirements of one node selector term (matchExpressions; matchFields on metadata.name become hostname). */
export function termRequirements(term: NodeSelectorTerm): Requirements {
  const reqs: Requirement[] = [];
  for (const e of term.matchExpressions ?? [])
    reqs.push({ key: e.key, operator: e.operator, values: e.values ?? [] });
  for (const f of term.matchFields ?? []) {
    if (f.key === 'metadata.name')
      reqs.push({ key: 'kubernetes.io/hostname', operator: f.operator, values: f.values ?? [] });
  }
  return Requirements.of(reqs);
}

/** The pod's nodeSelector as requirements. */
export function nodeSelectorRequirements(pod: Pod): Requirements {
  return Requirements.fromLabels(pod.spec.nodeSelector ?? {});
}

/**
 * The alternatives (OR) of the pod's required node affinity, each already intersected with the
 * nodeSelector. One alternative (the nodeSelector alone) when the pod has no required affinity.
 */
export function requiredNodeAlternatives(pod: Pod): Requirements[] {
  const base = nodeSelectorRequirements(pod);
  const terms =
    pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  if (!terms || terms.length === 0) return [base];
  return terms.map((t) => base.and(termRequirements(t)));
}

/** Preferred node affinity terms, heaviest first (stable for equal weights). */
export function preferredNodeTerms(pod: Pod): Requirements[] {
  const prefs = pod.spec.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? [];
  return prefs
    .map((p, i) => ({ w: p.weight, i, reqs: termRequirements(p.preference) }))
    .sort((a, b) => b.w - a.w || a.i - b.i)
    .map((p) => p.reqs);
}

/** Whether a node with these labels satisfies the pod's nodeSelector and required node affinity. */
export function matchesNodeAffinity(pod: Pod, labels: Readonly<Record<string, string>>): boolean {
  return requiredNodeAlternatives(pod).some((alt) => alt.matchesLabels(labels));
}
