/**
 * Topology bookkeeping for one scheduling run: the groups, the domains of each topology key, and
 * the checks of topology spread, pod affinity and pod anti-affinity against a target (an existing
 * node, an in-flight claim or a new claim).
 */

import { unsupportedLabelReason } from '../model/config/labels.js';
import type { LabelSelector } from '../model/kube-objects.js';
import type { Taint } from '../model/taint.js';
import { selectorKey } from './label-selector.js';
import { filteredDomainsOf, type NodeFilter } from './node-filter.js';
import { type GroupKind, groupKey, TopologyGroup } from './topology-group.js';
import { HOSTNAME } from './well-known.js';
import { ZONE_ID } from './zone-ids.js';

/** Something pods can be placed on, seen by topology. */
export interface TopologyTarget {
  readonly name: string;
  /** Domains the target may end up in for a key: one when known, several for an unpinned claim, none when it lacks the label. */
  domains(key: string): readonly string[];
  /** Whether a spread group with this node filter counts the pods on the target. */
  admits(filter: NodeFilter): boolean;
}

/** A topology spread constraint of a pod, bound to its group. */
export interface SpreadRule {
  readonly group: TopologyGroup;
  readonly maxSkew: number;
  readonly minDomains: number;
  readonly selfMatch: boolean;
}

/** A pod (anti-)affinity term of a pod, bound to its group. */
export interface TermRule {
  readonly group: TopologyGroup;
  readonly selfMatch: boolean;
}

/** The topology part of one variant of a pod's constraints. */
export interface TopologyConstraints {
  readonly spreads: readonly SpreadRule[];
  readonly affinities: readonly TermRule[];
  readonly antis: readonly TermRule[];
  /** Anti-affinity groups whose selector matches the pod (their owners repel it). */
  readonly repelledBy: readonly TopologyGroup[];
}

/** Result of a topology check: the allowed domains per constrained key, or why none is left. */
export type TopologyVerdict =
  | { readonly ok: true; readonly narrow: readonly { key: string; domains: readonly string[] }[] }
  | { readonly ok: false; readonly reason: string };

const OK_NONE: TopologyVerdict = { ok: true, narrow: [] };

/** One change a journaled topology can undo. */
type Change =
  | {
      readonly group: TopologyGroup;
      readonly owner: boolean;
      readonly domain: string;
      readonly delta: 1 | -1;
    }
  | {
      readonly host: string;
      readonly labels: Readonly<Record<string, string>>;
      readonly taints: readonly Taint[];
    };

/** Groups and domains of one scheduling run. */
export class Topology {
  readonly groups = new Map<string, TopologyGroup>();
  /** Domains per topology key (sorted), computed when read: declared ones and existing nodes' label values. */
  private readonly universe = new Map<string, string[]>();
  /** Domains declared by {@link addDomains} (they stay). */
  private readonly declared = new Map<string, Set<string>>();
  /** Per key and declared domain, the taints of each NodePool that declared it. */
  private readonly declaredTaints = new Map<string, Map<string, (readonly Taint[])[]>>();
  /** Per label key, how many existing nodes carry each value. */
  private readonly nodeValues = new Map<string, Map<string, number>>();
  /**
   * Labels of nodes added since {@link nodeValues} was last read, not counted yet: most runs never
   * read a domain universe (no topology group), and counting every label of every node was a good
   * part of setting up a run over many nodes.
   */
  private uncounted: Readonly<Record<string, string>>[] = [];
  /** Labels of existing nodes by hostname, to find the hostnames a pod may use. */
  private readonly hostLabels = new Map<string, Readonly<Record<string, string>>>();
  private readonly minCache = new Map<string, { version: number; min: number }>();
  /** Taints of existing nodes by hostname (for spread node filters). */
  private readonly hostTaints = new Map<string, readonly Taint[]>();
  /** Per filtered spread group: the domains of its key on the nodes it counts. */
  private readonly filteredCache = new Map<string, readonly string[]>();
  /** {@link groupsSelecting} by namespace and labels; cleared when a group is added. */
  private readonly selectingCache = new Map<string, TopologyGroup[]>();
  /** Changes since {@link startJournal}, undone by {@link undoTo}; undefined when not journaling. */
  private journal?: Change[];

  /**
   * @param canCreateNodes whether new nodes may be created (a new hostname domain always has count 0).
   * @param antiSkipsUnlabelled the kube-scheduler's rule: a target without an anti-affinity term's
   *   key is not in any of its domains, so the term does not repel pods from it.
   */
  constructor(
    readonly canCreateNodes: boolean,
    readonly antiSkipsUnlabelled = false,
  ) {}

  /** Gets or creates the group for a selector, namespaces and topology key. */
  group(
    kind: GroupKind,
    topologyKey: string,
    namespaces: ReadonlySet<string> | undefined,
    selector: LabelSelector | undefined,
    filter?: NodeFilter,
  ): TopologyGroup {
    const key = groupKey(kind, topologyKey, namespaces, selectorKey(selector), filter);
    let g = this.groups.get(key);
    if (!g) {
      g = new TopologyGroup(key, kind, topologyKey, namespaces, selector, filter);
      this.groups.set(key, g);
      this.selectingCache.clear();
    }
    return g;
  }

  /** Declares domains of a key (e.g. the zones NodePools can launch in). */
  addDomains(key: string, domains: Iterable<string>, taints: readonly Taint[] = []): void {
    const declared = this.declared.get(key) ?? new Set<string>();
    this.declared.set(key, declared);
    const byDomain = this.declaredTaints.get(key) ?? new Map<string, (readonly Taint[])[]>();
    this.declaredTaints.set(key, byDomain);
    for (const d of domains) {
      declared.add(d);
      const sources = byDomain.get(d) ?? [];
      byDomain.set(d, sources);
      if (!sources.includes(taints)) sources.push(taints);
    }
    this.refresh(key);
  }

  /** Declares an existing node (its hostname and labels are domains). */
  addNode(hostname: string, labels: Readonly<Record<string, string>>, taints: readonly Taint[] = []): void {
    this.hostLabels.set(hostname, labels);
    this.hostTaints.set(hostname, taints);
    this.uncounted.push(labels);
    this.filteredCache.clear();
    this.minCache.clear();
  }

  /** The domains of a key changed: recomputed when next read. */
  private refresh(key: string): void {
    this.universe.delete(key);
    this.filteredCache.clear();
    this.minCache.clear();
  }

  /** Counts (or uncounts) the label values of a node as domains. */
  private countNodeLabels(labels: Readonly<Record<string, string>>, delta: 1 | -1): void {
    for (const [k, v] of Object.entries(labels)) {
      if (k === HOSTNAME) continue;
      const values = this.nodeValues.get(k) ?? new Map<string, number>();
      this.nodeValues.set(k, values);
      const n = (values.get(v) ?? 0) + delta;
      if (n > 0) values.set(v, n);
      else values.delete(v);
      if (n === 0 || (delta > 0 && n === 1)) this.refresh(k);
    }
  }

  /** Counts the labels of the nodes added since the last count (see {@link uncounted}). */
  private countAdded(): void {
    if (this.uncounted.length === 0) return;
    const added = this.uncounted;
    this.uncounted = [];
    for (const labels of added) this.countNodeLabels(labels, 1);
  }

  domainsOf(key: string): readonly string[] {
    this.countAdded();
    let domains = this.universe.get(key);
    if (!domains) {
      const set = new Set(this.declared.get(key));
      for (const v of this.nodeValues.get(key)?.keys() ?? []) set.add(v);
      domains = [...set].sort();
      this.universe.set(key, domains);
    }
    return domains;
  }

  /** Groups whose selector matches a pod. */
  groupsSelecting(namespace: string, labels: Readonly<Record<string, string>>): TopologyGroup[] {
    const key = `${namespace}\u0000${labelsKey(labels)}`;
    const cached = this.selectingCache.get(key);
    if (cached) return cached;
    const out: TopologyGroup[] = [];
    for (const g of this.groups.values()) if (g.selects(namespace, labels)) out.push(g);
    this.selectingCache.set(key, out);
    return out;
  }

  /** Records a placed pod: counts it in every group selecting it, and as owner of its anti terms. */
  record(selecting: readonly TopologyGroup[], owned: readonly TopologyGroup[], target: TopologyTarget): void {
    this.count(selecting, owned, target, 1);
  }

  /** Forgets a pod {@link record}ed on `target` (its node is being taken away). */
  unrecord(
    selecting: readonly TopologyGroup[],
    owned: readonly TopologyGroup[],
    target: TopologyTarget,
  ): void {
    this.count(selecting, owned, target, -1);
  }

  private count(
    selecting: readonly TopologyGroup[],
    owned: readonly TopologyGroup[],
    target: TopologyTarget,
    delta: 1 | -1,
  ): void {
    for (const g of selecting) {
      if (g.filter && !target.admits(g.filter)) continue;
      const domains = target.domains(g.topologyKey);
      if (domains.length === 1) this.change(g, false, domains[0], delta);
      else if (g.kind === 'anti') for (const d of domains) this.change(g, false, d, delta);
    }
    for (const g of owned) for (const d of target.domains(g.topologyKey)) this.change(g, true, d, delta);
  }

  private change(group: TopologyGroup, owner: boolean, domain: string, delta: 1 | -1): void {
    if (owner) {
      if (delta > 0) group.addOwner(domain);
      else group.removeOwner(domain);
    } else if (delta > 0) group.add(domain);
    else group.remove(domain);
    this.journal?.push({ group, owner, domain, delta });
  }

  /**
   * Takes an existing node away: its hostname, and label values no other node or pool gives, stop
   * being domains (its pods are {@link unrecord}ed by the caller).
   */
  removeNode(hostname: string): void {
    const labels = this.hostLabels.get(hostname);
    if (!labels) return;
    const taints = this.hostTaints.get(hostname) ?? [];
    this.hostLabels.delete(hostname);
    this.hostTaints.delete(hostname);
    this.countAdded();
    this.countNodeLabels(labels, -1);
    this.minCache.clear();
    this.filteredCache.clear();
    this.journal?.push({ host: hostname, labels, taints });
  }

  /** Starts recording changes so that they can be undone. */
  startJournal(): void {
    this.journal ??= [];
  }

  /** A point of the journal to undo to. */
  mark(): number {
    return this.journal?.length ?? 0;
  }

  /** Undoes every change recorded after `mark`, newest first. */
  undoTo(mark: number): void {
    const journal = this.journal;
    if (!journal) return;
    while (journal.length > mark) {
      const c = journal.pop()!;
      if ('host' in c) {
        this.addNode(c.host, c.labels, c.taints);
        this.minCache.clear();
      } else if (c.owner) {
        if (c.delta > 0) c.group.removeOwner(c.domain);
        else c.group.addOwner(c.domain);
      } else if (c.delta > 0) c.group.remove(c.domain);
      else c.group.add(c.domain);
    }
  }

  /** Checks a pod's topology constraints against a target; for unpinned claims returns the domains left. */
  check(c: TopologyConstraints, target: TopologyTarget): TopologyVerdict {
    if (c.spreads.length + c.affinities.length + c.antis.length + c.repelledBy.length === 0) return OK_NONE;
    const allowed: { key: string; domains: readonly string[] }[] = [];
    for (const s of c.spreads) {
      const key = s.group.topologyKey;
      const limit = this.minCount(s) + s.maxSkew - (s.selfMatch ? 1 : 0);
      const left = keep(domainsFor(allowed, target, key), s.group.counts, limit, false);
      if (left.length === 0)
        return fail(
          noDomain(target, key) ??
            `topology spread ${short(key)} maxSkew ${s.maxSkew}: no ${short(key)} left`,
        );
      setDomains(allowed, key, left);
    }
    for (const a of c.affinities) {
      const key = a.group.topologyKey;
      const current = domainsFor(allowed, target, key);
      const left = a.selfMatch && a.group.total === 0 ? current : keep(current, a.group.counts, 0, true);
      if (left.length === 0)
        return fail(
          noDomain(target, key) ?? `pod affinity on ${short(key)}: no ${short(key)} has a matching pod`,
        );
      setDomains(allowed, key, left);
    }
    for (const a of c.antis) {
      const key = a.group.topologyKey;
      if (this.antiSkipsUnlabelled && target.domains(key).length === 0) continue;
      const left = keep(domainsFor(allowed, target, key), a.group.counts, 0, false);
      if (left.length === 0)
        return fail(
          noDomain(target, key) ??
            `pod anti-affinity on ${short(key)}: every ${short(key)} has a matching pod`,
        );
      setDomains(allowed, key, left);
    }
    for (const g of c.repelledBy) {
      const key = g.topologyKey;
      if (this.antiSkipsUnlabelled && target.domains(key).length === 0) continue;
      const left = keep(domainsFor(allowed, target, key), g.owners, 0, false);
      if (left.length === 0) return fail(`anti-affinity of other pods on ${short(key)}`);
      setDomains(allowed, key, left);
    }
    for (const a of allowed) a.domains = this.pick(c, a.key, a.domains);
    return { ok: true, narrow: allowed };
  }

  private filteredDomains(groupKey: string, key: string, filter: NodeFilter): readonly string[] {
    let domains = this.filteredCache.get(groupKey);
    if (!domains) {
      domains = filteredDomainsOf(
        {
          declared: this.declaredTaints,
          hostLabels: this.hostLabels,
          hostTaints: this.hostTaints,
        },
        key,
        filter,
      );
      this.filteredCache.set(groupKey, domains);
    }
    return domains;
  }

  /** Pins a key to one domain when the pod's own constraints use it: the emptiest for spreads. */
  private pick(c: TopologyConstraints, key: string, domains: readonly string[]): readonly string[] {
    if (domains.length <= 1) return domains;
    const spreads = c.spreads.filter((s) => s.group.topologyKey === key);
    const own =
      spreads.length > 0 ||
      c.affinities.some((a) => a.group.topologyKey === key) ||
      c.antis.some((a) => a.group.topologyKey === key);
    if (!own) return domains;
    let best = domains[0];
    let bestCount = Number.POSITIVE_INFINITY;
    for (const d of domains) {
      const n = spreads.reduce((sum, s) => sum + s.group.count(d), 0);
      if (n < bestCount) {
        best = d;
        bestCount = n;
      }
    }
    return [best];
  }

  /**
   * The smallest count over the domains the pod may use (0 when fewer than minDomains exist). A
   * spread group with a node filter takes only the domains of the nodes it counts (and, for keys
   * new nodes can bring, the declared domains its node affinity allows).
   */
  private minCount(s: SpreadRule): number {
    const key = s.group.topologyKey;
    if (key === HOSTNAME && this.canCreateNodes) return 0;
    const cacheKey = `${s.group.key}#${s.minDomains}`;
    const cached = this.minCache.get(cacheKey);
    if (cached && cached.version === s.group.version) return cached.min;
    const filter = s.group.filter;
    const domains = filter
      ? this.filteredDomains(s.group.key, key, filter)
      : key === HOSTNAME
        ? [...this.hostLabels.keys()]
        : this.domainsOf(key);
    const min = minOver(domains, s);
    this.minCache.set(cacheKey, { version: s.group.version, min });
    return min;
  }
}

function labelsKey(labels: Readonly<Record<string, string>>): string {
  const keys = Object.keys(labels);
  if (keys.length > 1) keys.sort();
  let out = '';
  for (const k of keys) out += `${k}\u0001${labels[k]}\u0002`;
  return out;
}

function minOver(eligible: readonly string[], s: SpreadRule): number {
  if (eligible.length === 0 || eligible.length < s.minDomains) return 0;
  let min = Number.POSITIVE_INFINITY;
  for (const d of eligible) min = Math.min(min, s.group.count(d));
  return min;
}

/** Domains whose count is `<= limit` (or `> limit` when `above`); the same array when all qualify. */
function keep(
  domains: readonly string[],
  counts: ReadonlyMap<string, number>,
  limit: number,
  above: boolean,
): readonly string[] {
  let out: string[] | undefined;
  for (let i = 0; i < domains.length; i++) {
    const n = counts.get(domains[i]) ?? 0;
    const ok = above ? n > limit : n <= limit;
    if (ok && out) out.push(domains[i]);
    if (!ok && !out) out = domains.slice(0, i);
  }
  return out ?? domains;
}

function domainsFor(
  allowed: readonly { key: string; domains: readonly string[] }[],
  target: TopologyTarget,
  key: string,
): readonly string[] {
  for (const a of allowed) if (a.key === key) return a.domains;
  return target.domains(key);
}

function setDomains(
  allowed: { key: string; domains: readonly string[] }[],
  key: string,
  domains: readonly string[],
): void {
  for (const a of allowed) {
    if (a.key === key) {
      a.domains = domains;
      return;
    }
  }
  allowed.push({ key, domains });
}

/**
 * Why a target has no domain at all for a key joiner does not put on the nodes it launches, or
 * for `topology.k8s.aws/zone-id` when no NodeClass's subnets gave the zone IDs (with them, the
 * term is read on the zone: zone-ids.ts), so the pod's reason says so instead of blaming the counts.
 */
function noDomain(target: TopologyTarget, key: string): string | undefined {
  if (target.domains(key).length > 0) return undefined;
  if (key === ZONE_ID)
    return `topology key "${key}" has no value on a new node: the zone IDs are not known (they come from the NodeClass's subnets)`;
  const reason = unsupportedLabelReason(key);
  return reason === undefined ? undefined : `topology key ${reason}`;
}

function fail(reason: string): TopologyVerdict {
  return { ok: false, reason };
}

function short(key: string): string {
  if (key === HOSTNAME) return 'hostname';
  if (key === 'topology.kubernetes.io/zone') return 'zone';
  return key;
}
