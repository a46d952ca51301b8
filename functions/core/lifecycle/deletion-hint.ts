/**
 * A Node of joiner's or a joiner NodeClaim resource was deleted (`kubectl delete`): Karpenter
 * starts the termination flow at once. joiner arms the claim's `deletion` timer for now and wakes
 * the disruption function, whose round reads the objects from the API server and drains the node
 * (see disruption/decide.ts). The hint is never trusted: a round that finds nothing deleted clears
 * the timer; a lost hint is caught by the minute's sweep.
 */
import type { NodeDeletedDetail } from '../events/joiner-events.js';
import type { NodeClaim } from '../nodeclaim/nodeclaim.js';
import { withTimer } from '../nodeclaim/state-machine.js';
import type { LifecycleDeps } from './lifecycle-deps.js';
import { instanceIdOf } from './node-labels.js';
import { updateClaim } from './update-claim.js';

/** States in which a deletion starts (or takes over) a termination. */
const TERMINABLE: readonly NodeClaim['state'][] = ['Launched', 'Registered', 'Initialized', 'Draining'];

function terminable(claim: NodeClaim): boolean {
  if (!TERMINABLE.includes(claim.state)) return false;
  // A forceful drain is already the termination flow.
  return !(claim.state === 'Draining' && claim.disruption?.forceful);
}

/** The claim the deleted object stands for: the NodeClaim's name, or the Node's label and instance. */
async function claimOf(deps: LifecycleDeps, detail: NodeDeletedDetail): Promise<NodeClaim | undefined> {
  if (detail.kind === 'NodeClaim') return deps.store.getNodeClaim(detail.name);
  const instanceId = instanceIdOf(detail.providerId);
  const claim = detail.nodeClaim ? await deps.store.getNodeClaim(detail.nodeClaim) : undefined;
  if (claim && (!instanceId || claim.instance?.instanceId === instanceId)) return claim;
  return instanceId ? deps.store.findNodeClaimByInstanceId(instanceId) : undefined;
}

/**
 * Arms the `deletion` timer of the deleted object's claim and schedules its wake-up. Idempotent:
 * a duplicate hint re-arms the same timer. Returns whether a termination was asked for.
 */
export async function scheduleDeletion(
  deps: LifecycleDeps,
  detail: NodeDeletedDetail,
): Promise<'deletion-scheduled' | 'ignored'> {
  const claim = await claimOf(deps, detail);
  if (!claim || !terminable(claim)) {
    deps.log.debug('deletion of an object joiner does not terminate, ignored', {
      kind: detail.kind,
      name: detail.name,
      state: claim?.state,
    });
    return 'ignored';
  }
  const now = deps.clock.now();
  const armed = await updateClaim(deps.store, claim.id, (c) =>
    terminable(c) && c.timers.deletion !== now ? withTimer(c, 'deletion', now) : undefined,
  );
  if (!armed || !terminable(armed)) return 'ignored';
  await deps.timers.schedule(claim.id, now);
  deps.log.info('termination requested', { nodeclaim: claim.id, deleted: `${detail.kind}/${detail.name}` });
  return 'deletion-scheduled';
}
