/**
 * `topology.k8s.aws/zone-id`, Karpenter's zone-ID label. A zone ID names the same physical zone
 * in every account (`usw2-az1`), where a zone name (`us-west-2a`) is mapped per account. Karpenter
 * reads each zone's ID from the subnets a NodeClass selects (`AvailabilityZoneId`) and puts it on
 * every offering next to the zone name; requirements, node selectors and topology terms on it
 * then filter offerings like the zone does. The mapping is one to one, so the scheduler reads a
 * term on the zone ID as the same term on the zone name of that zone (the offerings' `zoneId`
 * give the mapping) and every node carries both labels. An ID no subnet has maps to a value no
 * zone has, so it selects nothing, and the reason names the ID.
 */
import { LABEL_ZONE_ID } from '../catalog/well-known-labels.js';
import type { Affinity, NodeSelectorTerm, Pod, PodAffinityTerm } from '../model/kube-objects.js';
import type { Requirement } from '../model/requirement.js';
import type { SchedulingPool } from './types.js';
import { ZONE } from './well-known.js';

/** Karpenter's zone-ID label (`topology.k8s.aws/zone-id`). */
export const ZONE_ID = LABEL_ZONE_ID;

/** Zone IDs by zone name and back. */
export interface ZoneIdMap {
  readonly byZone: ReadonlyMap<string, string>;
  readonly byId: ReadonlyMap<string, string>;
}

/** The zone ↔ zone ID mapping the offerings of `pools` carry (empty when none knows its IDs). */
export function zoneIdMap(pools: readonly Pick<SchedulingPool, 'instanceTypes'>[]): ZoneIdMap {
  const byZone = new Map<string, string>();
  const byId = new Map<string, string>();
  for (const p of pools)
    for (const it of p.instanceTypes)
      for (const o of it.offerings) {
        if (o.zoneId === undefined || byZone.has(o.zone)) continue;
        byZone.set(o.zone, o.zoneId);
        byId.set(o.zoneId, o.zone);
      }
  return { byZone, byId };
}

/** The value a zone ID stands for among zone names: its zone, or a value no zone has. */
function zoneOf(map: ZoneIdMap, id: string): string {
  return map.byId.get(id) ?? `zone-id ${id} (no subnet in it)`;
}

/**
 * The requirement read on the zone name when it is on the zone ID; others unchanged. `Gt`/`Lt`
 * style operators stay on the zone ID (no zone ID is a number, so they match nothing either way).
 */
export function zoneIdRequirement<
  R extends Pick<Requirement, 'key' | 'operator'> & { values?: readonly string[] },
>(r: R, map: ZoneIdMap): R {
  if (r.key !== ZONE_ID) return r;
  if (
    r.operator !== 'In' &&
    r.operator !== 'NotIn' &&
    r.operator !== 'Exists' &&
    r.operator !== 'DoesNotExist'
  )
    return r;
  return { ...r, key: ZONE, values: (r.values ?? []).map((v) => zoneOf(map, v)) };
}

function termKey<T extends { topologyKey: string }>(t: T): T {
  return t.topologyKey === ZONE_ID ? { ...t, topologyKey: ZONE } : t;
}

function nodeTerm(term: NodeSelectorTerm, map: ZoneIdMap): NodeSelectorTerm {
  return term.matchExpressions
    ? { ...term, matchExpressions: term.matchExpressions.map((r) => zoneIdRequirement(r, map)) }
    : term;
}

function affinityTerms(terms: PodAffinityTerm[] | undefined): PodAffinityTerm[] | undefined {
  return terms?.map(termKey);
}

function weighted(
  terms: { weight: number; podAffinityTerm: PodAffinityTerm }[] | undefined,
): { weight: number; podAffinityTerm: PodAffinityTerm }[] | undefined {
  return terms?.map((t) => ({ ...t, podAffinityTerm: termKey(t.podAffinityTerm) }));
}

function affinity(a: Affinity, map: ZoneIdMap): Affinity {
  const node = a.nodeAffinity;
  const required = node?.requiredDuringSchedulingIgnoredDuringExecution;
  const preferred = node?.preferredDuringSchedulingIgnoredDuringExecution;
  return {
    ...a,
    ...(node && {
      nodeAffinity: {
        ...node,
        ...(required && {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: required.nodeSelectorTerms.map((t) => nodeTerm(t, map)),
          },
        }),
        ...(preferred && {
          preferredDuringSchedulingIgnoredDuringExecution: preferred.map((p) => ({
            ...p,
            preference: nodeTerm(p.preference, map),
          })),
        }),
      },
    }),
    ...(a.podAffinity && {
      podAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: affinityTerms(
          a.podAffinity.requiredDuringSchedulingIgnoredDuringExecution,
        ),
        preferredDuringSchedulingIgnoredDuringExecution: weighted(
          a.podAffinity.preferredDuringSchedulingIgnoredDuringExecution,
        ),
      },
    }),
    ...(a.podAntiAffinity && {
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: affinityTerms(
          a.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution,
        ),
        preferredDuringSchedulingIgnoredDuringExecution: weighted(
          a.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution,
        ),
      },
    }),
  };
}

/** Whether the pod says anything about the zone ID (a selector, node affinity or topology key). */
function mentionsZoneId(pod: Pod): boolean {
  const spec = pod.spec;
  if (spec === undefined) return false;
  if (spec.nodeSelector?.[ZONE_ID] !== undefined) return true;
  if (spec.topologySpreadConstraints?.some((c) => c.topologyKey === ZONE_ID)) return true;
  return spec.affinity !== undefined && JSON.stringify(spec.affinity).includes(ZONE_ID);
}

/** The pod with its zone-ID selectors, node affinity and topology keys read on the zone name. */
export function podOnZones(pod: Pod, map: ZoneIdMap): Pod {
  if (map.byId.size === 0 || !mentionsZoneId(pod)) return pod;
  const spec = pod.spec;
  const selector = spec.nodeSelector;
  let nodeSelector = selector;
  let zoneTerm: NodeSelectorTerm | undefined;
  if (selector?.[ZONE_ID] !== undefined) {
    const { [ZONE_ID]: id, ...rest } = selector;
    nodeSelector = rest;
    // A selector is an `In` requirement; it joins every node affinity term (or is the only one).
    zoneTerm = { matchExpressions: [{ key: ZONE, operator: 'In', values: [zoneOf(map, id)] }] };
  }
  let aff = spec.affinity && affinity(spec.affinity, map);
  if (zoneTerm) aff = withSelectorTerm(aff, zoneTerm);
  return {
    ...pod,
    spec: {
      ...spec,
      ...(nodeSelector && { nodeSelector }),
      ...(aff && { affinity: aff }),
      ...(spec.topologySpreadConstraints && {
        topologySpreadConstraints: spec.topologySpreadConstraints.map(termKey),
      }),
    },
  };
}

/** Adds `term`'s expressions to every required node selector term (or makes it the only one). */
function withSelectorTerm(a: Affinity | undefined, term: NodeSelectorTerm): Affinity {
  const required = a?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  const terms = required?.length
    ? required.map((t) => ({
        ...t,
        matchExpressions: [...(t.matchExpressions ?? []), ...(term.matchExpressions ?? [])],
      }))
    : [term];
  return {
    ...a,
    nodeAffinity: {
      ...a?.nodeAffinity,
      requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms },
    },
  };
}

/**
 * The pool with its zone-ID requirements and label read on the zone name, from the zone IDs of
 * its own offerings. A pool whose offerings carry no zone ID (its NodeClass's subnets are not
 * known, e.g. `joiner plan` from files) cannot honour them: it gets a problem saying so.
 */
export function poolOnZones(sp: SchedulingPool): SchedulingPool {
  const pool = sp.pool;
  const label = pool.labels[ZONE_ID];
  const mentioned = label !== undefined || pool.requirements.some((r) => r.key === ZONE_ID);
  if (!mentioned) return sp;
  const map = zoneIdMap([sp]);
  if (map.byId.size === 0) {
    return {
      ...sp,
      problem:
        sp.problem ??
        `${ZONE_ID} is required but the zone IDs of NodeClass ${pool.nodeClassRef.name} are not known (they come from its subnets)`,
    };
  }
  const { [ZONE_ID]: _id, ...labels } = pool.labels;
  const requirements: Requirement[] = pool.requirements.map((r) => zoneIdRequirement(r, map));
  if (label !== undefined) requirements.push({ key: ZONE, operator: 'In', values: [zoneOf(map, label)] });
  return { ...sp, pool: { ...pool, labels, requirements } };
}
