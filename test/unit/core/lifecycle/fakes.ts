/** Small in-memory fakes of the ports for the lifecycle, sweep and interruption tests. */
import type { Node, Pod, PodDisruptionBudget } from '../../../../functions/core/model/kube-objects.js';
import type { Taint } from '../../../../functions/core/model/taint.js';
import { newNodeClaim } from '../../../../functions/core/nodeclaim/create.js';
import type { NodeClaim, PodRef } from '../../../../functions/core/nodeclaim/nodeclaim.js';
import type { CloudInstance } from '../../../../functions/core/ports/cloud-provider.js';
import type {
  ClusterEvent,
  ConfigDocument,
  EvictionResult,
  NodePatch,
} from '../../../../functions/core/ports/cluster-api.js';
import type { MirroredNodeClaim } from '../../../../functions/core/ports/cluster-status.js';
import type { JoinerEvent } from '../../../../functions/core/ports/event-publisher.js';
import type { Log } from '../../../../functions/core/ports/log.js';
import { ConflictError, type Lease, type OfferingKey } from '../../../../functions/core/ports/state-store.js';

export class FakeClock {
  constructor(public t = 1_700_000_000_000) {}
  now = (): number => this.t;
  advance(ms: number): void {
    this.t += ms;
  }
}

export class FakeLog implements Log {
  readonly lines: { level: string; message: string; fields?: Readonly<Record<string, unknown>> }[] = [];
  debug = (message: string, fields?: Readonly<Record<string, unknown>>) =>
    this.lines.push({ level: 'debug', message, fields });
  info = (message: string, fields?: Readonly<Record<string, unknown>>) =>
    this.lines.push({ level: 'info', message, fields });
  warn = (message: string, fields?: Readonly<Record<string, unknown>>) =>
    this.lines.push({ level: 'warn', message, fields });
  error = (message: string, fields?: Readonly<Record<string, unknown>>) =>
    this.lines.push({ level: 'error', message, fields });
  messages(): string[] {
    return this.lines.map((l) => l.message);
  }
}

export class FakeStore {
  readonly claims = new Map<string, NodeClaim>();
  readonly unavailable: OfferingKey[] = [];
  /** Makes the next `n` updates fail with a conflict after bumping the stored version (a racing writer). */
  conflicts = 0;

  put(claim: NodeClaim): NodeClaim {
    const stored = { ...claim, version: claim.version || 1 };
    this.claims.set(claim.id, stored);
    return stored;
  }
  getNodeClaim = async (id: string) => this.claims.get(id);
  /** Conditional create, as the table's: false when a claim of that id exists. */
  createNodeClaim = async (claim: NodeClaim) => {
    if (this.claims.has(claim.id)) return false;
    this.claims.set(claim.id, { ...claim, version: 1 });
    return true;
  };
  updateNodeClaim = async (claim: NodeClaim) => {
    const current = this.claims.get(claim.id);
    if (this.conflicts > 0 && current) {
      this.conflicts--;
      this.claims.set(claim.id, { ...current, version: current.version + 1 });
      throw new ConflictError(`nodeclaim ${claim.id} changed`);
    }
    if (!current || current.version !== claim.version)
      throw new ConflictError(`nodeclaim ${claim.id} changed`);
    const stored = { ...claim, version: claim.version + 1 };
    this.claims.set(claim.id, stored);
    return stored;
  };
  findNodeClaimByInstanceId = async (instanceId: string) =>
    [...this.claims.values()].find((c) => c.instance?.instanceId === instanceId);
  listNodeClaims = async (states?: readonly string[]) =>
    [...this.claims.values()].filter((c) => !states || states.includes(c.state));
  listDueNodeClaims = async (now: number) =>
    [...this.claims.values()].filter((c) => Object.values(c.timers).some((t) => t !== undefined && t <= now));
  markOfferingsUnavailable = async (offerings: readonly OfferingKey[]) => {
    this.unavailable.push(...offerings);
  };
  listUnavailableOfferings = async () => [];
  readonly leases = new Map<string, Lease>();
  acquireLease = async (name: string, holder: string, now: number, ttlMs: number) => {
    const held = this.leases.get(name);
    if (held && held.expiresAt > now && held.holder !== holder) return undefined;
    const lease = { name, holder, expiresAt: now + ttlMs, token: (held?.token ?? 0) + 1 };
    this.leases.set(name, lease);
    return lease;
  };
  renewLease = async (lease: Lease, now: number, ttlMs: number) => {
    const held = this.leases.get(lease.name);
    if (held?.holder !== lease.holder || held.token !== lease.token || held.expiresAt <= 0) return undefined;
    const renewed = { ...lease, expiresAt: now + ttlMs };
    this.leases.set(lease.name, renewed);
    return renewed;
  };
  releaseLease = async (lease: Lease) => {
    if (this.leases.get(lease.name)?.token === lease.token)
      this.leases.set(lease.name, { ...lease, expiresAt: 0 });
  };
  /** Idempotency records: key → expiry, as the table's conditional put. */
  readonly records = new Map<string, number>();
  recordOnce = async (key: string, now: number, ttlMs: number) => {
    const expires = this.records.get(key);
    if (expires !== undefined && expires > now) return false;
    this.records.set(key, now + ttlMs);
    return true;
  };
}

export class FakeCluster {
  readonly nodes = new Map<string, Node>();
  readonly pods: Pod[] = [];
  readonly patches: { name: string; patch: NodePatch }[] = [];
  readonly events: ClusterEvent[] = [];
  readonly evicted: string[] = [];
  readonly deleted: string[] = [];
  pending: Pod[] = [];
  /** NodeClaim resources as listed (`deleting`: someone ran `kubectl delete nodeclaim`). */
  readonly nodeClaims: MirroredNodeClaim[] = [];

  getNode = async (name: string) => structuredClone(this.nodes.get(name));
  listNodes = async () => [...this.nodes.values()].map((n) => structuredClone(n));
  listPodsOnNode = async (name?: string) => this.pods.filter((p) => !name || p.spec.nodeName === name);
  listPendingPods = async () => this.pending;
  listPendingAndBoundPods = async () => ({ pending: this.pending, bound: [...this.pods] });
  listNodeClaims = async () => [...this.nodeClaims];
  /** NodePool documents as listed (events on a NodePool name its kind). */
  readonly nodePoolDocuments: ConfigDocument[] = [];
  listNodePoolDocuments = async () => [...this.nodePoolDocuments];
  patchNode = async (name: string, patch: NodePatch) => {
    const node = this.nodes.get(name);
    if (!node) throw new Error(`node ${name} not found`);
    this.patches.push({ name, patch });
    const labels = merged(node.metadata.labels, patch.labels);
    const annotations = merged(node.metadata.annotations, patch.annotations);
    const spec = { ...node.spec, ...(patch.taints ? { taints: [...patch.taints] } : {}) };
    const finalizers = patch.finalizers ? [...patch.finalizers] : node.metadata.finalizers;
    const meta = { ...node.metadata, labels, annotations, ...(finalizers ? { finalizers } : {}) };
    const next: Node = { ...node, metadata: meta, spec };
    this.nodes.set(name, next);
    return structuredClone(next);
  };
  deleteNode = async (name: string) => {
    this.deleted.push(name);
    this.nodes.delete(name);
  };
  createEvents = async (events: readonly ClusterEvent[]) => {
    this.events.push(...events);
  };
  evictPod = async (namespace: string, name: string): Promise<EvictionResult> => {
    this.evicted.push(`${namespace}/${name}`);
    return 'evicted';
  };
  readonly pdbs: PodDisruptionBudget[] = [];
  listPodDisruptionBudgets = async () => this.pdbs;
  listDaemonSets = async () => [];
  listPersistentVolumes = async () => [];
  listPersistentVolumeClaims = async () => [];
  listStorageClasses = async () => [];
}

function merged(
  current: Record<string, string> | undefined,
  changes: Readonly<Record<string, string | null>> | undefined,
): Record<string, string> {
  const out = { ...current };
  for (const [key, value] of Object.entries(changes ?? {})) {
    if (value === null) delete out[key];
    else out[key] = value;
  }
  return out;
}

export class FakeCloud {
  readonly instances = new Map<string, CloudInstance>();
  readonly terminated: string[] = [];
  terminate = async (ids: readonly string[]) => {
    for (const id of ids) {
      this.terminated.push(id);
      const i = this.instances.get(id);
      if (i) this.instances.set(id, { ...i, state: 'shutting-down' });
    }
  };
  get = async (id: string) => this.instances.get(id);
  findByNodeClaim = async (claimId: string) =>
    [...this.instances.values()].find((i) => i.nodeClaimId === claimId && i.state !== 'terminated');
  list = async () => [...this.instances.values()].filter((i) => i.state !== 'terminated');
}

export class FakePublisher {
  readonly published: JoinerEvent[] = [];
  publish = async (events: readonly JoinerEvent[]) => {
    this.published.push(...events);
  };
}

export class FakeTimers {
  readonly scheduled: { nodeClaimId: string; dueAt: number }[] = [];
  schedule = async (nodeClaimId: string, dueAt: number) => {
    this.scheduled.push({ nodeClaimId, dueAt });
  };
}

/** A Pending claim for pool `default` planned for `pods`. */
export function pendingClaim(id: string, now: number, pods: PodRef[] = [podRef('web-1')]): NodeClaim {
  return newNodeClaim(
    {
      id,
      nodePool: 'default',
      nodeClass: 'default',
      nodePoolHash: 'p',
      nodeClassHash: 'c',
      requirements: [],
      labels: { team: 'telco' },
      taints: [{ key: 'dedicated', value: 'telco', effect: 'NoSchedule' }],
      startupTaints: [{ key: 'example.com/agent-not-ready', effect: 'NoSchedule' }],
      options: [{ instanceType: 'c5.large', zone: 'us-west-2a', capacityType: 'spot', price: 0.03 }],
      pods,
      requests: {},
    },
    now,
  );
}

export function podRef(name: string): PodRef {
  return { namespace: 'default', name, uid: `uid-${name}` };
}

/** A node as a kubelet registers it for `instanceId` (not Ready yet) with `taints`. */
export function kubeletNode(name: string, instanceId: string, taints: Taint[] = []): Node {
  return {
    metadata: { name, labels: { 'kubernetes.io/hostname': name } },
    spec: { providerID: `aws:///us-west-2a/${instanceId}`, taints },
    status: { conditions: [{ type: 'Ready', status: 'False' }] },
  };
}

export function markReady(node: Node): void {
  node.status = { ...node.status, conditions: [{ type: 'Ready', status: 'True' }] };
}

export function podOn(
  nodeName: string,
  name: string,
  extra: Partial<Pod['metadata']> = {},
  ready = true,
): Pod {
  return {
    metadata: { name, namespace: 'default', uid: `uid-${name}`, ...extra },
    spec: { containers: [{ name: 'c' }], nodeName },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
  };
}
