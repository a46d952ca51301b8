/** Builds the state of one scheduling run from the input: classes, targets, topology, pools. */
import type { Pod } from '../model/kube-objects.js';
import { CPU, MEMORY, PODS } from '../model/resources.js';
import { ExistingTarget } from './existing-target.js';
import { bindGroups, buildClass, classKey, type PodClass, type PodEntry, podId } from './pod-class.js';
import { type PoolContext, poolContexts } from './pool-context.js';
import { valueAllowed } from './requirement-set.js';
import { Requirements } from './requirements.js';
import { Dims } from './resource-vector.js';
import { Topology } from './topology.js';
import type { TopologyGroup } from './topology-group.js';
import type { ScheduleInput } from './types.js';
import { volumeIndex } from './volume-requirements.js';
import { volumeProblem } from './volume-validation.js';
import { CAPACITY_TYPE, HOSTNAME, ZONE } from './well-known.js';

/** Everything a run works on. */
export interface RunState {
  readonly entries: PodEntry[];
  readonly classes: PodClass[];
  readonly dims: Dims;
  readonly topology: Topology;
  readonly targets: ExistingTarget[];
  readonly pools: PoolContext[];
  readonly vectors: Map<PodClass, Float64Array>;
  /** Existing nodes are chosen by the kube-scheduler's least-allocated score instead of first fit. */
  readonly leastAllocated: boolean;
}

function errorClass(pod: Pod, message: string): PodClass {
  return {
    key: `!${podId(pod)}`,
    namespace: '',
    labels: {},
    tolerations: [],
    requests: {},
    hostPorts: [],
    variants: [],
    selecting: [],
    owned: [],
    error: message,
  };
}

/** The anti-affinity groups a pod's required anti-affinity terms own. */
export function ownedAntiGroups(pod: Pod, topology: Topology): TopologyGroup[] {
  const ns = pod.metadata.namespace ?? 'default';
  return (pod.spec?.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []).map(
    (t) =>
      topology.group(
        'anti',
        t.topologyKey,
        t.namespaces?.length ? new Set(t.namespaces) : t.namespaceSelector ? undefined : new Set([ns]),
        t.labelSelector,
      ),
  );
}

function pendingEntries(
  input: ScheduleInput,
  topology: Topology,
): { entries: PodEntry[]; classes: PodClass[] } {
  const volumes = volumeIndex(input.persistentVolumes, input.persistentVolumeClaims, input.storageClasses);
  const strictPNS = [
    ...input.nodes.flatMap((n) => n.taints),
    ...input.pools.flatMap((p) => p.pool.taints),
  ].some((t) => t.effect === 'PreferNoSchedule');
  const byKey = new Map<string, PodClass>();
  const entries: PodEntry[] = [];
  const seen = new Set<string>();
  for (const pod of input.pods) {
    if (!pod?.metadata?.name || !pod.spec) {
      const id = `${pod?.metadata?.namespace ?? 'default'}/${pod?.metadata?.name ?? '?'}`;
      entries.push({ pod, id, cls: errorClass(pod, 'pod has no metadata.name or spec') });
      continue;
    }
    const id = podId(pod);
    if (seen.has(id)) continue;
    seen.add(id);
    const volumeError = volumeProblem(pod, volumes);
    if (volumeError) {
      entries.push({ pod, id, cls: errorClass(pod, volumeError) });
      continue;
    }
    const key = classKey(pod);
    let cls = byKey.get(key);
    if (!cls) {
      cls = buildClass(key, pod, topology, volumes, strictPNS);
      byKey.set(key, cls);
    }
    entries.push({ pod, id, cls });
  }
  return { entries, classes: [...byKey.values()] };
}

function existingTargets(input: ScheduleInput, dims: Dims): ExistingTarget[] {
  const nodes = input.nodes.map(
    (n) =>
      new ExistingTarget(
        n.name,
        n.labels,
        n.taints,
        dims.vector(n.allocatable),
        n.pods,
        n.unschedulable === true,
        dims,
      ),
  );
  const inFlight = input.inFlight.map((c) => {
    let reqs = Requirements.EMPTY;
    try {
      reqs = Requirements.of(c.requirements);
    } catch {
      // A malformed in-flight requirement only loses precision: labels still apply.
    }
    const labels: Record<string, string> = { [HOSTNAME]: c.name, ...c.labels };
    for (const key of reqs.sets.keys()) {
      const v = reqs.single(key);
      if (v !== undefined && labels[key] === undefined) labels[key] = v;
    }
    return new ExistingTarget(
      c.name,
      labels,
      c.taints,
      dims.vector(c.allocatable),
      c.pods,
      false,
      dims,
      reqs,
    );
  });
  return [...nodes, ...inFlight];
}

function usedBaseOf(input: ScheduleInput): (pool: string) => Record<string, number> {
  const used = new Map<string, Record<string, number>>();
  const add = (pool: string | undefined, res: Record<string, number>) => {
    if (!pool) return;
    const u = used.get(pool) ?? {};
    for (const [k, v] of Object.entries(res)) u[k] = (u[k] ?? 0) + v;
    u.nodes = (u.nodes ?? 0) + 1;
    used.set(pool, u);
  };
  for (const n of input.nodes) add(n.nodePool, n.capacity ?? n.allocatable);
  for (const c of input.inFlight) add(c.nodePool, c.capacity ?? c.allocatable);
  return (pool) => ({ ...(used.get(pool) ?? {}) });
}

/** Prepares a run. Never throws on bad pods: they get an error class. */
export function setupRun(input: ScheduleInput): RunState {
  const topology = new Topology(input.pools.length > 0, input.kubeSchedulerRules === true);
  const { entries, classes } = pendingEntries(input, topology);
  // Only bound pods with required anti-affinity own groups; the others are not kept here.
  const ownedByBound = new Map<Pod, TopologyGroup[]>();
  for (const target of [...input.nodes, ...input.inFlight]) {
    for (const p of target.pods) {
      if (p.spec?.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.length)
        ownedByBound.set(p, ownedAntiGroups(p, topology));
    }
  }
  const names = new Set<string>([CPU, MEMORY, PODS]);
  for (const c of classes) for (const k of Object.keys(c.requests)) names.add(k);
  const dims = new Dims(names);
  const targets = existingTargets(input, dims);
  for (const t of targets) topology.addNode(t.hostname, t.labels, t.taints);
  const pools = poolContexts(input.pools, input.daemonSets, dims, usedBaseOf(input));
  // An in-flight claim's daemonset pods are not bound yet, but their host ports will be taken.
  input.inFlight.forEach((c, i) => {
    const pool = pools.find((p) => p.name === c.nodePool);
    if (pool && pool.daemonPorts.length > 0) targets[input.nodes.length + i].ports.add(pool.daemonPorts);
  });
  for (const p of pools) if (!p.problem) topology.addDomains(ZONE, p.zones, p.taints);
  addPoolDomains(topology, pools);
  for (const c of classes) if (!c.error) bindGroups(c, topology);
  // Bound pods count only in topology groups (spread, affinity, anti-affinity); with none, there
  // is nothing to count (each pod's labels would be matched against no group).
  const counted = topology.groups.size > 0 ? targets : [];
  for (const t of counted) {
    for (const pod of t.boundPods) {
      const selecting = topology.groupsSelecting(
        pod.metadata?.namespace ?? 'default',
        pod.metadata?.labels ?? {},
      );
      topology.record(selecting, ownedByBound.get(pod) ?? [], t);
    }
  }
  const vectors = new Map(classes.map((c) => [c, dims.vector(c.requests)]));
  const leastAllocated = input.existingNodeChoice === 'least-allocated';
  return { entries, classes, dims, topology, targets, pools, vectors, leastAllocated };
}

/**
 * Domains of the other topology keys that pools can create, as Karpenter's domain universe: a
 * pool's `In` requirements and labels, and the values its instance types give the key (their
 * labels, the capacity types of their offerings) that its requirements allow.
 */
function addPoolDomains(topology: Topology, pools: readonly PoolContext[]): void {
  const keys = new Set([...topology.groups.values()].map((g) => g.topologyKey));
  for (const key of keys) {
    if (key === HOSTNAME || key === ZONE) continue;
    for (const p of pools) {
      if (p.problem) continue;
      const set = p.reqs.get(key);
      if (set && !set.complement) {
        topology.addDomains(key, set.values, p.taints);
        continue;
      }
      const values = new Set<string>();
      for (const i of p.baseOptions) {
        const t = p.types[i];
        if (key === CAPACITY_TYPE) for (const o of t.offerings) values.add(o.capacityType);
        else if (t.it.labels[key] !== undefined) values.add(t.it.labels[key]);
      }
      const allowed = [...values].filter((v) => !set || valueAllowed(set, v));
      if (allowed.length > 0) topology.addDomains(key, allowed, p.taints);
    }
  }
}
