/**
 * A topology group: pods selected by one label selector (in some namespaces), counted per domain of
 * one topology key. Topology spread constraints, pod affinity and pod anti-affinity terms that share
 * a selector, namespaces and key share a group.
 */
import type { LabelSelector } from '../model/kube-objects.js';
import { matchesSelector } from './label-selector.js';
import type { NodeFilter } from './node-filter.js';

/** What a group is used for. */
export type GroupKind = 'spread' | 'affinity' | 'anti';

/** Pods matching a selector, counted per topology domain. */
export class TopologyGroup {
  /** Matching pods per domain. */
  readonly counts = new Map<string, number>();
  /** Anti-affinity only: pods carrying the term, per domain (they repel pods the selector matches). */
  readonly owners = new Map<string, number>();
  /** Matching pods recorded in any domain. */
  total = 0;
  /** Bumped on every change; caches of derived values compare it. */
  version = 0;

  constructor(
    readonly key: string,
    readonly kind: GroupKind,
    readonly topologyKey: string,
    /** `undefined` = all namespaces. */
    readonly namespaces: ReadonlySet<string> | undefined,
    readonly selector: LabelSelector | undefined,
    /** Spread groups: the nodes whose pods count (node inclusion policies); undefined = every node. */
    readonly filter?: NodeFilter,
  ) {}

  /** Whether the group counts a pod with these labels in this namespace. */
  selects(namespace: string, labels: Readonly<Record<string, string>>): boolean {
    if (this.namespaces && !this.namespaces.has(namespace)) return false;
    return matchesSelector(this.selector, labels);
  }

  count(domain: string): number {
    return this.counts.get(domain) ?? 0;
  }

  ownersIn(domain: string): number {
    return this.owners.get(domain) ?? 0;
  }

  /** Records one matching pod in a domain. */
  add(domain: string): void {
    this.counts.set(domain, (this.counts.get(domain) ?? 0) + 1);
    this.total++;
    this.version++;
  }

  /** Records one pod carrying this anti-affinity term in a domain. */
  addOwner(domain: string): void {
    this.owners.set(domain, (this.owners.get(domain) ?? 0) + 1);
    this.version++;
  }

  /** Forgets one matching pod recorded in a domain (the inverse of {@link add}). */
  remove(domain: string): void {
    const n = (this.counts.get(domain) ?? 0) - 1;
    if (n > 0) this.counts.set(domain, n);
    else this.counts.delete(domain);
    this.total--;
    this.version++;
  }

  /** Forgets one pod carrying this anti-affinity term in a domain (the inverse of {@link addOwner}). */
  removeOwner(domain: string): void {
    const n = (this.owners.get(domain) ?? 0) - 1;
    if (n > 0) this.owners.set(domain, n);
    else this.owners.delete(domain);
    this.version++;
  }
}

/** Builds the stable key of a group. */
export function groupKey(
  kind: GroupKind,
  topologyKey: string,
  namespaces: ReadonlySet<string> | undefined,
  selector: string,
  filter?: NodeFilter,
): string {
  const ns = namespaces ? [...namespaces].sort().join(',') : '*';
  return `${kind}|${topologyKey}|${ns}|${selector}${filter ? `|${filter.key}` : ''}`;
}
