/**
 * Orphan garbage collection, both ways: instances this table launched (tagged with its identity)
 * that no live nodeclaim owns are dealt with by what is known of them —
 * - its claim record is missing (a restore, an item deleted by hand) and its node registered: the
 *   claim is rebuilt and the instance adopted (adopt-instance.ts), never terminated;
 * - its claim was retired (a launch that completed after its claim gave up on it) and its node
 *   runs pods: it is drained first (drain-orphan.ts), like every other disruption;
 * - otherwise (no node, or a node without pods) it is terminated, a capped number per sweep, once
 *   older than a grace period: the registration timeout when its record is missing (it may still
 *   register), the grace of an in-flight launch when its claim retired.
 * Nodeclaims whose instance is gone are retired (node deleted, pods released), with the launch
 * failure the instance's state reason tells when it never registered. Instances of
 * another table (a second stack for the cluster, the table before a redeploy) or another
 * autoscaler are never touched, and an empty table terminates nothing.
 */
import { isReschedulable } from '../disruption/pod-policy.js';
import { retireLaunchTerminated } from '../lifecycle/launch-terminated.js';
import { instanceIdOf } from '../lifecycle/node-labels.js';
import { retireClaim } from '../lifecycle/retire-claim.js';
import type { NodeClaim } from '../nodeclaim/nodeclaim.js';
import { DEFAULT_TIMEOUTS } from '../nodeclaim/state-machine.js';
import type { CloudInstance } from '../ports/cloud-provider.js';
import { adoptInstance } from './adopt-instance.js';
import { drainOrphan } from './drain-orphan.js';
import { registerLateNodes } from './late-registrations.js';
import type { SweepDeps } from './sweep-deps.js';
import { sweepSettings } from './sweep-deps.js';

/** What the orphan GC did. */
export interface OrphanOutcome {
  /** Instances terminated because no live claim owns them (none of them ran pods). */
  readonly terminatedInstances: readonly string[];
  /** Claims retired because their instance is gone. */
  readonly retiredClaims: readonly string[];
  /** Registered instances whose claim record was missing, adopted with a rebuilt claim. */
  readonly adoptedInstances: readonly string[];
  /** Instances whose claim was retired but whose node ran pods: a drain started (adopted to drain). */
  readonly drainingInstances: readonly string[];
  /** Launched claims whose node had joined before the launch was recorded, now registered. */
  readonly registeredClaims: readonly string[];
}

const LIVE_STATES = ['Pending', 'Launched', 'Registered', 'Initialized', 'Draining', 'Terminating'] as const;
const RUNNING_STATES = ['Launched', 'Registered', 'Initialized', 'Draining'] as const;

/** Whether the live `claim` owns `instance`. */
export function owns(claim: NodeClaim | undefined, instance: CloudInstance): boolean {
  if (!claim) return false;
  if (claim.instance) return claim.instance.instanceId === instance.instanceId;
  return claim.state === 'Pending';
}

/** Runs both directions of the GC (see the file comment). */
export async function collectOrphans(deps: SweepDeps): Promise<OrphanOutcome> {
  const settings = sweepSettings(deps);
  const now = deps.clock.now();
  const [instances, all, nodes] = await Promise.all([
    deps.cloud.list(),
    deps.store.listNodeClaims(),
    deps.cluster.listNodes(),
  ]);
  const liveStates: readonly string[] = LIVE_STATES;
  const claims = all.filter((c) => liveStates.includes(c.state));
  const byId = new Map(claims.map((c) => [c.id, c]));
  const recorded = new Set(all.map((c) => c.id));
  const byInstance = new Map(
    claims.filter((c) => c.instance).map((c) => [c.instance?.instanceId as string, c]),
  );
  const nodeOf = new Map(
    nodes.flatMap((n) => {
      const id = instanceIdOf(n.spec?.providerID);
      return id ? [[id, n] as const] : [];
    }),
  );
  const registered = await registerLateNodes(deps, claims, nodeOf);
  const unowned = instances.filter(
    (i) =>
      !owns(i.nodeClaimId ? byId.get(i.nodeClaimId) : undefined, i) &&
      !byInstance.has(i.instanceId) &&
      i.state !== 'shutting-down' &&
      i.state !== 'terminated' &&
      deps.owner !== undefined &&
      i.owner === deps.owner,
  );
  const adopted: string[] = [];
  const draining: string[] = [];
  const candidates: CloudInstance[] = [];
  for (const instance of unowned) {
    const node = nodeOf.get(instance.instanceId);
    const lost = instance.nodeClaimId !== undefined && !recorded.has(instance.nodeClaimId);
    if (node && lost) {
      // Lost state is recovered, not punished (adopt-instance.ts).
      if (await adoptInstance(deps, instance, node)) adopted.push(instance.instanceId);
      continue;
    }
    if (node && (await runsPods(deps, node.metadata.name))) {
      // Its claim was retired, its node runs pods: drained first, like every disruption.
      if (await drainOrphan(deps, instance, node)) draining.push(instance.instanceId);
      continue;
    }
    // An instance whose claim record is missing may still register: it has the registration
    // timeout; an instance whose claim retired has the grace of a launch in flight.
    const grace = lost ? DEFAULT_TIMEOUTS.registrationMs : settings.orphanGraceMs;
    if (now - instance.launchTime >= grace) candidates.push(instance);
  }
  const orphans = ownOrphans(deps, candidates, all, settings.maxOrphanTerminations);
  if (orphans.length > 0) {
    await deps.cloud.terminate(orphans.map((i) => i.instanceId));
    for (const i of orphans)
      deps.log.info('terminated orphaned instance', {
        instance: i.instanceId,
        nodeclaim: i.nodeClaimId,
        type: i.instanceType,
      });
  }
  const live = new Set(instances.filter((i) => i.state !== 'terminated').map((i) => i.instanceId));
  const retired: string[] = [];
  for (const claim of claims) {
    if (!(RUNNING_STATES as readonly string[]).includes(claim.state) || !claim.instance) continue;
    if (
      live.has(claim.instance.instanceId) ||
      now - (claim.timestamps.Launched ?? now) < settings.orphanGraceMs
    )
      continue;
    const described = await deps.cloud.get(claim.instance.instanceId);
    if (!instanceGone(described)) continue;
    // One that never registered: its state reason may tell a launch failure (its event was lost).
    if (await retireLaunchTerminated(deps, claim, described)) {
      retired.push(claim.id);
      continue;
    }
    await retireClaim(
      deps,
      claim.id,
      {
        reason: 'InstanceTerminated',
        message: `instance ${claim.instance.instanceId} no longer exists`,
      },
      { instanceGone: true, from: [...RUNNING_STATES] },
    );
    retired.push(claim.id);
  }
  return {
    terminatedInstances: orphans.map((i) => i.instanceId),
    retiredClaims: retired,
    adoptedInstances: adopted,
    drainingInstances: draining,
    registeredClaims: registered,
  };
}

/** Whether pods that would be lost with the node run on it (DaemonSet, mirror and finished pods aside). */
async function runsPods(deps: SweepDeps, nodeName: string): Promise<boolean> {
  return (await deps.cluster.listPodsOnNode(nodeName)).some(isReschedulable);
}

/**
 * The candidates this table may terminate, oldest first, at most `cap`: only instances tagged with
 * its own identity, none when the table holds no record at all (restored, truncated or replaced:
 * it would kill every node), none launched before the table's first record (it cannot have
 * launched them).
 */
function ownOrphans(
  deps: SweepDeps,
  candidates: readonly CloudInstance[],
  records: readonly NodeClaim[],
  cap: number,
): CloudInstance[] {
  const owner = deps.owner;
  const mine = owner ? candidates.filter((i) => i.owner === owner) : [];
  if (mine.length === 0) return [];
  if (records.length === 0) {
    deps.log.warn('orphan GC refused: the state table holds no nodeclaim record', {
      instances: mine.map((i) => i.instanceId),
    });
    return [];
  }
  const born = records.reduce((min, r) => Math.min(min, firstWritten(r)), Number.POSITIVE_INFINITY);
  const after = mine.filter((i) => i.launchTime >= born);
  if (after.length < mine.length) {
    deps.log.warn('orphan GC skips instances older than the state table', {
      instances: mine.filter((i) => i.launchTime < born).map((i) => i.instanceId),
      'table-first-record': new Date(born).toISOString(),
    });
  }
  const sorted = after.sort(
    (a, b) => a.launchTime - b.launchTime || a.instanceId.localeCompare(b.instanceId),
  );
  if (sorted.length > cap) {
    deps.log.warn('orphan GC capped: the next sweep takes the rest', {
      orphans: sorted.length,
      terminating: cap,
    });
  }
  return sorted.slice(0, cap);
}

/** When the claim record was first written (its earliest transition). */
function firstWritten(claim: NodeClaim): number {
  return Object.values(claim.timestamps).reduce<number>(
    (min, t) => (typeof t === 'number' ? Math.min(min, t) : min),
    Number.POSITIVE_INFINITY,
  );
}

function instanceGone(instance: CloudInstance | undefined): boolean {
  return instance === undefined || instance.state === 'terminated' || instance.state === 'shutting-down';
}
