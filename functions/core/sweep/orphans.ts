/**
 * Orphan garbage collection, both ways: instances tagged for the cluster that no live nodeclaim
 * owns (a crash between CreateFleet and the DynamoDB write, a claim retired while its launch was
 * in flight) are terminated once older than a grace period; nodeclaims whose instance is gone
 * are retired (node deleted, pods released).
 */
import { retireClaim } from '../lifecycle/retire-claim.js';
import type { NodeClaim } from '../nodeclaim/nodeclaim.js';
import type { CloudInstance } from '../ports/cloud-provider.js';
import type { SweepDeps } from './sweep-deps.js';
import { sweepSettings } from './sweep-deps.js';

/** What the orphan GC did. */
export interface OrphanOutcome {
  /** Instances terminated because no live claim owns them. */
  readonly terminatedInstances: readonly string[];
  /** Claims retired because their instance is gone. */
  readonly retiredClaims: readonly string[];
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
  const { orphanGraceMs } = sweepSettings(deps);
  const now = deps.clock.now();
  const [instances, claims] = await Promise.all([
    deps.cloud.list(),
    deps.store.listNodeClaims([...LIVE_STATES]),
  ]);
  const byId = new Map(claims.map((c) => [c.id, c]));
  const orphans = instances.filter(
    (i) =>
      !owns(i.nodeClaimId ? byId.get(i.nodeClaimId) : undefined, i) &&
      now - i.launchTime >= orphanGraceMs &&
      i.state !== 'shutting-down' &&
      i.state !== 'terminated',
  );
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
    if (live.has(claim.instance.instanceId) || now - (claim.timestamps.Launched ?? now) < orphanGraceMs)
      continue;
    if (!(await instanceGone(deps, claim.instance.instanceId))) continue;
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
  return { terminatedInstances: orphans.map((i) => i.instanceId), retiredClaims: retired };
}

async function instanceGone(deps: SweepDeps, instanceId: string): Promise<boolean> {
  const instance = await deps.cloud.get(instanceId);
  return instance === undefined || instance.state === 'terminated' || instance.state === 'shutting-down';
}
