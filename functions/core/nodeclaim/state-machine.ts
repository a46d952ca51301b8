import type { DisruptionRecord } from './disruption-record.js';
import type {
  LaunchedInstance,
  NodeClaim,
  NodeClaimFailure,
  NodeClaimOption,
  NodeClaimState,
  TimerKind,
} from './nodeclaim.js';

/** Lifecycle timeouts (Karpenter's defaults: launch 5 min, registration 15 min). */
export interface NodeClaimTimeouts {
  /** From Pending to Launched. */
  readonly launchMs: number;
  /** From Launched to Initialized (node registered, Ready, startup taints gone). */
  readonly registrationMs: number;
}

export const DEFAULT_TIMEOUTS: NodeClaimTimeouts = { launchMs: 5 * 60_000, registrationMs: 15 * 60_000 };

/** The allowed transitions. A transition to the current state is a no-op (redelivered events). */
export const TRANSITIONS: Readonly<Record<NodeClaimState, readonly NodeClaimState[]>> = {
  Pending: ['Launched', 'Terminating', 'Gone'],
  Launched: ['Registered', 'Terminating'],
  Registered: ['Initialized', 'Draining', 'Terminating'],
  Initialized: ['Draining', 'Terminating'],
  // A drain that is cancelled (e.g. a consolidation decision no longer holds) returns the node to service.
  Draining: ['Initialized', 'Terminating'],
  Terminating: ['Gone'],
  Gone: [],
};

/** Thrown when a transition is not in {@link TRANSITIONS}. */
export class InvalidTransitionError extends Error {
  constructor(
    readonly nodeClaimId: string,
    readonly from: NodeClaimState,
    readonly to: NodeClaimState,
  ) {
    super(
      `nodeclaim ${nodeClaimId}: cannot go from ${from} to ${to} (allowed: ${TRANSITIONS[from].join(', ') || 'none'})`,
    );
    this.name = 'InvalidTransitionError';
  }
}

/** Whether `from -> to` is allowed (same state counts as allowed: it is a no-op). */
export function canTransition(from: NodeClaimState, to: NodeClaimState): boolean {
  return from === to || TRANSITIONS[from].includes(to);
}

/** Extra changes recorded with a transition. */
export interface TransitionChanges {
  readonly instance?: LaunchedInstance;
  readonly nodeName?: string;
  readonly failure?: NodeClaimFailure;
  readonly disruption?: DisruptionRecord;
}

/**
 * Moves a claim to `to` at `now`: records the timestamp, applies `changes` and the state's timer
 * rules (Launched arms the registration timeout and clears launch timers, and keeps only what was
 * launched: see {@link launchedOnly}; Initialized clears the
 * registration timeout and a cancelled drain's record; Draining clears emptiness; Terminating
 * keeps only a termination check; Gone clears every timer). Re-entering the current state returns the claim unchanged.
 */
export function transition(
  claim: NodeClaim,
  to: NodeClaimState,
  now: number,
  changes: TransitionChanges = {},
  timeouts: NodeClaimTimeouts = DEFAULT_TIMEOUTS,
): NodeClaim {
  if (claim.state === to) return claim;
  if (!canTransition(claim.state, to)) throw new InvalidTransitionError(claim.id, claim.state, to);
  if (to === 'Launched' && !changes.instance && !claim.instance) {
    throw new Error(`nodeclaim ${claim.id}: Launched needs the launched instance`);
  }
  const next: NodeClaim = {
    ...claim,
    ...changes,
    state: to,
    timestamps: { ...claim.timestamps, [to]: now },
    timers: timersOnEntering(to, claim.timers, now, timeouts),
  };
  if (to === 'Launched') return launchedOnly(next);
  if (to !== 'Initialized' || claim.disruption === undefined) return next;
  // A cancelled drain returns the node to service without its disruption record.
  const { disruption: _cancelled, ...rest } = next;
  return rest;
}

/**
 * Whether `instance` runs on `option`: the same type, zone and capacity type, and the same
 * capacity reservation when the instance names one.
 */
export function isLaunchedOn(
  option: NodeClaimOption,
  instance: Pick<LaunchedInstance, 'instanceType' | 'zone' | 'capacityType' | 'reservationId'>,
): boolean {
  return (
    option.instanceType === instance.instanceType &&
    option.zone === instance.zone &&
    option.capacityType === instance.capacityType &&
    (instance.reservationId === undefined || option.reservationId === instance.reservationId)
  );
}

/**
 * A launched claim without what only its launch needed: its options narrow to the offering it was
 * launched on (a reserved instance's to its reservation's), which still give the node its zone ID
 * and price, and the record of its last CreateFleet attempt goes (nothing replays it once the
 * instance is known). A claim carries every offering its pods fit, often hundreds, and it is read
 * and written whole all its life. When no option matches the instance (one adopted as another
 * type), the options are kept.
 */
export function launchedOnly(claim: NodeClaim): NodeClaim {
  const { lastAttempt: _replayed, ...rest } = claim;
  const i = claim.instance;
  if (!i) return rest;
  const launched = claim.options.filter((o) => isLaunchedOn(o, i));
  return launched.length === 0 ? rest : { ...rest, options: launched };
}

function timersOnEntering(
  state: NodeClaimState,
  timers: NodeClaim['timers'],
  now: number,
  timeouts: NodeClaimTimeouts,
): NodeClaim['timers'] {
  switch (state) {
    case 'Launched':
      return without(
        { ...timers, registrationTimeout: now + timeouts.registrationMs },
        'launchTimeout',
        'launchRetry',
      );
    case 'Initialized':
      return without(timers, 'registrationTimeout', 'launchTimeout', 'drainStep');
    case 'Draining':
      return without(timers, 'emptiness', 'interruption', 'deletion');
    case 'Terminating':
      return { terminationCheck: now };
    case 'Gone':
      return {};
    default:
      return timers;
  }
}

function without(timers: NodeClaim['timers'], ...kinds: TimerKind[]): NodeClaim['timers'] {
  const copy = { ...timers };
  for (const kind of kinds) delete copy[kind];
  return copy;
}

/** Sets (or with `undefined`, clears) one timer. */
export function withTimer(claim: NodeClaim, kind: TimerKind, dueAt: number | undefined): NodeClaim {
  const timers = dueAt === undefined ? without(claim.timers, kind) : { ...claim.timers, [kind]: dueAt };
  return { ...claim, timers };
}

/** The earliest timer of a claim, if any. */
export function nextTimer(claim: NodeClaim): { kind: TimerKind; dueAt: number } | undefined {
  let best: { kind: TimerKind; dueAt: number } | undefined;
  for (const [kind, dueAt] of Object.entries(claim.timers) as [TimerKind, number][]) {
    if (best === undefined || dueAt < best.dueAt) best = { kind, dueAt };
  }
  return best;
}

/** The timers due at `now`, earliest first. */
export function dueTimers(claim: NodeClaim, now: number): TimerKind[] {
  return (Object.entries(claim.timers) as [TimerKind, number][])
    .filter(([, dueAt]) => dueAt <= now)
    .sort((a, b) => a[1] - b[1])
    .map(([kind]) => kind);
}

/** Whether the claim still counts as capacity (in flight or running). */
export function isActive(claim: NodeClaim): boolean {
  return claim.state !== 'Terminating' && claim.state !== 'Gone';
}
