/**
 * Replacement capacity first: before a drain evicts anything, the pods that must move (the
 * reschedulable pods of the node) get room elsewhere. A provisioning run plans them like pending
 * pods — draining nodes are left out of its existing capacity — and launches what they need under
 * the provisioning lease, so the drain and the provisioner never launch twice for the same pods.
 * The drain evicts once none of its pods waits for a nodeclaim that is still on its way (and a
 * drifted node of a static pool once its pool's new node is up).
 */
import { updateClaim } from '../lifecycle/update-claim.js';
import type { Pod } from '../model/kube-objects.js';
import type { NodeClaim } from '../nodeclaim/nodeclaim.js';
import { IN_FLIGHT_STATES } from '../provisioning/in-flight.js';
import { provision } from '../provisioning/provision.js';
import type { ProvisionResult } from '../provisioning/types.js';
import { podId } from '../scheduling/pod-class.js';
import type { DisruptionDeps } from './disruption-deps.js';
import { disruptionSettings } from './disruption-deps.js';
import { isReschedulable } from './pod-policy.js';

/** Where the pods that must move stand. */
export type ReplacementStatus =
  /** Every pod has room on initialized capacity (or nothing must move). */
  | { readonly status: 'ready' }
  /**
   * Pods wait for nodeclaims still launching or starting (or the provisioning lease was busy).
   * `wakes`: every one of them is launched and will wake the drain when it is initialized
   * (lifecycle/wake-drains.ts), so the drain need only re-check rarely.
   */
  | {
      readonly status: 'waiting';
      readonly pods: number;
      readonly wakes?: boolean;
      /** The drain's claim as this check stored it, when it wrote the replacements on it. */
      readonly drain?: NodeClaim;
    }
  /** Pods no NodePool can take. */
  | { readonly status: 'unschedulable'; readonly pods: readonly string[]; readonly reason: string };

/**
 * `deps` for the drain steps of one batch, whose claims were all Draining when the batch began:
 * the first step that needs a provisioning run makes it and the others share its result. The run
 * takes no input from the claim that makes it: it plans the pods of every draining node at once
 * (with the pending pods), so each step of the batch would read the whole cluster to plan the
 * same pods again; with every node of a pool draining (an interruption of the whole pool) one
 * invocation read the cluster once per node.
 */
export function withSharedReplacementRun(deps: DisruptionDeps): DisruptionDeps {
  let shared: Promise<ProvisionResult> | undefined;
  return { ...deps, replacementRun: (start) => (shared ??= start()) };
}

/** The pods of a node that need room elsewhere when it goes. */
export function podsToMove(pods: readonly Pod[]): Pod[] {
  return pods.filter(isReschedulable);
}

/**
 * Makes sure replacement capacity for the pods of `claim`'s node is planned and launched, and
 * says whether it is there yet (see the file comment).
 */
export async function ensureReplacements(
  deps: DisruptionDeps,
  claim: NodeClaim,
  pods: readonly Pod[],
): Promise<ReplacementStatus> {
  const moving = podsToMove(pods);
  // A static pool's node is replaced one for one (the run launches what the pool lacks), and a
  // drifted one waits for its replacement to come up, as Karpenter's static drift does.
  const replacedNode = claim.static === true && claim.disruption?.cause === 'drifted';
  if (moving.length === 0 && !claim.static) return { status: 'ready' };
  // Every pod that must move already listed on a claim still on its way (an earlier step's run,
  // or another drain's, planned it there): a run would keep them there, so this step only waits.
  // With hundreds of nodes draining at once (an interruption of the whole pool), each step would
  // otherwise read and plan the whole cluster under the provisioning lease.
  if (!claim.static) {
    const held = await holdersOnTheirWay(deps, claim, moving);
    if (held === 'up') return { status: 'ready' };
    if (held) {
      const drain = await rememberReplacements(
        deps,
        claim,
        held.map((c) => c.id),
      );
      const wakes = await awaitWakes(deps, claim, held);
      return { status: 'waiting', pods: moving.length, wakes, ...(drain ? { drain } : {}) };
    }
  }
  const run = () =>
    provision(
      { ...deps, leaseClock: deps.leaseClock },
      {
        hints: [],
        options: {
          holder: `drain-${claim.id}-${deps.clock.now()}`,
          leaseWaitMs: disruptionSettings(deps).provisioningLeaseWaitMs,
        },
      },
    );
  const result = await (deps.replacementRun ? deps.replacementRun(run) : run());
  if (result.deferred) return { status: 'waiting', pods: moving.length };
  const uids = new Set(moving.map((p) => p.metadata.uid ?? ''));
  // The claims the run nominated the pods to count too: a pod may go onto room another in-flight
  // claim offers (see provisioning/in-flight.ts), and must not be evicted before that node is up.
  const targets = new Set([...uids].map((uid) => result.claimOfPod[uid]).filter((id) => id !== undefined));
  const inFlight = await deps.store.listNodeClaims(IN_FLIGHT_STATES);
  const waiting = inFlight.filter(
    (c) =>
      c.pods.some((p) => uids.has(p.uid)) ||
      targets.has(c.id) ||
      (replacedNode && c.static && c.nodePool === claim.nodePool),
  );
  if (waiting.length > 0) {
    const drain = await rememberReplacements(
      deps,
      claim,
      waiting.map((c) => c.id),
    );
    deps.log.debug('waiting for replacement nodeclaim(s)', {
      nodeclaim: claim.id,
      replacements: waiting.map((c) => c.id),
    });
    const wakes = await awaitWakes(deps, claim, waiting);
    return { status: 'waiting', pods: moving.length, wakes, ...(drain ? { drain } : {}) };
  }
  const ids = new Set(moving.map(podId));
  const stuck = result.unschedulable.filter((u) => ids.has(u.pod));
  if (stuck.length > 0) {
    return { status: 'unschedulable', pods: stuck.map((u) => u.pod), reason: stuck[0].reason };
  }
  return { status: 'ready' };
}

const isInFlight = (c: NodeClaim | undefined): c is NodeClaim =>
  c !== undefined && (IN_FLIGHT_STATES as readonly string[]).includes(c.state);

/**
 * When every pod of `moving` is listed on a nodeclaim that is still launching or starting, the
 * ids of those nodeclaims; `up` when the drain's remembered replacements list every pod and all of
 * them are initialized (the room planned for the pods is there: the drain evicts without planning
 * the cluster again, as Karpenter deletes a command's candidates once its replacements are
 * initialized); otherwise undefined. The remembered replacements are read first (a get each); only
 * when they no longer hold every pod is every nodeclaim listed: with every node of a pool draining
 * at once, each step listing the whole table grew with nodes x nodes, and each step whose
 * replacements came up re-planning the whole cluster did too.
 */
async function holdersOnTheirWay(
  deps: DisruptionDeps,
  claim: NodeClaim,
  moving: readonly Pod[],
): Promise<NodeClaim[] | 'up' | undefined> {
  const remembered = claim.disruption?.replacements ?? [];
  if (remembered.length > 0) {
    const known = (await Promise.all(remembered.map((id) => deps.store.getNodeClaim(id)))).filter(
      (c): c is NodeClaim => c !== undefined && (c.state === 'Initialized' || isInFlight(c)),
    );
    const holders = holdersOf(known, moving);
    if (holders) {
      // Some still on their way: wait for them (the ones up stay remembered).
      return holders.some(isInFlight) ? holders : 'up';
    }
  }
  return holdersOf(await deps.store.listNodeClaims(IN_FLIGHT_STATES), moving);
}

/** The claims of `inFlight` that list pods of `moving`, when they list all of them. */
function holdersOf(inFlight: readonly NodeClaim[], moving: readonly Pod[]): NodeClaim[] | undefined {
  const uids = new Set(moving.map((p) => p.metadata.uid ?? ''));
  const holders = inFlight.filter((c) => c.pods.some((p) => uids.has(p.uid)));
  const listed = new Set(holders.flatMap((c) => c.pods.map((p) => p.uid)));
  return moving.every((p) => listed.has(p.metadata.uid ?? '')) ? holders : undefined;
}

/** States in which only writers that retry on a version conflict write a claim. */
const WAKE_STATES: readonly string[] = ['Launched', 'Registered'];

/**
 * Writes the drain's id on each of `replacements` still booting (`wakesDrains`), so the lifecycle
 * wakes the drain when it initializes them (lifecycle/wake-drains.ts). True when every one of them
 * is Launched or Registered and lists the drain: the drain can then wait for the wake-up. A
 * Pending claim is not written: its launch writes it with no retry on a version conflict (a
 * conflict would drop the launch's record of its instance), so the drain keeps stepping until it
 * is launched. A claim initialized meanwhile refuses the write (both writes are conditional on
 * its version): the drain's next step then finds it up.
 */
async function awaitWakes(
  deps: DisruptionDeps,
  drain: NodeClaim,
  replacements: readonly NodeClaim[],
): Promise<boolean> {
  const listed = await Promise.all(
    replacements
      .filter((c) => c.state !== 'Initialized')
      .map(async (known) => {
        let waits = false;
        await updateClaim(
          deps.store,
          known.id,
          (c) => {
            waits = WAKE_STATES.includes(c.state);
            if (!waits || c.wakesDrains?.includes(drain.id)) return undefined;
            return { ...c, wakesDrains: [...(c.wakesDrains ?? []), drain.id] };
          },
          known,
        );
        return waits;
      }),
  );
  return listed.length > 0 && listed.every(Boolean);
}

/**
 * Records on the drain the nodeclaims its pods wait for (no write when they are the ones recorded);
 * `claim` is the drain's claim as its step last stored it (not read again). Returns the claim as
 * stored when it was written.
 */
async function rememberReplacements(
  deps: DisruptionDeps,
  claim: NodeClaim,
  ids: readonly string[],
): Promise<NodeClaim | undefined> {
  const sorted = [...ids].sort();
  const same = (known: readonly string[] | undefined): boolean =>
    known !== undefined && known.length === sorted.length && known.every((id, i) => id === sorted[i]);
  if (same(claim.disruption?.replacements)) return undefined;
  // From the claim as the step holds it: the write is conditional on its version.
  return updateClaim(
    deps.store,
    claim.id,
    (c) =>
      c.state === 'Draining' && c.disruption && !same(c.disruption.replacements)
        ? { ...c, disruption: { ...c.disruption, replacements: sorted } }
        : undefined,
    claim,
  );
}
