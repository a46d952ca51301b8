import type { NodeClass } from '../model/node-class.js';
import type { NodePool } from '../model/node-pool.js';
import type { LaunchedInstance, NodeClaim, NodeClaimOption } from '../nodeclaim/nodeclaim.js';
import { isLaunchedOn, transition } from '../nodeclaim/state-machine.js';
import type { Clock } from '../ports/clock.js';
import type { CloudInstance, CloudProvider } from '../ports/cloud-provider.js';
import { ConflictError, type OfferingKey, type StateStore } from '../ports/state-store.js';
import { classifyFleetErrors } from './fleet-errors.js';
import type { InstanceFacts } from './launch-context.js';
import { LAUNCH_NOT_AUTHORIZED, launchDenial } from './launch-denial.js';
import {
  type AttemptOptions,
  attemptRecord,
  clientToken,
  minValuesMissed,
  nextAttemptOptions,
  offeringKey,
  recordedAttempt,
} from './launch-options.js';

/** The ports a launch uses. */
export interface LaunchDeps {
  readonly cloud: CloudProvider;
  readonly store: StateStore;
  readonly clock: Clock;
}

/** The configuration a claim is launched with. */
export interface LaunchConfig {
  readonly nodePool: NodePool;
  readonly nodeClass: NodeClass;
  readonly instanceFacts: (instanceType: string) => InstanceFacts | undefined;
  /** CreateFleet attempts per call before giving up (default 6). */
  readonly maxAttempts?: number;
  /**
   * The offerings marked unavailable as the caller read them moments ago: the first new attempt
   * goes by them instead of reading the store again (later attempts always read it).
   */
  readonly unavailable?: readonly OfferingKey[];
  /**
   * The NodePool limits at launch: new attempts send only the options it allows, and a claim left
   * with none fails (`LimitExceeded`) instead of launching past its pool's limits.
   */
  /**
   * The fencing token of the provisioning lease the launch runs under: every write of the launch
   * carries it, and the store refuses a write whose token is older than the stored claim's (a run
   * that lost its lease cannot write, nor then launch, a claim a newer lease holder has written).
   */
  readonly leaseToken?: number;
  readonly limits?: {
    readonly allows: (option: NodeClaimOption) => boolean;
    readonly reason: string;
  };
}

/**
 * A launch EC2 refused because the instance profile is not visible to it yet (IAM is eventually
 * consistent): the claim stays Pending and the next run launches it again.
 */
export class InstanceProfileNotReadyError extends Error {
  constructor(nodeClaimId: string, errors: readonly { code: string; message: string }[]) {
    super(
      `nodeclaim ${nodeClaimId}: EC2 does not know the instance profile yet (IAM propagation), the launch is retried: ${errors
        .map((e) => `${e.code}: ${e.message}`)
        .join('; ')}`,
    );
    this.name = 'InstanceProfileNotReadyError';
  }
}

/** How a launch ended. */
export type LaunchResult =
  | {
      readonly outcome: 'launched';
      readonly claim: NodeClaim;
      readonly adopted: boolean;
      readonly marked: readonly OfferingKey[];
    }
  | {
      readonly outcome: 'failed';
      readonly claim: NodeClaim;
      readonly reason: string;
      readonly marked: readonly OfferingKey[];
    }
  | { readonly outcome: 'skipped'; readonly reason: string };

/**
 * Launches a Pending nodeclaim: adopts an instance a crashed earlier attempt left (found by its
 * nodeclaim tag), else replays that attempt with its ClientToken (it may still be in flight or its
 * instance not yet visible: EC2 answers a replay with the instance it launched, if any), then makes
 * new CreateFleet attempts — each first recorded on the claim with a version-checked write, so two
 * invocations never launch the same claim — marking offerings unavailable on capacity errors and
 * retrying with what remains (spot, then on-demand). Ends with the claim Launched, or Gone with a
 * failure (its pods are planned again). A lost version race is `skipped`; unexpected errors (e.g.
 * throttling beyond retries) propagate with the claim Pending.
 */
export async function launchNodeClaim(
  deps: LaunchDeps,
  config: LaunchConfig,
  claim: NodeClaim,
): Promise<LaunchResult> {
  if (claim.state !== 'Pending')
    return { outcome: 'skipped', reason: `nodeclaim ${claim.id} is ${claim.state}` };
  const marked: OfferingKey[] = [];
  if (config.leaseToken !== undefined) {
    if ((claim.leaseToken ?? 0) > config.leaseToken)
      return {
        outcome: 'skipped',
        reason: `nodeclaim ${claim.id} belongs to a newer provisioning lease (${claim.leaseToken} > ${config.leaseToken})`,
      };
    claim = { ...claim, leaseToken: config.leaseToken };
  }
  try {
    if (claim.launchAttempts > 0) {
      const existing = await deps.cloud.findByNodeClaim(claim.id);
      if (existing)
        return {
          outcome: 'launched',
          claim: await markLaunched(deps, claim, withTypeLabels(fromCloud(existing, claim), config)),
          adopted: true,
          marked,
        };
    }
    if (config.limits) {
      const allows = config.limits.allows;
      const within = claim.options.filter((o) => allows(o));
      if (within.length === 0) return fail(deps, claim, 'LimitExceeded', config.limits.reason, marked);
      if (within.length < claim.options.length) claim = { ...claim, options: within };
    }
    if (claim.launchAttempts > 0) {
      // A recorded attempt with an option the limits no longer allow is not replayed.
      const replay = recordedAttempt(claim);
      const replayed = replay && (await attempt(deps, config, claim, replay, marked));
      if (replayed) return replayed;
    }
    const maxAttempts = config.maxAttempts ?? 6;
    for (let n = 0; n < maxAttempts; n++) {
      const known =
        n === 0 && config.unavailable
          ? config.unavailable
          : await deps.store.listUnavailableOfferings(deps.clock.now());
      const unavailable = [...known, ...marked];
      const next = nextAttemptOptions(claim.options, unavailable, claim.requirements);
      if (!next) return fail(deps, claim, ...noAttempt(claim, unavailable), marked);
      claim = await deps.store.updateNodeClaim({
        ...claim,
        launchAttempts: claim.launchAttempts + 1,
        lastAttempt: attemptRecord(next),
      });
      const result = await attempt(deps, config, claim, next, marked);
      if (result) return result;
    }
    return fail(deps, claim, 'LaunchFailed', `no instance after ${maxAttempts} attempts`, marked);
  } catch (error) {
    if (error instanceof ConflictError) return { outcome: 'skipped', reason: error.message };
    throw error;
  }
}

/**
 * Sends the claim's current attempt (ClientToken of `claim.launchAttempts`) and marks the
 * offerings it found without capacity (also in `marked`). The launch's result when it launched or
 * failed for good; undefined when capacity errors leave other options to try.
 */
async function attempt(
  deps: LaunchDeps,
  config: LaunchConfig,
  claim: NodeClaim,
  options: AttemptOptions,
  marked: OfferingKey[],
): Promise<LaunchResult | undefined> {
  const outcome = await deps.cloud.launch({
    claim,
    nodePool: config.nodePool,
    nodeClass: config.nodeClass,
    options: options.options,
    capacityType: options.capacityType,
    clientToken: clientToken(claim.launchToken, claim.launchAttempts),
    instanceFacts: config.instanceFacts,
  });
  const classified = classifyFleetErrors(outcome.errors, options.options);
  await markUnavailable(deps, classified.unavailable);
  marked.push(...classified.unavailable.map((u) => u.offering));
  if (outcome.ok) {
    const instance = withTypeLabels(withPlannedPrice(outcome.instance, claim), config);
    return { outcome: 'launched', claim: await markLaunched(deps, claim, instance), adopted: false, marked };
  }
  if (classified.unavailable.length > 0) return undefined;
  if (classified.fatal.length === 0 && classified.retryable.length > 0) {
    // The request was answered, so a resumed launch need not replay it (EC2 would answer the
    // same ClientToken with the same error): it makes a new attempt once the profile is visible.
    await deps.store.updateNodeClaim({ ...claim, lastAttempt: undefined });
    throw new InstanceProfileNotReadyError(claim.id, classified.retryable);
  }
  // A refused permission fails the claim naming it (the NodePool condition and event repeat it).
  const denials = classified.fatal.flatMap((e) => launchDenial(e.code, e.message) ?? []);
  if (denials.length > 0) {
    const message = [...new Set(denials.map((d) => d.summary))].join('; ');
    return fail(deps, claim, LAUNCH_NOT_AUTHORIZED, message, marked);
  }
  const message =
    classified.fatal.map((e) => `${e.code}: ${e.message}`).join('; ') || 'CreateFleet returned no instance';
  return fail(deps, claim, 'LaunchFailed', message, marked);
}

/** Why no attempt is left: nothing available, or what is available misses a `minValues` requirement. */
function noAttempt(claim: NodeClaim, unavailable: readonly OfferingKey[]): [string, string] {
  const blocked = new Set(unavailable.map(offeringKey));
  const open = claim.options.filter((o) => !blocked.has(offeringKey(o)));
  if (open.length === 0) return ['NoCapacity', 'every option of the claim is unavailable'];
  const first = open[0].capacityType;
  const why = minValuesMissed(
    open.filter((o) => o.capacityType === first),
    claim.requirements,
  );
  return ['MinValuesNotMet', why ?? 'the options left do not meet the requirements'];
}

async function markUnavailable(
  deps: LaunchDeps,
  marks: readonly { offering: OfferingKey; reason: string }[],
): Promise<void> {
  const byReason = new Map<string, OfferingKey[]>();
  for (const m of marks) byReason.set(m.reason, [...(byReason.get(m.reason) ?? []), m.offering]);
  for (const [reason, offerings] of byReason)
    await deps.store.markOfferingsUnavailable(offerings, reason, deps.clock.now());
}

/** The instance with its type's labels (see {@link LaunchedInstance.labels}), when the config knows the type. */
function withTypeLabels(instance: LaunchedInstance, config: LaunchConfig): LaunchedInstance {
  const labels = config.instanceFacts(instance.instanceType)?.labels;
  return labels === undefined ? instance : { ...instance, labels: { ...labels } };
}

async function markLaunched(
  deps: LaunchDeps,
  claim: NodeClaim,
  instance: LaunchedInstance,
): Promise<NodeClaim> {
  return deps.store.updateNodeClaim(transition(claim, 'Launched', deps.clock.now(), { instance }));
}

async function fail(
  deps: LaunchDeps,
  claim: NodeClaim,
  reason: string,
  message: string,
  marked: readonly OfferingKey[],
): Promise<LaunchResult> {
  const gone = await deps.store.updateNodeClaim(
    transition(claim, 'Gone', deps.clock.now(), { failure: { reason, message } }),
  );
  return { outcome: 'failed', claim: gone, reason: `${reason}: ${message}`, marked };
}

/**
 * The planned price of the offering an instance runs on, when the launch did not report one, and
 * for a reserved instance its reservation's type and end (the launch names the reservation).
 */
function withPlannedPrice<
  T extends OfferingKey & { readonly price?: number; readonly reservationId?: string },
>(instance: T, claim: NodeClaim): T {
  const option = claim.options.find((o) => isLaunchedOn(o, instance));
  if (!option) return instance;
  return {
    ...instance,
    ...(instance.price === undefined
      ? { price: option.price, ...(option.priceOverlaid ? { priceOverlaid: true } : {}) }
      : {}),
    ...(option.reservationId === undefined
      ? {}
      : {
          reservationId: option.reservationId,
          reservationType: option.reservationType ?? 'default',
          ...(option.reservationEndTime === undefined
            ? {}
            : { reservationEndTime: option.reservationEndTime }),
        }),
  };
}

/** The launched instance of `claim` as EC2 describes it (adoption of an instance found by its tag). */
export function fromCloud(instance: CloudInstance, claim: NodeClaim): LaunchedInstance {
  return withPlannedPrice(
    {
      instanceId: instance.instanceId,
      instanceType: instance.instanceType,
      zone: instance.zone,
      capacityType: instance.capacityType,
      ...(instance.reservationId ? { reservationId: instance.reservationId } : {}),
      ...(instance.imageId ? { imageId: instance.imageId } : {}),
      providerId: `aws:///${instance.zone}/${instance.instanceId}`,
    },
    claim,
  );
}
