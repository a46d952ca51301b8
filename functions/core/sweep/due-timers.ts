/**
 * Acts on a nodeclaim's due timers: the launch timeout (5 min Pending without an instance), the
 * registration timeout (15 min Launched without an initialized node) and the termination check of
 * a retire a crash left half done. Other timers (emptiness, expiration, drain steps) belong to the
 * disruption work and are reported back untouched.
 */

import { fromCloud } from '../launch/launch-nodeclaim.js';
import { instanceIdOf } from '../lifecycle/node-labels.js';
import { reconcileNode } from '../lifecycle/reconcile-node.js';
import { retireClaim } from '../lifecycle/retire-claim.js';
import { updateClaim } from '../lifecycle/update-claim.js';
import type { NodeClaim, TimerKind } from '../nodeclaim/nodeclaim.js';
import { dueTimers, transition, withTimer } from '../nodeclaim/state-machine.js';
import type { SweepDeps } from './sweep-deps.js';

/** What acting on one claim's timers did. */
export interface TimerOutcome {
  readonly nodeClaimId: string;
  /** Timers acted on. */
  readonly handled: readonly TimerKind[];
  /** Due timers left for the disruption work. */
  readonly deferred: readonly TimerKind[];
}

const OWN: readonly TimerKind[] = ['launchTimeout', 'registrationTimeout', 'terminationCheck'];

/**
 * How long a claim must have been Terminating before a due termination check retires it again.
 * The check is due from the moment the claim turns Terminating, while the retire that turned it
 * usually still runs (terminating the instance, deleting the Node): a timers-queue message for the
 * claim arriving then (a drain's earlier wake-up) would terminate the instance a second time. A
 * retire a crash cut short is finished by the first sweep after this.
 */
export const TERMINATION_SETTLE_MS = 10_000;

/** Acts on every due timer of `claim` this module owns (see the file comment). */
export async function actOnDueTimers(deps: SweepDeps, id: string): Promise<TimerOutcome> {
  return (await actOnDueTimersOf(deps, id)).outcome;
}

/**
 * {@link actOnDueTimers}, also returning the claim as read when no timer was acted on (so it is
 * still the stored version): the disruption round of the batch starts from it instead of reading
 * it again.
 */
export async function actOnDueTimersOf(
  deps: SweepDeps,
  id: string,
): Promise<{ readonly outcome: TimerOutcome; readonly unchanged?: NodeClaim }> {
  const claim = await deps.store.getNodeClaim(id);
  if (!claim) return { outcome: { nodeClaimId: id, handled: [], deferred: [] } };
  const due = dueTimers(claim, deps.clock.now());
  const handled: TimerKind[] = [];
  for (const kind of due.filter((k) => OWN.includes(k))) {
    handled.push(kind);
    const done = await actOn(deps, claim, kind);
    if (done) break;
  }
  const outcome = { nodeClaimId: claim.id, handled, deferred: due.filter((k) => !OWN.includes(k)) };
  return handled.length === 0 ? { outcome, unchanged: claim } : { outcome };
}

/** Acts on one timer; returns true when the claim was retired (its other timers are gone). */
async function actOn(deps: SweepDeps, claim: NodeClaim, kind: TimerKind): Promise<boolean> {
  if (kind === 'terminationCheck') {
    if (claim.state !== 'Terminating') return clearStale(deps, claim, kind);
    if (deps.clock.now() - (claim.timestamps.Terminating ?? 0) < TERMINATION_SETTLE_MS) return false;
    const failure = claim.failure ?? { reason: 'Terminating', message: 'finishing termination' };
    await retireClaim(deps, claim.id, failure, { warn: false, from: ['Terminating'] });
    return true;
  }
  if (kind === 'launchTimeout') {
    if (claim.state !== 'Pending') return clearStale(deps, claim, kind);
    if (await adoptedByTag(deps, claim)) return true;
    deps.log.warn('nodeclaim launch timed out', {
      nodeclaim: claim.id,
      pendingSince: claim.timestamps.Pending,
    });
    await retireClaim(
      deps,
      claim.id,
      {
        reason: 'LaunchTimeout',
        message: 'no instance was launched within the launch timeout; its pods go back to the provisioner',
      },
      { from: ['Pending'] },
    );
    return true;
  }
  if (claim.state !== 'Launched' && claim.state !== 'Registered') return clearStale(deps, claim, kind);
  if (await registeredMeanwhile(deps, claim)) return false;
  deps.log.warn('nodeclaim registration timed out', {
    nodeclaim: claim.id,
    instance: claim.instance?.instanceId,
    launchedAt: claim.timestamps.Launched,
  });
  await retireClaim(
    deps,
    claim.id,
    {
      reason: 'RegistrationTimeout',
      message: `instance ${claim.instance?.instanceId ?? '(unknown)'} did not become an initialized node within the registration timeout; terminated`,
    },
    { from: ['Launched', 'Registered'] },
  );
  return true;
}

/**
 * A claim whose attempt reached EC2 (recorded) may have an instance a crash left unrecorded: it is
 * adopted (Launched, registration timeout armed) rather than retired and terminated.
 */
async function adoptedByTag(deps: SweepDeps, claim: NodeClaim): Promise<boolean> {
  if (claim.launchAttempts === 0) return false;
  const found = await deps.cloud.findByNodeClaim(claim.id);
  if (!found || found.state === 'shutting-down' || found.state === 'terminated') return false;
  const instance = fromCloud(found, claim);
  const stored = await updateClaim(deps.store, claim.id, (c) =>
    c.state === 'Pending' ? transition(c, 'Launched', deps.clock.now(), { instance }) : undefined,
  );
  if (stored?.state !== 'Launched') return false;
  deps.log.info('adopted the instance of a nodeclaim whose launch timed out', {
    nodeclaim: claim.id,
    'instance-id': instance.instanceId,
  });
  return true;
}

/** A node whose events were lost may have registered: reconcile it before giving up on it. */
async function registeredMeanwhile(deps: SweepDeps, claim: NodeClaim): Promise<boolean> {
  const instanceId = claim.instance?.instanceId;
  const nodes = instanceId ? await deps.cluster.listNodes() : [];
  const node = nodes.find((n) => instanceIdOf(n.spec?.providerID) === instanceId);
  if (!node) return false;
  const stored = await reconcileNode(deps, claim, node.metadata.name);
  return stored?.state === 'Initialized';
}

async function clearStale(deps: SweepDeps, claim: NodeClaim, kind: TimerKind): Promise<false> {
  await updateClaim(deps.store, claim.id, (c) =>
    c.timers[kind] === undefined ? undefined : withTimer(c, kind, undefined),
  );
  return false;
}
