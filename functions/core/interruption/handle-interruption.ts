/**
 * Acts on an interruption notice. Spot interruption warnings and instances stopping start the
 * same drain every disruption uses (disruption/drain-step.ts), forceful: replacement capacity
 * first, evictions respecting PDBs, and the instance terminated by the 2-minute deadline at the
 * latest; the offering is marked unavailable. An AWS Health scheduled change drains the node on
 * arrival, as Karpenter does (cordon and drain, replacement first), whatever the change's start
 * time: waiting for the start would leave the drain no time before the maintenance. (A claim whose
 * interruption timer an earlier release armed still drains when it fires: disruption/decide.ts.)
 * Instances already shutting down or terminated: retire the claim and delete the node; one that
 * never registered is retired with the launch failure its state reason tells, if any
 * (lifecycle/launch-terminated.ts). A claim
 * whose node never registered is retired at once; one still `Launched` whose node has registered
 * (the registration event lost) is registered on it first and drained. Rebalance recommendations: log and an event
 * only. An instance of this table whose claim record is missing is adopted before a notice that
 * drains it (adopt-interrupted.ts); other instances joiner does not know are ignored.
 */
import { type BeginDrainDeps, beginDrain } from '../disruption/begin-drain.js';
import { disruptionSettings } from '../disruption/disruption-deps.js';
import { type LaunchTerminatedDeps, retireLaunchTerminated } from '../lifecycle/launch-terminated.js';
import type { RetireDeps } from '../lifecycle/retire-claim.js';
import { retireClaim } from '../lifecycle/retire-claim.js';
import { updateClaim } from '../lifecycle/update-claim.js';
import type { NodeClaim, NodeClaimFailure } from '../nodeclaim/nodeclaim.js';
import { transition } from '../nodeclaim/state-machine.js';
import type { CloudProvider } from '../ports/cloud-provider.js';
import type { ClusterApi } from '../ports/cluster-api.js';
import type { StateStore } from '../ports/state-store.js';
import { adoptInterrupted, nodeOf } from './adopt-interrupted.js';
import type { InterruptionNotice } from './interruption-notice.js';

/** What the interruption core needs. */
export interface InterruptionDeps extends RetireDeps, Omit<BeginDrainDeps, 'store' | 'cluster'> {
  readonly cluster: LaunchTerminatedDeps['cluster'] &
    BeginDrainDeps['cluster'] &
    Pick<ClusterApi, 'getNode' | 'listNodes'>;
  readonly store: RetireDeps['store'] &
    BeginDrainDeps['store'] &
    Pick<
      StateStore,
      'findNodeClaimByInstanceId' | 'markOfferingsUnavailable' | 'createNodeClaim' | 'listNodeClaims'
    >;
  /** joiner's bus: wakes the provisioner after a launch lost its capacity (relaunch-hint.ts). */
  readonly events?: LaunchTerminatedDeps['events'];
  /** Reads instances joiner has no claim of (adopt-interrupted.ts). */
  readonly cloud: RetireDeps['cloud'] & Pick<CloudProvider, 'get'>;
  /** The identity this joiner tags its instances with (its state table's name); unknown: none is adopted. */
  readonly owner?: string;
}

/** What was done about one notice. */
export type InterruptionOutcome = 'ignored' | 'noted' | 'draining' | 'cleaned-up';

const LIVE = ['Launched', 'Registered', 'Initialized', 'Draining', 'Terminating'] as const;
const DRAINABLE = ['Registered', 'Initialized', 'Draining'];

const FAILURES: Record<Exclude<InterruptionNotice['kind'], 'rebalance'>, NodeClaimFailure> = {
  'spot-interruption': {
    reason: 'SpotInterrupted',
    message: 'spot instance interruption warning: the node is drained before the 2-minute deadline',
  },
  'scheduled-change': {
    reason: 'InstanceScheduledChange',
    message: 'AWS Health scheduled change: the node is drained',
  },
  'state-change': { reason: 'InstanceStopped', message: 'the instance is stopping or terminating' },
};

/** Handles one notice (see the file comment). Idempotent: a repeated notice finds the claim Gone. */
export async function handleInterruption(
  deps: InterruptionDeps,
  notice: InterruptionNotice,
): Promise<InterruptionOutcome> {
  const known = await deps.store.findNodeClaimByInstanceId(notice.instanceId);
  let claim =
    known && (LIVE as readonly string[]).includes(known.state)
      ? known
      : drains(notice)
        ? ((await adoptInterrupted(deps, notice.instanceId)) ?? known)
        : known;
  const fields = {
    instance: notice.instanceId,
    kind: notice.kind,
    state: notice.state,
    nodeclaim: claim?.id,
  };
  if (!claim || !(LIVE as readonly string[]).includes(claim.state)) {
    deps.log.debug('interruption for an instance joiner does not run, ignored', fields);
    return 'ignored';
  }
  if (notice.kind === 'rebalance') {
    deps.log.info('instance received a rebalance recommendation', { ...fields, node: claim.nodeName });
    await nodeEvent(
      deps,
      claim,
      'Normal',
      'RebalanceRecommendation',
      'EC2 recommends rebalancing this spot instance',
    );
    return 'noted';
  }
  const failure = FAILURES[notice.kind];
  if (notice.kind === 'state-change' && notice.state !== 'stopping') {
    // An instance that never registered: EC2's state reason tells whether its launch failed.
    if (claim.state === 'Launched' && (await retireLaunchTerminated(deps, claim))) return 'cleaned-up';
    deps.log.info('instance is going away, cleaning up its nodeclaim', { ...fields, node: claim.nodeName });
    const gone = notice.state === 'terminated' || notice.state === 'shutting-down';
    await retireClaim(deps, claim.id, failure, { instanceGone: gone, from: [...LIVE] });
    return 'cleaned-up';
  }
  const now = deps.clock.now();
  const startsAt =
    notice.kind === 'scheduled-change' && notice.startsAt !== undefined
      ? ` (the change starts at ${new Date(notice.startsAt).toISOString()})`
      : '';
  if (notice.kind === 'spot-interruption') await markUnavailable(deps, claim);
  await nodeEvent(deps, claim, 'Warning', failure.reason, `${failure.message}${startsAt}`);
  if (claim.state === 'Launched') claim = (await registerLate(deps, claim)) ?? claim;
  if (!DRAINABLE.includes(claim.state)) {
    deps.log.info('interrupted instance has no node yet, retiring its nodeclaim', fields);
    await retireClaim(deps, claim.id, failure, { from: [...LIVE] });
    return 'cleaned-up';
  }
  deps.log.info('interruption: draining node', {
    ...fields,
    node: claim.nodeName,
    ...(notice.startsAt === undefined ? {} : { 'change-starts-at': new Date(notice.startsAt).toISOString() }),
  });
  const { spotDeadlineMs, spotEvictionLeadMs } = disruptionSettings(deps);
  const deadlines =
    notice.kind === 'spot-interruption'
      ? { forceAt: now + spotDeadlineMs, replaceBy: now + spotDeadlineMs - spotEvictionLeadMs }
      : {};
  await beginDrain(
    deps,
    claim.id,
    {
      cause: 'interrupted',
      message: failure.message,
      reason: failure.reason,
      forceful: true,
      ...deadlines,
    },
    claim,
  );
  return 'draining';
}

/**
 * A `Launched` claim whose node has registered (its registration event was lost or not yet
 * handled) is registered on it now, so the notice drains the node rather than terminating an
 * instance that runs pods. Returns the claim as stored, or undefined when it has no node.
 */
async function registerLate(deps: InterruptionDeps, claim: NodeClaim): Promise<NodeClaim | undefined> {
  const instanceId = claim.instance?.instanceId;
  if (!instanceId) return undefined;
  const node = await nodeOf(deps, instanceId, undefined);
  if (!node) return undefined;
  const stored = await updateClaim(deps.store, claim.id, (c) =>
    c.state === 'Launched'
      ? transition(c, 'Registered', deps.clock.now(), { nodeName: node.metadata.name })
      : undefined,
  );
  if (stored?.state === 'Registered')
    deps.log.info(
      'interrupted instance registered its node meanwhile: its nodeclaim is registered to drain it',
      {
        nodeclaim: claim.id,
        instance: instanceId,
        node: node.metadata.name,
      },
    );
  return stored;
}

/** Whether `notice` drains its node (a rebalance recommendation does not; nor does an instance already going). */
function drains(notice: InterruptionNotice): boolean {
  if (notice.kind === 'rebalance') return false;
  return notice.kind !== 'state-change' || notice.state === 'stopping';
}

async function markUnavailable(deps: InterruptionDeps, claim: NodeClaim): Promise<void> {
  const i = claim.instance;
  if (!i) return;
  const offering = { instanceType: i.instanceType, zone: i.zone, capacityType: i.capacityType };
  await deps.store.markOfferingsUnavailable([offering], 'SpotInterrupted', deps.clock.now());
}

async function nodeEvent(
  deps: InterruptionDeps,
  claim: NodeClaim,
  type: 'Normal' | 'Warning',
  reason: string,
  message: string,
): Promise<void> {
  if (!claim.nodeName) return;
  await deps.cluster.createEvents([
    { involvedObject: { kind: 'Node', name: claim.nodeName, apiVersion: 'v1' }, type, reason, message },
  ]);
}
