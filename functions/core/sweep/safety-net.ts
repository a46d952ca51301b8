/**
 * The safety net: every minute the sweep lists the Unschedulable pods from the API server and
 * publishes PodUnschedulable for them, so a lost webhook call delays scaling by at most a minute.
 * Pods a live nodeclaim was planned for and is still within its timeouts are skipped: they wait
 * for their node.
 */
import type { PodRefDetail } from '../events/joiner-events.js';
import { podUnschedulableHints } from '../events/pod-unschedulable-hints.js';
import type { NodeClaim } from '../nodeclaim/nodeclaim.js';
import type { SweepDeps } from './sweep-deps.js';

const IN_FLIGHT = ['Pending', 'Launched', 'Registered'] as const;

/** Whether `claim` is still on its way to a node (in flight and no timeout passed). */
export function isWaitedFor(claim: NodeClaim, now: number): boolean {
  if (!(IN_FLIGHT as readonly string[]).includes(claim.state)) return false;
  const { launchTimeout, registrationTimeout } = claim.timers;
  return (
    (launchTimeout === undefined || launchTimeout > now) &&
    (registrationTimeout === undefined || registrationTimeout > now)
  );
}

/** Publishes PodUnschedulable for the pending pods no live claim is waiting on; returns them. */
export async function republishUnschedulable(deps: SweepDeps): Promise<PodRefDetail[]> {
  const now = deps.clock.now();
  const [pending, claims] = await Promise.all([
    deps.cluster.listPendingPods(),
    deps.store.listNodeClaims([...IN_FLIGHT]),
  ]);
  const waiting = new Set(claims.filter((c) => isWaitedFor(c, now)).flatMap((c) => c.pods.map((p) => p.uid)));
  const pods: PodRefDetail[] = pending
    .filter((p) => !p.metadata.deletionTimestamp && p.metadata.uid && !waiting.has(p.metadata.uid))
    .map((p) => ({
      namespace: p.metadata.namespace ?? 'default',
      name: p.metadata.name,
      uid: p.metadata.uid ?? '',
    }));
  if (pods.length === 0) return pods;
  await deps.events.publish(podUnschedulableHints(pods, now));
  deps.log.info('found unschedulable pod(s) in the sweep', {
    count: pods.length,
    waitingOnNodeClaims: pending.length - pods.length,
  });
  return pods;
}
