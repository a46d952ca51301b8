/**
 * The provisioning run: re-reads pending pods and the cluster, plans with the scheduler, writes
 * the new nodeclaims and launches them, and tells each pod where it should go.
 */
import { randomUUID } from 'node:crypto';
import type { PodRefDetail } from '../events/joiner-events.js';
import { launchBlocks, nodeClassLaunchFailures } from '../launch/nodeclass-launch-backoff.js';
import type { Pod } from '../model/kube-objects.js';
import { isStatic } from '../model/node-pool.js';
import type { NodeClaim, NodeClaimState } from '../nodeclaim/nodeclaim.js';
import { DEFAULT_TIMEOUTS } from '../nodeclaim/state-machine.js';
import { systemClock } from '../ports/clock.js';
import type { OfferingKey, StateStore } from '../ports/state-store.js';
import { DEFAULT_BATCH_WINDOW, type GatherResult, gatherPods } from './batch-window.js';
import { type ClusterSnapshot, readClusterSnapshot, readNodeClasses } from './cluster-snapshot.js';
import { handOver } from './handover.js';
import { IN_FLIGHT_STATES } from './in-flight.js';
import { type LaunchClaimsOutcome, launchClaims, mergeOutcomes } from './launch-claims.js';
import { launchLimits } from './launch-limits.js';
import { logPlan, type Nominations, nominationsOf, reportEvents } from './nominations.js';
import { oldestPendingAgeMs } from './oldest-pending-age.js';
import { planRun, type RunPlan } from './plan-run.js';
import { claimFromPlan } from './planned-claims.js';
import type { Nomination } from './pod-events.js';
import { type NodeClassPreparation, nodeClassPreparation, prepareLaunch } from './prepare-launches.js';
import {
  acquireProvisioningLease,
  LaunchFence,
  LaunchStopped,
  releaseProvisioningLease,
} from './provisioning-lease.js';
import { claimsToResume } from './resume-claims.js';
import { joinPasses, MAX_PASSES } from './run-passes.js';
import { launchStaticPools } from './static-launch.js';
import { staticLaunches } from './static-pools.js';
import { splitSuperseded } from './superseded-claims.js';
import type {
  FailedClaimResult,
  LaunchedClaimResult,
  ProvisionDeps,
  ProvisionInput,
  ProvisionOptions,
  ProvisionResult,
} from './types.js';
import { writeClaim } from './write-claims.js';

type Settings = Required<Omit<ProvisionOptions, 'maxLaunchAttempts'>> &
  Pick<ProvisionOptions, 'maxLaunchAttempts'>;

/** Lease TTL without a known deadline; with one, the lease ends {@link LEASE_GRACE_MS} after it. */
const DEFAULT_LEASE_TTL_MS = 70_000;
/** How long the lease outlives the invocation's deadline. */
const LEASE_GRACE_MS = 5_000;
/** Time a launch needs to be sure to finish (also capped at a quarter of the invocation's time). */
const DEFAULT_LAUNCH_RESERVE_MS = 10_000;

function settingsOf(options: ProvisionOptions = {}, remainingMs?: number): Settings {
  const fallbackReserve =
    remainingMs === undefined
      ? DEFAULT_LAUNCH_RESERVE_MS
      : Math.min(DEFAULT_LAUNCH_RESERVE_MS, remainingMs / 4);
  const reserve = options.launchReserveMs ?? fallbackReserve;
  return {
    holder: options.holder ?? randomUUID(),
    leaseTtlMs:
      options.leaseTtlMs ?? (remainingMs === undefined ? DEFAULT_LEASE_TTL_MS : remainingMs + LEASE_GRACE_MS),
    leaseWaitMs: Math.min(
      options.leaseWaitMs ?? 20_000,
      remainingMs === undefined ? Number.POSITIVE_INFINITY : Math.max(0, remainingMs - 2 * reserve),
    ),
    leaseRetryMs: options.leaseRetryMs ?? 100,
    absorb: options.absorb ?? false,
    launchReserveMs: reserve,
    timeouts: options.timeouts ?? DEFAULT_TIMEOUTS,
    maxLaunchAttempts: options.maxLaunchAttempts,
  };
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Distinct pod refs (by uid). */
export function dedupeHints(hints: readonly PodRefDetail[]): PodRefDetail[] {
  const seen = new Map<string, PodRefDetail>();
  for (const h of hints) if (!seen.has(h.uid)) seen.set(h.uid, h);
  return [...seen.values()];
}

/**
 * Runs one provisioning pass for the pods of a batch. The hints only wake the run: every pending
 * Unschedulable pod is planned, and hinted pods that are bound or gone are dropped. One run at a
 * time holds the provisioning lease; a run that cannot get it in time returns `deferred`.
 * Idempotent: a redelivered batch finds its pods waiting for the claims the first delivery made.
 * Throws when the API server or the state store fails before anything was launched.
 */
export async function provision(deps: ProvisionDeps, input: ProvisionInput): Promise<ProvisionResult> {
  const sleep = deps.sleep ?? realSleep;
  const leaseClock = deps.leaseClock ?? systemClock;
  const preparation = nodeClassPreparation(deps);
  // While the batch window is open the NodeClasses are read and resolved in the cloud (subnets,
  // security groups, AMIs, the cluster's details): a cold function's Describe calls overlap the
  // wait instead of delaying the plan after it. Never rejects; the run's read starts it otherwise.
  if (input.events && input.hints.length > 0)
    readNodeClasses(deps.cluster, deps.karpenterKinds).then(preparation.start, () => {});
  // Karpenter-like batching: the run waits for the end of the burst before anything else.
  const batch = await gatherBatch(deps, input, sleep, leaseClock).catch(async (error: unknown) => {
    await preparation.settled();
    throw error;
  });
  const started = performance.now();
  const settings = settingsOf(input.options, deps.remainingMs?.());
  const hints = dedupeHints(input.hints);
  // The cluster is read while the lease is taken; a run that had to wait for the lease reads it again.
  const now = () => deps.clock.now();
  const reread = () => readClusterSnapshot(deps.cluster, deps.log, undefined, deps.karpenterKinds, now);
  const early = readClusterSnapshot(
    deps.cluster,
    deps.log,
    hints.length > 0 ? preparation.start : undefined,
    deps.karpenterKinds,
    now,
  );
  early.catch(() => {});
  const acquired = await acquireProvisioningLease(
    { store: deps.store, log: deps.log, clock: leaseClock, sleep },
    {
      holder: settings.holder,
      ttlMs: settings.leaseTtlMs,
      waitMs: settings.leaseWaitMs,
      retryMs: settings.leaseRetryMs,
      absorb: settings.absorb,
    },
  );
  if (!acquired || 'absorbed' in acquired) {
    await preparation.settled();
    if (acquired)
      return { ...emptyResult(hints.length), absorbed: true, batch, totalMs: performance.now() - started };
    deps.log.warn('another provisioning run holds the lease, deferring', { pods: hints.length });
    return { ...emptyResult(hints.length), deferred: true, batch, totalMs: performance.now() - started };
  }
  const { lease } = acquired;
  const fence = new LaunchFence({ ...deps, clock: leaseClock }, lease, {
    reserveMs: settings.launchReserveMs,
    ttlMs: () => {
      const remaining = deps.remainingMs?.();
      return remaining === undefined ? settings.leaseTtlMs : remaining + LEASE_GRACE_MS;
    },
  });
  let outcome: RunOutcome | undefined;
  let held = true;
  try {
    const runDeps = { ...deps, sleep, fence };
    // Runs that asked for provisioning since the count `seen` was read are planned by another pass.
    let seen = lease.requests ?? 0;
    let snapshot = acquired.waited ? reread() : early;
    for (let pass = 1; ; pass++) {
      const done = await run(runDeps, snapshot, preparation, hints, settings, started);
      outcome = outcome ? joinOutcomes(outcome, done) : done;
      const next = await nextPass(runDeps, seen, pass);
      if (next === 'released') held = false;
      if (typeof next !== 'number') {
        if (next === 'unserved') outcome = { ...outcome, result: { ...outcome.result, incomplete: true } };
        break;
      }
      seen = next;
      snapshot = reread();
    }
  } finally {
    if (held) await releaseProvisioningLease(deps, fence.lease);
    // Launches waited for the NodeClasses they use; a run that launched nothing lets it end here.
    await preparation.settled();
  }
  // Events are best effort and change no state: the next run need not wait for them.
  if (!outcome) throw new Error('provisioning run made no pass');
  // The lease is free: a new invocation may take what this one had no time to launch.
  const handedOver = await handOver(deps, outcome.result, fence.stopReason);
  await outcome.report();
  return { ...outcome.result, handedOver, batch, totalMs: performance.now() - started };
}

/**
 * Waits for the end of the burst the batch belongs to (see batch-window.ts). The window never
 * takes more than half of the invocation's remaining time: planning and launching need the rest.
 */
async function gatherBatch(
  deps: ProvisionDeps,
  input: ProvisionInput,
  sleep: (ms: number) => Promise<void>,
  clock: { now(): number },
): Promise<GatherResult | undefined> {
  if (!input.events || input.hints.length === 0) return undefined;
  const window = deps.batchWindow ?? DEFAULT_BATCH_WINDOW;
  const remaining = deps.remainingMs?.();
  const deadline = remaining === undefined ? undefined : clock.now() + remaining / 2;
  const gathered = await gatherPods(
    { cluster: deps.cluster, log: deps.log, now: () => clock.now(), sleep, deadline },
    window,
    input.events,
  );
  if (gathered.waitedMs > 0)
    deps.log.info('batched pending pods', {
      'waited-ms': gathered.waitedMs,
      'new-pods': gathered.newPods,
      'closed-by': gathered.closedBy,
    });
  return gathered;
}

/** Planning rounds per run: a round follows when claims found no capacity (their pods are re-planned). */
const MAX_ROUNDS = 3;

/** A run's result, and the reporting of its pod events (done after the lease is released). */
interface RunOutcome {
  readonly result: ProvisionResult;
  readonly report: () => Promise<void>;
}

type RunDeps = ProvisionDeps & { readonly sleep: (ms: number) => Promise<void>; readonly fence: LaunchFence };

const READ_STATES: readonly NodeClaimState[] = [...IN_FLIGHT_STATES, 'Initialized', 'Draining'];

/**
 * The in-flight and draining claims, the offerings marked unavailable, and every claim (the failed
 * ones start a NodeClass's launch backoff: nodeclass-launch-backoff.ts), as stored now.
 */
async function readState(
  deps: RunDeps,
): Promise<[NodeClaim[], Awaited<ReturnType<StateStore['listUnavailableOfferings']>>, NodeClaim[]]> {
  const [all, unavailable] = await Promise.all([
    deps.store.listNodeClaims(),
    deps.store.listUnavailableOfferings(deps.clock.now()),
  ]);
  return [all.filter((c) => READ_STATES.includes(c.state)), unavailable, all];
}

async function run(
  deps: RunDeps,
  snapshotRead: Promise<ClusterSnapshot>,
  preparation: NodeClassPreparation,
  hints: readonly PodRefDetail[],
  settings: Settings,
  started: number,
): Promise<RunOutcome> {
  let firstState = readState(deps);
  firstState.catch(() => {});
  const snapshot = await snapshotRead;
  const [inFlight, , everyClaim] = await firstState;
  const counted = await staticCounted(deps, snapshot, inFlight);
  // A static pool whose NodeClass backs off launches nothing either (nodeclass-launch-backoff.ts).
  const backingOff = launchBlocks(
    nodeClassLaunchFailures(everyClaim, snapshot.nodeClasses, deps.clock.now()),
    deps.clock.now(),
  );
  const statics = staticLaunches(snapshot.nodePools, counted).map((l) =>
    backingOff.has(l.pool.nodeClassRef.name) ? { ...l, launch: 0 } : l,
  );
  const lacking = statics.some((l) => l.launch > 0);
  // NodeClasses are resolved while the run plans (from when they were read, for a hinted run).
  if (snapshot.pendingPods.length > 0 || lacking) preparation.start(snapshot.nodeClasses);
  // Plans offer only the zones a NodeClass has subnets in (known once it is resolved).
  const zones = await preparation.settled();
  const reservations = await preparation.reservations();
  const acc = newAccumulator();
  if (statics.some((l) => l.launch > 0 || l.limited) && (await mayWrite(deps))) {
    // Static pools first (Karpenter v1.8): the pods are then planned onto their new claims too.
    const [, unavailable] = await firstState;
    const done = await launchStaticPools(deps, snapshot, statics, counted, unavailable, {
      allowedNodeRoles: deps.nodeRoles,
      zones,
      reservations,
      now: deps.clock.now(),
      leaseToken: deps.fence.lease.token,
      timeouts: settings.timeouts,
      maxAttempts: settings.maxLaunchAttempts,
    });
    acc.add(done.created, done.launch, { all: [], onNodes: 0, onInFlight: 0 }, 0);
    if (done.created.length > 0) {
      firstState = readState(deps);
      firstState.catch(() => {});
    }
  }
  let first: RunPlan | undefined;
  let last: RunPlan | undefined;
  for (let round = 1; round <= MAX_ROUNDS; round++) {
    const [claims, unavailable, all] = await (round === 1 ? firstState : readState(deps));
    const { live, superseded } = splitSuperseded(claims);
    const now = deps.clock.now();
    const planned = planRun(snapshot, live, unavailable, deps.catalog, {
      allowedNodeRoles: deps.nodeRoles,
      zones,
      reservations,
      now,
      launchBlocks: launchBlocks(nodeClassLaunchFailures(all, snapshot.nodeClasses, now), now),
    });
    let resume: NodeClaim[] = [];
    if (!first) {
      first = planned;
      logUnmanaged(deps, snapshot);
      logFound(deps, planned, hints);
      const decision = await claimsToResume(deps, planned.inFlight, planned.pending, superseded);
      resume = decision.resume;
      acc.resumed.push(...resume.map((c) => c.id));
      acc.cancelled.push(...decision.cancelled);
    }
    last = planned;
    logPlan(deps.log, planned);
    if (planned.plan.nodeClaims.length > 0 && !(await mayWrite(deps))) {
      acc.incomplete = true;
      acc.left.push(...planned.plan.nodeClaims.flatMap((c) => refsOf(c.pods, planned.podsById)));
      deps.log.warn('provisioning run writes no nodeclaim, the next run plans its pods', {
        reason: deps.fence.stopReason,
      });
      break;
    }
    const { created, launch } = await writeAndLaunch(deps, planned, resume, unavailable, settings);
    const failedIds = new Set(launch.failed.map((f) => f.nodeClaim));
    const nominations = nominationsOf(
      planned,
      created.filter((c) => !failedIds.has(c.id)),
    );
    acc.add(created, launch, nominations, planned.schedulingMs);
    if (deps.fence.stopReason) {
      const stopped = new Set(launch.stopped);
      acc.left.push(...[...created, ...resume].filter((c) => stopped.has(c.id)).flatMap((c) => c.pods));
      deps.log.warn('provisioning run stops launching, the next run resumes its pending nodeclaims', {
        reason: deps.fence.stopReason,
        pending: launch.stopped.length,
      });
      break;
    }
    if (!foundNoCapacity(launch)) break;
    if (round < MAX_ROUNDS)
      deps.log.info('re-planning the pods of nodeclaims that found no capacity', { round });
  }
  if (!first || !last) throw new Error('provisioning run made no planning round');
  const reported = last;
  const report = () => reportEvents(deps.cluster, reported, acc.nominations, acc.failed);
  const pendingUids = new Set(first.pending.map((p) => p.metadata.uid));
  const result: ProvisionResult = {
    ...emptyResult(hints.length),
    staleHints: hints.filter((h) => !pendingUids.has(h.uid)).length,
    pendingPods: first.pending.length,
    oldestPendingPodAgeMs: oldestPendingAgeMs(snapshot.pendingPods, deps.clock.now()),
    waitingForInFlight: first.waiting.size,
    created: acc.created,
    launched: acc.launched,
    failed: acc.failed,
    incomplete: acc.incomplete,
    resumed: acc.resumed,
    cancelled: acc.cancelled,
    nominated: acc.nominations.length,
    placedOnExisting: acc.onNodes,
    placedOnInFlight: acc.onInFlight,
    claimOfPod: claimOfPod(acc.nominations),
    unschedulable: last.plan.unschedulable.map((u) => ({ pod: u.pod, reason: u.reason })),
    markedUnavailable: [...acc.marked],
    leftForNextRun: acc.left,
    invalidDocuments: snapshot.invalidDocuments,
    schedulingMs: acc.schedulingMs,
    totalMs: performance.now() - started,
  };
  return { result, report };
}

/**
 * Writes the round's planned claims and launches each as soon as it is written, with the resumed
 * ones. While a claim is written and its attempt recorded, the cloud prepares its launch; its
 * CreateFleet waits for that.
 */
async function writeAndLaunch(
  deps: RunDeps,
  planned: RunPlan,
  resume: readonly NodeClaim[],
  unavailable: readonly OfferingKey[],
  settings: Settings,
): Promise<{ created: NodeClaim[]; launch: LaunchClaimsOutcome }> {
  const now = deps.clock.now();
  const leaseToken = deps.fence.lease.token;
  const fresh = planned.plan.nodeClaims.map((c) =>
    claimFromPlan(c, planned.pools, planned.podsById, now, settings.timeouts),
  );
  // Limits are checked again at launch against the pool's nodes and every other live claim.
  const live = [...planned.inFlight, ...fresh];
  const options = {
    maxAttempts: settings.maxLaunchAttempts,
    unavailable,
    leaseToken,
    limits: (claim: NodeClaim) => launchLimits(claim, planned.pools, planned.nodeUsage, live),
  };
  const launches = planned.plan.nodeClaims.map(async (c, i) => {
    const claim = fresh[i];
    const prepared = prepareLaunch(deps, claim, planned.pools, unavailable);
    const written = await writeClaim(deps, c, planned.pools, planned.podsById, settings.timeouts, leaseToken);
    if (written.status !== 'created') {
      await prepared;
      return { outcome: mergeOutcomes([]) };
    }
    logCreated(deps, written.claim);
    const outcome = await launchClaims(deps, [written.claim], planned.pools, { ...options, prepared });
    return { claim: written.claim, outcome };
  });
  const resumed = launchClaims(deps, resume, planned.pools, options);
  // Every write and launch ends before the run does (and releases its lease), even when one fails.
  await Promise.allSettled([resumed, ...launches]);
  const done = await Promise.all(launches);
  return {
    created: done.flatMap((f) => (f.claim ? [f.claim] : [])),
    launch: mergeOutcomes([await resumed, ...done.map((f) => f.outcome)]),
  };
}

/**
 * The claims a static pool's count is made of: the run's, plus the Terminating ones when a static
 * pool sets `limits.nodes` (a node counts against it until it is gone).
 */
async function staticCounted(
  deps: RunDeps,
  snapshot: ClusterSnapshot,
  claims: readonly NodeClaim[],
): Promise<readonly NodeClaim[]> {
  const limited = snapshot.nodePools.some((p) => isStatic(p) && p.limits.nodes !== undefined);
  return limited ? [...claims, ...(await deps.store.listNodeClaims(['Terminating']))] : claims;
}

/**
 * After a pass: `released` when the lease's request count is still `seen` (the lease is free); the
 * new count when runs asked for provisioning since and this run has the time to plan again (it
 * reads the cluster after this); `unserved` when it has not (the caller then releases the lease
 * and the run's batch comes back).
 */
async function nextPass(
  deps: RunDeps,
  seen: number,
  pass: number,
): Promise<'released' | 'unserved' | number> {
  let release: Awaited<ReturnType<typeof deps.store.releaseLeaseUnlessRequested>>;
  try {
    release = await deps.store.releaseLeaseUnlessRequested(deps.fence.lease, seen);
    if (release.released) return 'released';
  } catch (error) {
    deps.log.warn('could not release the provisioning lease after a pass, its batch comes back', {
      error: (error as Error).message,
    });
    return 'unserved';
  }
  if (pass < MAX_PASSES && (await mayWrite(deps))) {
    deps.log.info('another run asked for provisioning meanwhile, planning again', { pass: pass + 1 });
    return release.requests;
  }
  deps.log.warn('another run asked for provisioning, this one has no time left: its batch comes back', {
    reason: deps.fence.stopReason ?? `${pass} passes made`,
  });
  return 'unserved';
}

/** Two passes as one outcome (their pod events reported one after the other). */
function joinOutcomes(first: RunOutcome, later: RunOutcome): RunOutcome {
  return {
    result: joinPasses(first.result, later.result),
    report: async () => {
      await first.report();
      await later.report();
    },
  };
}

/** Whether the run still holds its lease with time to spare: only then it writes claims. */
async function mayWrite(deps: RunDeps): Promise<boolean> {
  try {
    await deps.fence.check();
    return true;
  } catch (error) {
    if (error instanceof LaunchStopped) return false;
    throw error;
  }
}

/** Whether a round's failures came from capacity (offerings marked): their pods deserve another plan. */
function foundNoCapacity(launch: LaunchClaimsOutcome): boolean {
  return (
    launch.failed.length > 0 &&
    (launch.marked.length > 0 || launch.failed.some((f) => f.reason.startsWith('NoCapacity')))
  );
}

/** Says once per run which NodePools joiner leaves to another autoscaler, and why. */
function logUnmanaged(deps: ProvisionDeps, snapshot: ClusterSnapshot): void {
  if (snapshot.unmanagedNodePools.length === 0) return;
  deps.log.info(`leaving ${snapshot.unmanagedNodePools.length} NodePool(s) to another autoscaler`, {
    nodepools: snapshot.unmanagedNodePools.map((u) => `${u.kind}/${u.name}`),
    reasons: [...new Set(snapshot.unmanagedNodePools.map((u) => u.reason))],
  });
}

function logFound(deps: ProvisionDeps, planned: RunPlan, hints: readonly PodRefDetail[]): void {
  const pendingUids = new Set(planned.pending.map((p) => p.metadata.uid));
  const stale = hints.filter((h) => !pendingUids.has(h.uid)).length;
  if (planned.pending.length === 0 && stale === 0) return;
  deps.log.info(`found ${planned.pending.length} provisionable pod(s)`, {
    pods: planned.pending.length,
    'waiting-for-in-flight': planned.waiting.size,
    'stale-hints': stale,
  });
}

function newAccumulator() {
  const acc = {
    created: [] as string[],
    launched: [] as LaunchedClaimResult[],
    failed: [] as FailedClaimResult[],
    marked: new Set<string>(),
    resumed: [] as string[],
    cancelled: [] as string[],
    nominations: [] as Nomination[],
    left: [] as PodRefDetail[],
    onNodes: 0,
    onInFlight: 0,
    schedulingMs: 0,
    incomplete: false,
    add(created: NodeClaim[], launch: LaunchClaimsOutcome, nominations: Nominations, schedulingMs: number) {
      acc.created.push(...created.map((c) => c.id));
      acc.launched.push(...launch.launched);
      acc.failed.push(...launch.failed);
      for (const m of launch.marked) acc.marked.add(m);
      acc.nominations.push(...nominations.all);
      acc.onNodes += nominations.onNodes;
      acc.onInFlight += nominations.onInFlight;
      acc.schedulingMs += schedulingMs;
      acc.incomplete ||= launch.incomplete;
    },
  };
  return acc;
}

/** The refs of the pods `ids` among the run's pending pods. */
function refsOf(ids: readonly string[], podsById: ReadonlyMap<string, Pod>): PodRefDetail[] {
  return ids.flatMap((id) => {
    const pod = podsById.get(id);
    const uid = pod?.metadata.uid;
    return pod && uid
      ? [{ namespace: pod.metadata.namespace ?? 'default', name: pod.metadata.name, uid }]
      : [];
  });
}

/** The nodeclaim each pod was nominated to (pods nominated to an existing node are left out). */
function claimOfPod(nominations: readonly Nomination[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const n of nominations) {
    const uid = n.pod.metadata.uid;
    if (uid && n.target.startsWith('nodeclaim/')) out[uid] = n.target.slice('nodeclaim/'.length);
  }
  return out;
}

function logCreated(deps: ProvisionDeps, claim: NodeClaim): void {
  const types = [...new Set(claim.options.map((o) => o.instanceType))];
  const shown = types.slice(0, 5).join(', ') + (types.length > 5 ? ` and ${types.length - 5} other(s)` : '');
  deps.log.info('created nodeclaim', {
    nodeclaim: claim.id,
    nodepool: claim.nodePool,
    pods: claim.pods.length,
    requests: claim.requests,
    'instance-types': shown,
  });
}

function emptyResult(hints: number): ProvisionResult {
  return {
    deferred: false,
    incomplete: false,
    hints,
    staleHints: 0,
    pendingPods: 0,
    oldestPendingPodAgeMs: 0,
    waitingForInFlight: 0,
    created: [],
    launched: [],
    failed: [],
    resumed: [],
    cancelled: [],
    nominated: 0,
    placedOnExisting: 0,
    placedOnInFlight: 0,
    claimOfPod: {},
    unschedulable: [],
    markedUnavailable: [],
    invalidDocuments: 0,
    schedulingMs: 0,
    totalMs: 0,
  };
}
