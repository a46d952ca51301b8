/**
 * The provisioning run: re-reads pending pods and the cluster, plans with the scheduler, writes
 * the new nodeclaims and launches them, and tells each pod where it should go.
 */
import { randomUUID } from 'node:crypto';
import type { PodRefDetail } from '../events/joiner-events.js';
import type { NodeClaim } from '../nodeclaim/nodeclaim.js';
import { DEFAULT_TIMEOUTS } from '../nodeclaim/state-machine.js';
import { readClusterSnapshot } from './cluster-snapshot.js';
import { IN_FLIGHT_STATES } from './in-flight.js';
import { launchClaims } from './launch-claims.js';
import { logPlan, nominationsOf, reportEvents } from './nominations.js';
import { planRun } from './plan-run.js';
import { acquireProvisioningLease, releaseProvisioningLease } from './provisioning-lease.js';
import { claimsToResume } from './resume-claims.js';
import type { ProvisionDeps, ProvisionInput, ProvisionOptions, ProvisionResult } from './types.js';
import { writeClaim } from './write-claims.js';

type Settings = Required<Omit<ProvisionOptions, 'maxLaunchAttempts'>> &
  Pick<ProvisionOptions, 'maxLaunchAttempts'>;

function settingsOf(options: ProvisionOptions = {}): Settings {
  return {
    holder: options.holder ?? randomUUID(),
    leaseTtlMs: options.leaseTtlMs ?? 70_000,
    leaseWaitMs: options.leaseWaitMs ?? 20_000,
    leaseRetryMs: options.leaseRetryMs ?? 250,
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
  const started = performance.now();
  const settings = settingsOf(input.options);
  const hints = dedupeHints(input.hints);
  const sleep = deps.sleep ?? realSleep;
  const lease = await acquireProvisioningLease(
    { ...deps, sleep },
    {
      holder: settings.holder,
      ttlMs: settings.leaseTtlMs,
      waitMs: settings.leaseWaitMs,
      retryMs: settings.leaseRetryMs,
    },
  );
  if (!lease) {
    deps.log.warn('another provisioning run holds the lease, deferring', { pods: hints.length });
    return { ...emptyResult(hints.length), deferred: true, totalMs: performance.now() - started };
  }
  try {
    return await run(deps, hints, settings, sleep, started);
  } finally {
    await releaseProvisioningLease(deps, lease);
  }
}

async function run(
  deps: ProvisionDeps,
  hints: readonly PodRefDetail[],
  settings: Settings,
  sleep: (ms: number) => Promise<void>,
  started: number,
): Promise<ProvisionResult> {
  const [snapshot, claims, unavailable] = await Promise.all([
    readClusterSnapshot(deps.cluster, deps.log),
    deps.store.listNodeClaims(IN_FLIGHT_STATES),
    deps.store.listUnavailableOfferings(deps.clock.now()),
  ]);
  const planned = planRun(snapshot, claims, unavailable, deps.catalog);
  const pendingUids = new Set(planned.pending.map((p) => p.metadata.uid));
  const staleHints = hints.filter((h) => !pendingUids.has(h.uid)).length;
  if (planned.pending.length > 0 || staleHints > 0) {
    deps.log.info(`found ${planned.pending.length} provisionable pod(s)`, {
      pods: planned.pending.length,
      'waiting-for-in-flight': planned.waiting.size,
      'stale-hints': staleHints,
    });
  }
  const resumed = await claimsToResume(deps, planned.inFlight, planned.pending);
  logPlan(deps.log, planned);
  const written = await Promise.all(
    planned.plan.nodeClaims.map((c) =>
      writeClaim(deps, c, planned.pools, planned.podsById, settings.timeouts),
    ),
  );
  const created: NodeClaim[] = [];
  for (const w of written) if (w.status === 'created') created.push(w.claim);
  for (const claim of created) logCreated(deps, claim);
  const launch = await launchClaims(
    { ...deps, sleep },
    [...resumed.resume, ...created],
    planned.pools,
    settings.maxLaunchAttempts,
  );
  const nominations = nominationsOf(planned, created);
  await reportEvents(deps.cluster, planned, nominations.all);
  const totalMs = performance.now() - started;
  const result: ProvisionResult = {
    ...emptyResult(hints.length),
    staleHints,
    pendingPods: planned.pending.length,
    waitingForInFlight: planned.waiting.size,
    created: created.map((c) => c.id),
    launched: launch.launched,
    failed: launch.failed,
    incomplete: launch.incomplete,
    resumed: resumed.resume.map((c) => c.id),
    cancelled: resumed.cancelled,
    nominated: nominations.all.length,
    placedOnExisting: nominations.onNodes,
    placedOnInFlight: nominations.onInFlight,
    unschedulable: planned.plan.unschedulable.map((u) => ({ pod: u.pod, reason: u.reason })),
    markedUnavailable: launch.marked,
    invalidDocuments: snapshot.invalidDocuments,
    schedulingMs: planned.schedulingMs,
    totalMs,
  };
  return result;
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
    waitingForInFlight: 0,
    created: [],
    launched: [],
    failed: [],
    resumed: [],
    cancelled: [],
    nominated: 0,
    placedOnExisting: 0,
    placedOnInFlight: 0,
    unschedulable: [],
    markedUnavailable: [],
    invalidDocuments: 0,
    schedulingMs: 0,
    totalMs: 0,
  };
}
