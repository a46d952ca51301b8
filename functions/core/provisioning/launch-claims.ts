/**
 * Launches nodeclaims in parallel with {@link launchNodeClaim}, retries a launch that threw (e.g.
 * throttling beyond the SDK's retries) within the run, and arms each claim's next timer with a
 * precise wake-up.
 */
import { variantOfLabels } from '../launch/ami-variant.js';
import type { InstanceFacts } from '../launch/launch-context.js';
import { type LaunchConfig, type LaunchResult, launchNodeClaim } from '../launch/launch-nodeclaim.js';
import { EFA } from '../model/resources.js';
import type { NodeClaim } from '../nodeclaim/nodeclaim.js';
import { nextTimer } from '../nodeclaim/state-machine.js';
import type { Clock } from '../ports/clock.js';
import { type CloudProvider, CloudThrottledError } from '../ports/cloud-provider.js';
import type { TimerScheduler } from '../ports/event-publisher.js';
import type { Log } from '../ports/log.js';
import type { OfferingKey, StateStore } from '../ports/state-store.js';
import type { SchedulingPool } from '../scheduling/types.js';
import type { LaunchLimits } from './launch-limits.js';
import { type LaunchFence, LaunchStopped } from './provisioning-lease.js';
import type { FailedClaimResult, LaunchedClaimResult } from './types.js';

/** The ports launching uses. */
export interface LaunchClaimsDeps {
  readonly cloud: CloudProvider;
  readonly store: StateStore;
  readonly timers: TimerScheduler;
  readonly clock: Clock;
  readonly log: Log;
  readonly sleep: (ms: number) => Promise<void>;
  /** Checked before every CreateFleet: a run that lost its lease or time starts none. */
  readonly fence?: Pick<LaunchFence, 'check'>;
}

/** What launching a set of claims gave. */
export interface LaunchClaimsOutcome {
  readonly launched: LaunchedClaimResult[];
  readonly failed: FailedClaimResult[];
  /** Offerings marked unavailable, as `type/zone/capacity-type`. */
  readonly marked: string[];
  /** True when a launch ended with an error and its claim is still Pending (retry the batch). */
  readonly incomplete: boolean;
  /** Claims left Pending because the fence stopped their launch (the next run resumes them). */
  readonly stopped: string[];
  /**
   * Claims left Pending because the cloud throttled their launch past the client's retries (also
   * in `stopped`): neither failed nor out of capacity, the next run resumes them.
   */
  readonly throttled: string[];
}

/** Tries per claim when the launch throws (it resumes idempotently: adoption, then new attempts). */
const LAUNCH_TRIES = 3;

/**
 * The architecture, AMI variant, max pods and EFA interfaces of each instance type of a pool (from
 * its resolved types).
 */
export function instanceFactsOf(sp: SchedulingPool): (type: string) => InstanceFacts | undefined {
  const byName = new Map(sp.instanceTypes.map((t) => [t.name, t]));
  return (type) => {
    const t = byName.get(type);
    if (!t) return undefined;
    return {
      arch: t.labels['kubernetes.io/arch'] === 'arm64' ? 'arm64' : 'amd64',
      variant: variantOfLabels(t.labels),
      maxPods: t.allocatable.pods ?? 110,
      ...(t.capacity[EFA] ? { efaInterfaces: t.capacity[EFA] } : {}),
      labels: t.labels,
    };
  };
}

/** The pool, NodeClass and instance facts a claim launches with; undefined when its pool is gone. */
export function launchConfigOf(claim: NodeClaim, pools: readonly SchedulingPool[]): LaunchConfig | undefined {
  const sp = pools.find((p) => p.pool.name === claim.nodePool);
  if (!sp?.nodeClass) return undefined;
  return { nodePool: sp.pool, nodeClass: sp.nodeClass, instanceFacts: instanceFactsOf(sp) };
}

/** How a set of claims is launched. */
export interface LaunchClaimsOptions {
  /** CreateFleet attempts per claim (see {@link LaunchConfig}). */
  readonly maxAttempts?: number;
  /**
   * Resolves when the cloud is prepared for these claims ({@link prepareLaunch}): their
   * CreateFleet waits for it, while their attempt is being recorded.
   */
  readonly prepared?: Promise<void>;
  /** The offerings the run read as unavailable: the claims' first new attempt goes by them. */
  readonly unavailable?: readonly OfferingKey[];
  /** The fencing token of the run's provisioning lease (see {@link LaunchConfig.leaseToken}). */
  readonly leaseToken?: number;
  /** The NodePool limits a claim launches under (see {@link LaunchConfig.limits}). */
  readonly limits?: (claim: NodeClaim) => LaunchLimits | undefined;
}

/** Launches `claims` (Pending) in parallel. */
export async function launchClaims(
  deps: LaunchClaimsDeps,
  claims: readonly NodeClaim[],
  pools: readonly SchedulingPool[],
  options: LaunchClaimsOptions = {},
): Promise<LaunchClaimsOutcome> {
  const guarded = { ...deps, cloud: guardedCloud(deps, options.prepared) };
  const settled = await Promise.all(claims.map((c) => launchOne(guarded, c, pools, options)));
  return mergeOutcomes(
    settled.map((s) => ({
      launched: s.launched ? [s.launched] : [],
      failed: s.failed ? [s.failed] : [],
      marked: s.marked,
      incomplete: s.incomplete,
      stopped: s.stopped ? [s.stopped] : [],
      throttled: s.throttled && s.stopped ? [s.stopped] : [],
    })),
  );
}

/** One outcome for the claims of several launches. */
export function mergeOutcomes(outcomes: readonly LaunchClaimsOutcome[]): LaunchClaimsOutcome {
  return {
    launched: outcomes.flatMap((o) => o.launched),
    failed: outcomes.flatMap((o) => o.failed),
    marked: outcomes.flatMap((o) => o.marked),
    incomplete: outcomes.some((o) => o.incomplete),
    stopped: outcomes.flatMap((o) => o.stopped),
    throttled: outcomes.flatMap((o) => o.throttled),
  };
}

/**
 * The cloud whose launches wait for `prepared`, then for the fence: once before the launch is
 * handed to the cloud, and again when the cloud is about to start it (a launch may wait its turn
 * in the cloud's pacing long after the first check, while the run's time runs out).
 */
function guardedCloud(deps: LaunchClaimsDeps, prepared: Promise<void> | undefined): CloudProvider {
  const { cloud, fence } = deps;
  if (!fence && !prepared) return cloud;
  return {
    launch: async (input) => {
      await prepared;
      if (!fence) return cloud.launch(input);
      await fence.check();
      return cloud.launch({ ...input, beforeStart: () => fence.check() });
    },
    terminate: (ids) => cloud.terminate(ids),
    get: (id) => cloud.get(id),
    findByNodeClaim: (id) => cloud.findByNodeClaim(id),
    list: () => cloud.list(),
  };
}

interface OneOutcome {
  launched?: LaunchedClaimResult;
  failed?: FailedClaimResult;
  stopped?: string;
  /** Stopped because the cloud throttled the launch. */
  throttled?: boolean;
  marked: string[];
  incomplete: boolean;
}

async function launchOne(
  deps: LaunchClaimsDeps,
  claim: NodeClaim,
  pools: readonly SchedulingPool[],
  options: LaunchClaimsOptions,
): Promise<OneOutcome> {
  const found = launchConfigOf(claim, pools);
  if (!found) {
    const reason = `nodepool ${claim.nodePool} or its NodeClass is gone`;
    deps.log.error('cannot launch nodeclaim', { nodeclaim: claim.id, reason });
    return { failed: { nodeClaim: claim.id, reason }, marked: [], incomplete: false };
  }
  const config: LaunchConfig = {
    ...found,
    maxAttempts: options.maxAttempts,
    ...(options.unavailable ? { unavailable: options.unavailable } : {}),
    limits: options.limits?.(claim),
    ...(options.leaseToken === undefined ? {} : { leaseToken: options.leaseToken }),
  };
  let current = claim;
  for (let attempt = 1; ; attempt++) {
    try {
      const result = await launchNodeClaim(deps, config, current);
      return await finish(deps, result, current);
    } catch (error) {
      const message = (error as Error).message;
      if (error instanceof LaunchStopped) {
        deps.log.warn('nodeclaim stays pending for the next run', { nodeclaim: claim.id, reason: message });
        return { stopped: claim.id, marked: [], incomplete: true };
      }
      if (error instanceof CloudThrottledError) {
        // Not a failure and not a lack of capacity: the claim keeps its pods and its recorded
        // attempt (replayed with the same ClientToken, so nothing launches twice).
        deps.log.warn('EC2 throttled the launch, the nodeclaim stays pending for the next run', {
          nodeclaim: claim.id,
          error: message,
        });
        const reread = await deps.store.getNodeClaim(claim.id).catch(() => undefined);
        await armTimer(deps, reread ?? current);
        return { stopped: claim.id, throttled: true, marked: [], incomplete: true };
      }
      const reread = await deps.store.getNodeClaim(claim.id).catch(() => undefined);
      if (attempt >= LAUNCH_TRIES || !reread || reread.state !== 'Pending') {
        deps.log.error('failed launching nodeclaim, it stays pending for the next run', {
          nodeclaim: claim.id,
          error: message,
        });
        await armTimer(deps, reread ?? current);
        return { failed: { nodeClaim: claim.id, reason: message }, marked: [], incomplete: true };
      }
      deps.log.warn('retrying nodeclaim launch', { nodeclaim: claim.id, error: message, attempt });
      await deps.sleep(200 * 2 ** attempt);
      current = reread;
    }
  }
}

async function finish(deps: LaunchClaimsDeps, result: LaunchResult, claim: NodeClaim): Promise<OneOutcome> {
  if (result.outcome === 'skipped') {
    deps.log.info('nodeclaim launch left to another run', { nodeclaim: claim.id, reason: result.reason });
    return { marked: [], incomplete: false };
  }
  const marked = result.marked.map(offeringName);
  if (marked.length > 0) {
    deps.log.warn('marked offering(s) unavailable, launching with the remaining options', {
      nodeclaim: claim.id,
      offerings: marked,
    });
  }
  if (result.outcome === 'failed') {
    deps.log.error('failed launching nodeclaim', { nodeclaim: claim.id, reason: result.reason });
    const failure = result.claim.failure;
    return {
      failed: {
        nodeClaim: claim.id,
        reason: result.reason,
        nodePool: claim.nodePool,
        ...(failure ? { failure: { reason: failure.reason, message: failure.message } } : {}),
      },
      marked,
      incomplete: false,
    };
  }
  const launched = launchedResult(result.claim, result.adopted);
  deps.log.info(result.adopted ? 'adopted instance of nodeclaim' : 'launched nodeclaim', {
    nodeclaim: launched.nodeClaim,
    nodepool: launched.nodePool,
    'provider-id': result.claim.instance?.providerId,
    'instance-id': launched.instanceId,
    'instance-type': launched.instanceType,
    zone: launched.zone,
    'capacity-type': launched.capacityType,
    price: launched.price,
    ...(result.claim.instance?.priceOverlaid ? { 'price-overlaid': true } : {}),
  });
  await armTimer(deps, result.claim);
  return { launched, marked, incomplete: false };
}

function launchedResult(claim: NodeClaim, adopted: boolean): LaunchedClaimResult {
  const i = claim.instance;
  return {
    nodeClaim: claim.id,
    nodePool: claim.nodePool,
    instanceId: i?.instanceId ?? '',
    instanceType: i?.instanceType ?? '',
    zone: i?.zone ?? '',
    capacityType: i?.capacityType ?? '',
    ...(i?.price === undefined ? {} : { price: i.price }),
    pods: claim.pods.length,
    adopted,
  };
}

/** Schedules the precise wake-up of the claim's next timer; the sweep covers a lost one. */
async function armTimer(deps: LaunchClaimsDeps, claim: NodeClaim): Promise<void> {
  const next = nextTimer(claim);
  if (!next) return;
  try {
    await deps.timers.schedule(claim.id, next.dueAt);
  } catch (error) {
    deps.log.warn('could not schedule the nodeclaim timer, the sweep will catch it', {
      nodeclaim: claim.id,
      timer: next.kind,
      error: (error as Error).message,
    });
  }
}

function offeringName(o: OfferingKey): string {
  return `${o.instanceType}/${o.zone}/${o.capacityType}`;
}
