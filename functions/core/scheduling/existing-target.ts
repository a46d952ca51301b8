/**
 * Existing nodes and in-flight nodeclaims as placement targets: fixed labels, taints and free
 * capacity; pods are checked the way the kube-scheduler filters nodes.
 */
import type { Pod } from '../model/kube-objects.js';
import type { Resources } from '../model/resources.js';
import type { Taint } from '../model/taint.js';
import { type HostPort, HostPortUsage, hostPortsOf } from './host-ports.js';
import { type NodeFilter, nodeAdmitted } from './node-filter.js';
import type { PodClass, PodEntry, Variant } from './pod-class.js';
import { podRequests } from './pod-requests.js';
import { valueAllowed } from './requirement-set.js';
import { Requirements } from './requirements.js';
import type { Dims } from './resource-vector.js';
import { untoleratedTaint } from './tolerations.js';
import type { Topology, TopologyTarget } from './topology.js';
import { HOSTNAME } from './well-known.js';

/** What a bound pod takes of its node: its requests (undefined when unreadable) and host ports. */
interface BoundUse {
  readonly requests?: Resources;
  readonly ports: readonly HostPort[];
}

/**
 * What each bound pod object takes, computed once per object: a caller that schedules again and
 * again over the same pod objects (the simulated kube-scheduler, which hands every pass the API
 * server's stored objects) parses each pod's quantities once, not once per pass. Pods are values:
 * nothing changes a pod object in place (the API server stores a new object on every write).
 */
const boundUse = new WeakMap<Pod, BoundUse>();

function useOf(pod: Pod): BoundUse {
  let use = boundUse.get(pod);
  if (!use) {
    let requests: Resources | undefined;
    try {
      requests = podRequests(pod);
    } catch {
      requests = undefined;
    }
    use = { requests, ports: hostPortsOf(pod) };
    boundUse.set(pod, use);
  }
  return use;
}

/** What a list of bound pods takes, for one run's resource dimensions. */
interface BoundTake {
  /** The run's dimension names, joined: the vectors are for these. */
  readonly dims: string;
  /** The request vectors of the pods whose quantities could be read, in pod order. */
  readonly vectors: readonly Float64Array[];
  /** The host ports of the pods that bind any. */
  readonly ports: readonly (readonly HostPort[])[];
}

/**
 * {@link BoundTake} by list of bound pods: a caller that hands the same list again (the simulated
 * kube-scheduler keeps each node's list until one of its pods changes) has it computed once per
 * list and set of dimensions.
 */
const boundTakes = new WeakMap<readonly Pod[], BoundTake>();

function boundTake(pods: readonly Pod[], dims: Dims): BoundTake {
  const key = dims.key;
  let take = boundTakes.get(pods);
  if (take?.dims !== key) {
    const vectors: Float64Array[] = [];
    const ports: (readonly HostPort[])[] = [];
    for (const pod of pods) {
      const use = useOf(pod);
      if (use.ports.length > 0) ports.push(use.ports);
      // A pod whose quantities cannot be read takes nothing (the scheduler skips it).
      if (use.requests) vectors.push(dims.vector(use.requests));
    }
    take = { dims: key, vectors, ports };
    boundTakes.set(pods, take);
  }
  return take;
}

/** A node (or in-flight claim) pods can be placed on. */
export class ExistingTarget implements TopologyTarget {
  readonly placed: PodEntry[] = [];
  readonly free: Float64Array;
  readonly hostname: string;
  /** Host ports of the bound and placed pods. */
  readonly ports = new HostPortUsage();

  constructor(
    readonly name: string,
    readonly labels: Readonly<Record<string, string>>,
    readonly taints: readonly Taint[],
    readonly allocatable: Float64Array,
    readonly boundPods: readonly Pod[],
    readonly unschedulable: boolean,
    dims: Dims,
    /** In-flight claims: requirements on labels the node does not carry yet. */
    readonly pending: Requirements = Requirements.EMPTY,
  ) {
    this.hostname = labels[HOSTNAME] ?? name;
    this.free = allocatable.slice();
    const take = boundTake(boundPods, dims);
    for (const ports of take.ports) this.ports.add(ports);
    for (const req of take.vectors) for (let i = 0; i < req.length; i++) this.free[i] -= req[i];
  }

  domains(key: string): readonly string[] {
    if (key === HOSTNAME) return [this.hostname];
    const v = this.labels[key];
    if (v !== undefined) return [v];
    const set = this.pending.get(key);
    return set && !set.complement ? [...set.values] : [];
  }

  admits(filter: NodeFilter): boolean {
    if (this.pending.size === 0) return nodeAdmitted(filter, this.labels, this.taints);
    if (filter.affinity && !this.matches(filter.affinity)) return false;
    return nodeAdmitted(
      { key: filter.key, ...(filter.tolerations ? { tolerations: filter.tolerations } : {}) },
      this.labels,
      this.taints,
    );
  }

  /** Whether the pod's node requirements can hold here (any OR-alternative). */
  matches(alternatives: readonly Requirements[]): boolean {
    return alternatives.some((alt) => this.matchesOne(alt));
  }

  private matchesOne(alt: Requirements): boolean {
    for (const [key, set] of alt.sets) {
      const v = key === HOSTNAME ? this.hostname : this.labels[key];
      if (v !== undefined) {
        if (!valueAllowed(set, v)) return false;
        continue;
      }
      const pending = this.pending.get(key);
      if (pending && !pending.complement) {
        for (const p of pending.values) if (!valueAllowed(set, p)) return false;
        if (pending.values.size > 0) continue;
      }
      if (!set.allowsAbsent) return false;
    }
    return true;
  }

  /** Why the pod cannot go here (as the kube-scheduler words it), or undefined when it can. Changes nothing. */
  check(
    entry: PodEntry,
    variant: Variant,
    req: Float64Array,
    dims: Dims,
    topology: Topology,
  ): string | undefined {
    if (this.unschedulable) return 'node(s) were unschedulable';
    for (let i = 0; i < req.length; i++) if (req[i] > this.free[i]) return `Insufficient ${dims.names[i]}`;
    if (entry.cls.hostPorts.length > 0 && this.ports.conflicts(entry.cls.hostPorts))
      return "node(s) didn't have free ports for the requested pod ports";
    const taint = untoleratedTaint(entry.cls.tolerations, this.taints, variant.strictPreferNoSchedule);
    if (taint) return `node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`;
    if (!this.matches(variant.alternatives)) return "node(s) didn't match Pod's node affinity/selector";
    const verdict = topology.check(variant.topology, this);
    if (!verdict.ok) return `node(s) didn't satisfy ${verdict.reason}`;
    return undefined;
  }

  /** Tries to place a pod; returns a short reason (as the kube-scheduler words it) when it does not fit. */
  tryAdd(
    entry: PodEntry,
    variant: Variant,
    req: Float64Array,
    dims: Dims,
    topology: Topology,
  ): string | undefined {
    const why = this.check(entry, variant, req, dims, topology);
    if (why === undefined) this.place(entry, req, topology);
    return why;
  }

  /** Share of the allocatable cpu still free (the kube-scheduler's least-allocated score). */
  freeCpuShare(cpu: number): number {
    return cpu < 0 ? 0 : this.free[cpu] / Math.max(1, this.allocatable[cpu]);
  }

  /** Places a pod that passed {@link check}. */
  place(entry: PodEntry, req: Float64Array, topology: Topology): void {
    this.commit(entry, entry.cls, req, topology);
  }

  private commit(entry: PodEntry, cls: PodClass, req: Float64Array, topology: Topology): void {
    for (let i = 0; i < req.length; i++) this.free[i] -= req[i];
    this.placed.push(entry);
    if (cls.hostPorts.length > 0) this.ports.add(cls.hostPorts);
    topology.record(cls.selecting, cls.owned, this);
  }
}
