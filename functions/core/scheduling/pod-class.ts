/**
 * Pods with identical scheduling constraints and requests form a class; everything derived from a
 * pod's spec (requests, requirement sets, topology rules, relaxation variants) is computed once per class.
 */
import type { LabelSelector, Pod, PodAffinityTerm, TopologySpreadConstraint } from '../model/kube-objects.js';
import type { Resources } from '../model/resources.js';
import type { Toleration } from '../model/taint.js';
import { type HostPort, hostPortsOf } from './host-ports.js';
import { preferredNodeTerms, requiredNodeAlternatives } from './node-affinity.js';
import { spreadNodeFilter } from './node-filter.js';
import { podRequests } from './pod-requests.js';
import type { Requirements } from './requirements.js';
import type { SpreadRule, TermRule, Topology, TopologyConstraints } from './topology.js';
import type { TopologyGroup } from './topology-group.js';
import { type VolumeIndex, volumeRequirements } from './volume-requirements.js';

/** One way to schedule a pod; later variants relax preferences of earlier ones. */
export interface Variant {
  /** Node requirements, OR-ed; new claims use the first. */
  readonly alternatives: readonly Requirements[];
  readonly topology: TopologyConstraints;
  /** Whether PreferNoSchedule taints still repel the pod. */
  readonly strictPreferNoSchedule: boolean;
}

/** The shared, derived scheduling view of a set of identical pods. */
export interface PodClass {
  readonly key: string;
  readonly namespace: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly tolerations: readonly Toleration[];
  readonly requests: Resources;
  /** Host ports the pods bind (NodePorts): two such pods never share a node when they conflict. */
  readonly hostPorts: readonly HostPort[];
  readonly variants: Variant[];
  /** Every group that counts these pods. */
  selecting: readonly TopologyGroup[];
  /** Required anti-affinity groups these pods carry. */
  readonly owned: readonly TopologyGroup[];
  /** Why these pods cannot be scheduled at all (bad input). */
  readonly error?: string;
}

/** A pending pod and its class. */
export interface PodEntry {
  readonly pod: Pod;
  readonly id: string;
  readonly cls: PodClass;
}

/** The `namespace/name` of a pod. */
export function podId(pod: Pod): string {
  return `${pod.metadata?.namespace ?? 'default'}/${pod.metadata?.name}`;
}

function flat(obj: Readonly<Record<string, unknown>> | undefined): string {
  let out = '';
  if (obj) for (const k in obj) out += `${k}=${String(obj[k])},`;
  return out;
}

function containersKey(containers: PodSpecContainers): string {
  let out = '';
  for (const c of containers ?? []) {
    out += `[${flat(c.resources?.requests)}|${flat(c.resources?.limits)}|${c.restartPolicy ?? ''}|${c.ports ? json(c.ports) : ''}]`;
  }
  return out;
}

type PodSpecContainers = Pod['spec']['containers'] | undefined;

const json = (v: unknown): string => (v === undefined ? '' : JSON.stringify(v));

/**
 * Class keys by pod object, computed once per object: a caller that schedules the same pending pod
 * objects again and again (the simulated kube-scheduler, whose every pass hands over the API
 * server's stored objects) builds each key once. Pods are values: nothing changes a pod object in
 * place.
 */
const classKeys = new WeakMap<Pod, string>();

/** The text key of a pod's class: pods with equal keys schedule identically. */
export function classKey(pod: Pod): string {
  let key = classKeys.get(pod);
  if (key === undefined) {
    key = keyOf(pod);
    classKeys.set(pod, key);
  }
  return key;
}

function keyOf(pod: Pod): string {
  const s = pod.spec;
  return [
    pod.metadata?.namespace ?? 'default',
    flat(pod.metadata?.labels),
    containersKey(s.containers),
    containersKey(s.initContainers),
    flat(s.overhead),
    json(s.resources),
    flat(s.nodeSelector),
    json(s.affinity),
    json(s.tolerations),
    json(s.topologySpreadConstraints),
    json(s.volumes),
    // A generic ephemeral volume's claim is named after its pod.
    s.volumes?.some((v) => v.ephemeral) ? pod.metadata?.name : '',
  ].join('\u0000');
}

function termNamespaces(term: PodAffinityTerm, ns: string): ReadonlySet<string> | undefined {
  if (term.namespaces && term.namespaces.length > 0) return new Set(term.namespaces);
  if (term.namespaceSelector) return undefined;
  return new Set([ns]);
}

function spreadSelector(
  c: TopologySpreadConstraint,
  labels: Readonly<Record<string, string>>,
): LabelSelector | undefined {
  if (!c.matchLabelKeys?.length || !c.labelSelector) return c.labelSelector;
  const extra: Record<string, string> = {};
  for (const k of c.matchLabelKeys) if (labels[k] !== undefined) extra[k] = labels[k];
  return { ...c.labelSelector, matchLabels: { ...c.labelSelector.matchLabels, ...extra } };
}

interface Parts {
  alternatives: Requirements[];
  prefNode: Requirements[];
  spreads: SpreadRule[];
  anyway: SpreadRule[];
  affinities: TermRule[];
  prefAffinities: TermRule[];
  antis: TermRule[];
  prefAntis: TermRule[];
}

function parts(pod: Pod, topo: Topology, volumes: VolumeIndex): Parts {
  const ns = pod.metadata.namespace ?? 'default';
  const labels = pod.metadata.labels ?? {};
  const volumeReqs = volumeRequirements(pod, volumes);
  const spreadRule = (c: TopologySpreadConstraint): SpreadRule => {
    const group = topo.group(
      'spread',
      c.topologyKey,
      new Set([ns]),
      spreadSelector(c, labels),
      spreadNodeFilter(pod, c),
    );
    return { group, maxSkew: c.maxSkew, minDomains: c.minDomains ?? 1, selfMatch: group.selects(ns, labels) };
  };
  const termRule = (kind: 'affinity' | 'anti', t: PodAffinityTerm): TermRule => {
    const group = topo.group(kind, t.topologyKey, termNamespaces(t, ns), t.labelSelector);
    return { group, selfMatch: group.selects(ns, labels) };
  };
  const byWeight = <T extends { weight: number }>(xs: readonly T[] | undefined) =>
    [...(xs ?? [])].sort((a, b) => b.weight - a.weight);
  const aff = pod.spec.affinity;
  const tsc = pod.spec.topologySpreadConstraints ?? [];
  return {
    alternatives: requiredNodeAlternatives(pod).flatMap((a) => volumeReqs.map((v) => a.and(v))),
    prefNode: preferredNodeTerms(pod),
    spreads: tsc.filter((c) => c.whenUnsatisfiable !== 'ScheduleAnyway').map(spreadRule),
    anyway: tsc.filter((c) => c.whenUnsatisfiable === 'ScheduleAnyway').map(spreadRule),
    affinities: (aff?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []).map((t) =>
      termRule('affinity', t),
    ),
    prefAffinities: byWeight(aff?.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution).map((p) =>
      termRule('affinity', p.podAffinityTerm),
    ),
    antis: (aff?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []).map((t) =>
      termRule('anti', t),
    ),
    prefAntis: byWeight(aff?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution).map((p) =>
      termRule('anti', p.podAffinityTerm),
    ),
  };
}

/**
 * Relaxation in Karpenter's order: required node-affinity OR-terms one by one, preferred pod
 * affinity, preferred pod anti-affinity (lightest dropped first), preferred node affinity (heaviest
 * tried first), ScheduleAnyway spreads, and finally PreferNoSchedule taints.
 */
function variants(p: Parts, preferNoScheduleMatters: boolean): Variant[] {
  const out: Variant[] = [];
  let alts = p.alternatives;
  let prefAff = p.prefAffinities;
  let prefAnti = p.prefAntis;
  let prefIdx = 0;
  let anyway = p.anyway;
  let strict = preferNoScheduleMatters;
  const emit = () => {
    const pref = p.prefNode[prefIdx];
    out.push({
      alternatives: pref ? alts.map((a) => a.and(pref)) : alts,
      topology: {
        spreads: [...p.spreads, ...anyway],
        affinities: [...p.affinities, ...prefAff],
        antis: [...p.antis, ...prefAnti],
        repelledBy: [],
      },
      strictPreferNoSchedule: strict,
    });
  };
  emit();
  while (alts.length > 1) {
    alts = alts.slice(1);
    emit();
  }
  while (prefAff.length > 0) {
    prefAff = prefAff.slice(0, -1);
    emit();
  }
  while (prefAnti.length > 0) {
    prefAnti = prefAnti.slice(0, -1);
    emit();
  }
  while (prefIdx < p.prefNode.length) {
    prefIdx++;
    emit();
  }
  if (anyway.length > 0) {
    anyway = [];
    emit();
  }
  if (strict) {
    strict = false;
    emit();
  }
  return out;
}

/** Builds the class of a pod (registering its topology groups). Bad input becomes `error`. */
export function buildClass(
  key: string,
  pod: Pod,
  topo: Topology,
  volumes: VolumeIndex,
  preferNoScheduleMatters: boolean,
): PodClass {
  const namespace = pod.metadata?.namespace ?? 'default';
  const labels = pod.metadata?.labels ?? {};
  const tolerations = pod.spec?.tolerations ?? [];
  try {
    const requests = podRequests(pod);
    const p = parts(pod, topo, volumes);
    return {
      key,
      namespace,
      labels,
      tolerations,
      requests,
      hostPorts: hostPortsOf(pod),
      variants: variants(p, preferNoScheduleMatters),
      selecting: [],
      owned: p.antis.map((a) => a.group),
    };
  } catch (error) {
    return {
      key,
      namespace,
      labels,
      tolerations,
      requests: {},
      hostPorts: [],
      variants: [],
      selecting: [],
      owned: [],
      error: (error as Error).message,
    };
  }
}

/** After all groups exist: which groups count the class, and which anti-affinity groups repel it. */
export function bindGroups(cls: PodClass, topo: Topology): void {
  cls.selecting = topo.groupsSelecting(cls.namespace, cls.labels);
  const repelledBy = cls.selecting.filter((g) => g.kind === 'anti');
  if (repelledBy.length === 0) return;
  for (let i = 0; i < cls.variants.length; i++) {
    const v = cls.variants[i];
    cls.variants[i] = { ...v, topology: { ...v.topology, repelledBy } };
  }
}
