/**
 * Emptiness hints: when the last non-daemonset pod of an initialized joiner node goes, arm the
 * claim's emptiness timer (NodePool `consolidateAfter` / `ttlSecondsAfterEmpty`) from that moment
 * (a pod leaving later moves it on); when pods are back, disarm it. Nothing is deleted here:
 * acting on the timer is the disruption function's job.
 */
import { consolidatesUnderutilized } from '../disruption/consolidation/candidates.js';
import { emptyFor } from '../disruption/emptiness.js';
import { isEmptyNode } from '../disruption/pod-policy.js';
import type { NodeClaim } from '../nodeclaim/nodeclaim.js';
import { withTimer } from '../nodeclaim/state-machine.js';
import type { LifecycleDeps } from './lifecycle-deps.js';
import { updateClaim } from './update-claim.js';

/** Past consolidateAfter, a little longer than the round's settle time, before the check. */
const CONSOLIDATION_CHECK_DELAY_MS = 30_000;

/**
 * Whether the pod event changes nothing but the claim's `lastPodRemovedAt`: pods are left on the
 * node, its consolidation check is armed and no emptiness timer is. Then the NodePools (several
 * lists of the API server) need not be read: with a whole Deployment scaled in, that is most
 * pod events.
 */
const onlyTheTime = (c: NodeClaim, podsLeft: boolean): boolean =>
  podsLeft && c.timers.consolidation !== undefined && c.timers.emptiness === undefined;

/** Re-checks whether the claim's node is empty and arms or disarms its emptiness timer. */
export async function recordEmptiness(
  deps: LifecycleDeps,
  claim: NodeClaim,
  nodeName: string,
): Promise<void> {
  if (claim.state !== 'Initialized') return;
  const pods = await deps.cluster.listPodsOnNode(nodeName);
  const podsLeft = !isEmptyNode(pods);
  if (onlyTheTime(claim, podsLeft) && (await recordTimeOnly(deps, claim, podsLeft))) return;
  const pool = (await deps.config()).nodePools.find((p) => p.name === claim.nodePool);
  const delay = emptyFor(pool);
  const empty = delay !== undefined && !podsLeft;
  // A node left underutilized is looked at by consolidation once consolidateAfter has passed.
  const checkAt =
    pool && consolidatesUnderutilized(pool) ? (delay ?? 0) + CONSOLIDATION_CHECK_DELAY_MS : undefined;
  const now = deps.clock.now();
  let armed = false;
  let checking: number | undefined;
  const stored = await updateClaim(
    deps.store,
    claim.id,
    (c) => {
      armed = false;
      checking = undefined;
      if (c.state !== 'Initialized') return undefined;
      // Consolidation counts consolidateAfter from the last pod event too.
      const seen = (c.lastPodRemovedAt ?? 0) >= now ? c : { ...c, lastPodRemovedAt: now };
      if (!empty) {
        let next = seen.timers.emptiness === undefined ? seen : withTimer(seen, 'emptiness', undefined);
        if (checkAt !== undefined && next.timers.consolidation === undefined) {
          next = withTimer(next, 'consolidation', now + checkAt);
          checking = now + checkAt;
        }
        return next === c ? undefined : next;
      }
      // consolidateAfter counts from the last pod that left: a later removal pushes the timer on.
      if (seen.timers.emptiness !== undefined && seen.timers.emptiness >= now + delay)
        return seen === c ? undefined : seen;
      armed = true;
      return withTimer(seen, 'emptiness', now + delay);
    },
    claim,
  );
  if (checking !== undefined) await deps.timers.schedule(claim.id, checking);
  const dueAt = stored?.timers.emptiness;
  if (armed && dueAt !== undefined) {
    deps.log.info('node is empty', {
      node: nodeName,
      nodeclaim: claim.id,
      emptyUntil: new Date(dueAt).toISOString(),
    });
    await deps.timers.schedule(claim.id, dueAt);
  } else if (!empty) {
    deps.log.debug('node still has pods', { node: nodeName, pods: pods.length });
  }
}

/**
 * Writes only the time of the pod event when the stored claim still needs nothing else (see
 * onlyTheTime); false when it does (it changed since it was read), and the caller reads its pool.
 */
async function recordTimeOnly(deps: LifecycleDeps, claim: NodeClaim, podsLeft: boolean): Promise<boolean> {
  const now = deps.clock.now();
  let done = true;
  await updateClaim(
    deps.store,
    claim.id,
    (c) => {
      done = c.state === 'Initialized' && onlyTheTime(c, podsLeft);
      if (!done || (c.lastPodRemovedAt ?? 0) >= now) return undefined;
      return { ...c, lastPodRemovedAt: now };
    },
    claim,
  );
  return done;
}
