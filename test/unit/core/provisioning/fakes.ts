/**
 * Small in-memory fakes of the ports for provisioning tests: a cluster (pods, nodes, config
 * documents, events), a state store with the same conditional-write rules as the DynamoDB one, a
 * cloud that hands out instances (or capacity errors), a timer scheduler and a recording log.
 * The cluster also drains: it patches node taints, evicts pods (or refuses, as a
 * PodDisruptionBudget would), deletes pods and nodes, and records each of those calls.
 */
import type { Node, Pod, PodDisruptionBudget } from '../../../../functions/core/model/kube-objects.js';
import type { NodeClaim, NodeClaimState } from '../../../../functions/core/nodeclaim/nodeclaim.js';
import type {
  CloudInstance,
  CloudProvider,
  FleetError,
  LaunchInput,
  LaunchOutcome,
} from '../../../../functions/core/ports/cloud-provider.js';
import type {
  ClusterApi,
  ClusterEvent,
  ConfigDocument,
  EvictionResult,
  NodePatch,
} from '../../../../functions/core/ports/cluster-api.js';
import type { ConfigObjectRef } from '../../../../functions/core/ports/cluster-status.js';
import type { Log } from '../../../../functions/core/ports/log.js';
import {
  type ConditionalRelease,
  ConflictError,
  type Lease,
  type OfferingKey,
  type StateStore,
  UNAVAILABLE_OFFERING_TTL_MS,
  type UnavailableOffering,
} from '../../../../functions/core/ports/state-store.js';
import type { NodeClaimResource } from '../../../../functions/core/status/nodeclaim-resource.js';

/** A cluster held in arrays. */
export class FakeCluster implements ClusterApi {
  pods: Pod[] = [];
  nodes: Node[] = [];
  nodePoolDocs: ConfigDocument[] = [];
  nodeClassDocs: ConfigDocument[] = [];
  events: ClusterEvent[] = [];
  failing?: Error;
  /** The PodDisruptionBudgets the cluster lists. */
  pdbs: PodDisruptionBudget[] = [];
  /** Pods (`namespace/name`, or just `name`) whose eviction a PodDisruptionBudget refuses (HTTP 429). */
  protectedPods = new Set<string>();
  /**
   * When true, evicted and deleted pods stay on their node, terminating (deletion timestamp set,
   * their grace period from `now()`), until {@link finishTerminating}; otherwise they go at once.
   */
  podsLinger = false;
  /** The time deletion timestamps are set from. */
  now: () => number = () => Date.now();
  /** Every eviction request with its answer. */
  evictions: { namespace: string; name: string; result: EvictionResult }[] = [];
  /** Every pod deletion with the grace period it asked for. */
  deletions: { namespace: string; name: string; gracePeriodSeconds?: number }[] = [];
  /** Names of the nodes deleted. */
  deletedNodes: string[] = [];
  /** Every node patch, applied or not. */
  nodePatches: { name: string; patch: NodePatch }[] = [];
  /** Makes the next `n` node patches throw (before changing anything). */
  failNodePatches = 0;
  /** NodeClaim resources by name, as the cluster holds them. */
  nodeClaimResources = new Map<string, NodeClaimResource>();
  /** Status writes so far. */
  statusWrites = 0;
  /** Every status written, as `Kind/name` → the status. */
  statuses = new Map<string, Readonly<Record<string, unknown>>>();

  async applyNodeClaims(resources: readonly NodeClaimResource[]) {
    for (const r of resources) this.nodeClaimResources.set(r.metadata.name, structuredClone(r));
  }
  async deleteNodeClaims(names: readonly string[]) {
    for (const name of names) this.nodeClaimResources.delete(name);
  }
  async listNodeClaims() {
    return [...this.nodeClaimResources.values()].map((r) => ({
      name: r.metadata.name,
      resource: structuredClone(r),
    }));
  }
  async patchConfigStatus(ref: ConfigObjectRef, status: Readonly<Record<string, unknown>>) {
    this.statusWrites++;
    this.statuses.set(`${ref.kind}/${ref.name}`, structuredClone(status));
    const docs = [...this.nodePoolDocs, ...this.nodeClassDocs];
    const doc = docs.find((d) => d.kind === ref.kind && d.metadata.name === ref.name);
    if (doc) (doc as { status?: unknown }).status = structuredClone(status);
  }

  private check(): void {
    if (this.failing) throw this.failing;
  }
  private pendingNow() {
    return this.pods.filter(
      (p) => !p.spec.nodeName && p.status?.conditions?.some((c) => c.reason === 'Unschedulable'),
    );
  }
  private boundNow(nodeName?: string) {
    return this.pods.filter((p) => p.spec.nodeName && (!nodeName || p.spec.nodeName === nodeName));
  }
  async listPendingPods() {
    this.check();
    return this.pendingNow();
  }
  async listPodsOnNode(nodeName?: string) {
    this.check();
    return this.boundNow(nodeName);
  }
  async listPendingAndBoundPods() {
    this.check();
    return { pending: this.pendingNow(), bound: this.boundNow() };
  }
  async getPod(namespace: string, name: string) {
    return this.pods.find((p) => p.metadata.namespace === namespace && p.metadata.name === name);
  }
  async listNodes() {
    this.check();
    return this.nodes;
  }
  async getNode(name: string) {
    return this.nodes.find((n) => n.metadata.name === name);
  }
  async listDaemonSets() {
    return [];
  }
  async listPersistentVolumes() {
    return [];
  }
  async listPersistentVolumeClaims() {
    return [];
  }
  async listStorageClasses() {
    return [];
  }
  async listPodDisruptionBudgets() {
    return this.pdbs;
  }
  async listNodePoolDocuments() {
    return this.nodePoolDocs;
  }
  async listNodeClassDocuments() {
    return this.nodeClassDocs;
  }
  /** Applies the patch to a new node object (references read before keep the old one). */
  async patchNode(name: string, patch: NodePatch): Promise<Node> {
    this.nodePatches.push({ name, patch });
    if (this.failNodePatches > 0) {
      this.failNodePatches--;
      throw new Error(`patching node ${name}: connection reset`);
    }
    const current = this.nodes.find((n) => n.metadata.name === name);
    if (!current) throw new Error(`nodes "${name}" not found`);
    const next: Node = {
      ...current,
      metadata: {
        ...current.metadata,
        labels: merged(current.metadata.labels, patch.labels),
        annotations: merged(current.metadata.annotations, patch.annotations),
      },
      spec: {
        ...current.spec,
        ...(patch.taints === undefined ? {} : { taints: [...patch.taints] }),
        ...(patch.unschedulable === undefined ? {} : { unschedulable: patch.unschedulable }),
      },
    };
    this.nodes = this.nodes.map((n) => (n === current ? next : n));
    return next;
  }
  async deleteNode(name: string, instanceId?: string) {
    // As the port says: with an instance, only that instance's Node of the name.
    const node = this.nodes.find((n) => n.metadata.name === name);
    if (node && instanceId && node.spec?.providerID && !node.spec.providerID.endsWith(`/${instanceId}`))
      return;
    this.deletedNodes.push(name);
    this.nodes = this.nodes.filter((n) => n.metadata.name !== name);
  }
  async createEvents(events: readonly ClusterEvent[]) {
    this.events.push(...events);
  }
  async evictPod(namespace: string, name: string): Promise<EvictionResult> {
    const result = this.evictionResult(namespace, name);
    this.evictions.push({ namespace, name, result });
    if (result === 'evicted') this.removePod(namespace, name, undefined);
    return result;
  }
  async deletePod(namespace: string, name: string, gracePeriodSeconds?: number) {
    this.deletions.push({ namespace, name, gracePeriodSeconds });
    if (!this.findPod(namespace, name)) return 'not-found' as const;
    this.removePod(namespace, name, gracePeriodSeconds);
    return 'deleted' as const;
  }
  /** Removes the pods that are terminating (their kubelet is done with them). */
  finishTerminating(): void {
    this.pods = this.pods.filter((p) => p.metadata.deletionTimestamp === undefined);
  }
  private evictionResult(namespace: string, name: string): EvictionResult {
    if (!this.findPod(namespace, name)) return 'not-found';
    if (this.protectedPods.has(`${namespace}/${name}`) || this.protectedPods.has(name))
      return 'blocked-by-pdb';
    return 'evicted';
  }
  private findPod(namespace: string, name: string): Pod | undefined {
    return this.pods.find(
      (p) => (p.metadata.namespace ?? 'default') === namespace && p.metadata.name === name,
    );
  }
  private removePod(namespace: string, name: string, gracePeriodSeconds: number | undefined): void {
    const pod = this.findPod(namespace, name);
    if (!pod) return;
    if (!this.podsLinger) {
      this.pods = this.pods.filter((p) => p !== pod);
      return;
    }
    if (pod.metadata.deletionTimestamp !== undefined) return;
    const spec = pod.spec as { terminationGracePeriodSeconds?: number };
    const grace = gracePeriodSeconds ?? spec.terminationGracePeriodSeconds ?? 30;
    const deletionTimestamp = new Date(this.now() + grace * 1000).toISOString();
    const terminating: Pod = { ...pod, metadata: { ...pod.metadata, deletionTimestamp } };
    this.pods = this.pods.map((p) => (p === pod ? terminating : p));
  }
}

/** `base` with `patch` merged in (a null value removes the key); undefined when both are empty. */
function merged(
  base: Readonly<Record<string, string>> | undefined,
  patch: Readonly<Record<string, string | null>> | undefined,
): Record<string, string> | undefined {
  if (!patch) return base === undefined ? undefined : { ...base };
  const out: Record<string, string> = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = value;
  }
  return out;
}

/** A state store in a Map, with versioned writes and leases like the DynamoDB store. */
export class MemoryStore implements StateStore {
  claims = new Map<string, NodeClaim>();
  offerings: UnavailableOffering[] = [];
  leases = new Map<string, Lease>();
  /** Called before each claim update is applied; a test makes it throw to simulate a failed write. */
  beforeUpdate?: (next: NodeClaim, stored: NodeClaim | undefined) => void;

  async createNodeClaim(claim: NodeClaim) {
    if (this.claims.has(claim.id)) return false;
    this.claims.set(claim.id, { ...claim, version: 1 });
    return true;
  }
  async getNodeClaim(id: string) {
    return this.claims.get(id);
  }
  async updateNodeClaim(claim: NodeClaim) {
    const stored = this.claims.get(claim.id);
    this.beforeUpdate?.(claim, stored);
    if (!stored || stored.version !== claim.version) throw new ConflictError(`nodeclaim ${claim.id} changed`);
    if (claim.leaseToken !== undefined && (stored.leaseToken ?? 0) > claim.leaseToken)
      throw new ConflictError(`nodeclaim ${claim.id} was written under a newer provisioning lease`);
    const next = { ...claim, version: claim.version + 1 };
    this.claims.set(claim.id, next);
    return next;
  }
  async listNodeClaims(states?: readonly NodeClaimState[]) {
    return [...this.claims.values()].filter((c) => !states || states.includes(c.state));
  }
  async findNodeClaimByInstanceId(instanceId: string) {
    return [...this.claims.values()].find((c) => c.instance?.instanceId === instanceId);
  }
  async listDueNodeClaims() {
    return [];
  }
  async markOfferingsUnavailable(
    offerings: readonly OfferingKey[],
    reason: string,
    now: number,
    ttlMs?: number,
  ) {
    const expiresAt = now + (ttlMs ?? UNAVAILABLE_OFFERING_TTL_MS);
    this.offerings.push(...offerings.map((o) => ({ ...o, reason, expiresAt })));
  }
  async listUnavailableOfferings(now: number) {
    return this.offerings.filter((o) => o.expiresAt > now);
  }
  async acquireLease(name: string, holder: string, now: number, ttlMs: number) {
    const held = this.leases.get(name);
    if (held && held.holder !== holder && held.expiresAt > now) return undefined;
    const last = held ?? this.released.get(name);
    const lease: Lease = {
      name,
      holder,
      expiresAt: now + ttlMs,
      token: (last?.token ?? 0) + 1,
      requests: last?.requests ?? 0,
    };
    this.leases.set(name, lease);
    return lease;
  }
  async renewLease(lease: Lease, now: number, ttlMs: number) {
    const held = this.leases.get(lease.name);
    if (held?.holder !== lease.holder || held.token !== lease.token) return undefined;
    const renewed = { ...held, expiresAt: now + ttlMs };
    this.leases.set(lease.name, renewed);
    return renewed;
  }
  async releaseLease(lease: Lease) {
    const held = this.leases.get(lease.name);
    if (held?.token !== lease.token) return;
    this.leases.delete(lease.name);
    this.released.set(lease.name, held);
  }
  /** Leases released, kept for their `requestedAt` and token (as the table keeps the item). */
  private released = new Map<string, Lease>();
  async requestLeaseRun(name: string, now: number) {
    const held = this.leases.get(name);
    if (!held || held.expiresAt <= now) return false;
    this.leases.set(name, { ...held, requests: (held.requests ?? 0) + 1 });
    return true;
  }
  async releaseLeaseUnlessRequested(lease: Lease, seen: number): Promise<ConditionalRelease> {
    const held = this.leases.get(lease.name);
    if (held?.holder !== lease.holder || held.token !== lease.token) return { released: true };
    if ((held.requests ?? 0) !== seen) return { released: false, requests: held.requests ?? 0 };
    this.leases.delete(lease.name);
    this.released.set(lease.name, held);
    return { released: true };
  }
  async recordOnce() {
    return true;
  }
}

/** A cloud that launches the first option not in `exhausted`, reporting capacity errors for those. */
export class FakeCloud implements CloudProvider {
  instances: (CloudInstance & { clientToken: string })[] = [];
  exhausted = new Set<string>();
  launches = 0;
  /** Throws on the next `n` launches (before doing anything). */
  throwNext = 0;
  /** Every instance id terminated. */
  terminated: string[] = [];
  /** Throws on the next `n` terminations (before doing anything). */
  throwOnTerminate = 0;

  async launch(input: LaunchInput): Promise<LaunchOutcome> {
    await input.beforeStart?.();
    this.launches++;
    if (this.throwNext > 0) {
      this.throwNext--;
      throw Object.assign(new Error('Request limit exceeded.'), { name: 'RequestLimitExceeded' });
    }
    const replay = this.instances.find((i) => i.clientToken === input.clientToken);
    if (replay) return { ok: true, instance: replay, errors: [] };
    const errors: FleetError[] = [];
    for (const o of input.options) {
      if (this.exhausted.has(`${o.instanceType}/${o.zone}/${o.capacityType}`)) {
        errors.push({ code: 'InsufficientInstanceCapacity', message: 'no capacity', ...o });
        continue;
      }
      const instance = {
        instanceId: `i-${String(this.instances.length + 1).padStart(8, '0')}`,
        instanceType: o.instanceType,
        zone: o.zone,
        capacityType: o.capacityType,
        state: 'running' as const,
        launchTime: 0,
        nodeClaimId: input.claim.id,
        nodePool: input.claim.nodePool,
        tags: { 'joiner.sh/nodeclaim': input.claim.id },
        clientToken: input.clientToken,
      };
      this.instances.push(instance);
      return { ok: true, instance, errors };
    }
    return { ok: false, errors };
  }
  async terminate(ids: readonly string[]) {
    if (this.throwOnTerminate > 0) {
      this.throwOnTerminate--;
      throw Object.assign(new Error('Request limit exceeded.'), { name: 'RequestLimitExceeded' });
    }
    this.terminated.push(...ids);
    this.instances = this.instances.filter((i) => !ids.includes(i.instanceId));
  }
  async get(id: string) {
    return this.instances.find((i) => i.instanceId === id);
  }
  async findByNodeClaim(id: string) {
    return this.instances.find((i) => i.nodeClaimId === id);
  }
  async list() {
    return this.instances;
  }
}

/** A log that keeps its lines. */
export class RecordingLog implements Log {
  lines: { level: string; message: string; fields?: Readonly<Record<string, unknown>> }[] = [];
  debug(message: string, fields?: Readonly<Record<string, unknown>>) {
    this.lines.push({ level: 'debug', message, fields });
  }
  info(message: string, fields?: Readonly<Record<string, unknown>>) {
    this.lines.push({ level: 'info', message, fields });
  }
  warn(message: string, fields?: Readonly<Record<string, unknown>>) {
    this.lines.push({ level: 'warn', message, fields });
  }
  error(message: string, fields?: Readonly<Record<string, unknown>>) {
    this.lines.push({ level: 'error', message, fields });
  }
  messages(): string[] {
    return this.lines.map((l) => l.message);
  }
}
