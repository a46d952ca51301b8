/**
 * The static step of a provisioning run (Karpenter's static provisioning controller): under the
 * run's lease and before pods are planned, each static NodePool that lacks nodes gets claims for
 * them (static-claims.ts), written and launched at once. A pool at its `limits.nodes` waits (the
 * nodes being removed still count) and says so.
 */
import type { NodeClaim } from '../nodeclaim/nodeclaim.js';
import type { NodeClaimTimeouts } from '../nodeclaim/state-machine.js';
import type { OfferingKey, UnavailableOffering } from '../ports/state-store.js';
import type { ClusterSnapshot } from './cluster-snapshot.js';
import {
  type LaunchClaimsDeps,
  type LaunchClaimsOutcome,
  launchClaims,
  mergeOutcomes,
} from './launch-claims.js';
import { type RunPoolOptions, runPools } from './plan-run.js';
import { prepareLaunch } from './prepare-launches.js';
import { staticClaims, type WriteStaticDeps, writeStaticClaims } from './static-claims.js';
import type { StaticLaunch } from './static-pools.js';
import type { ProvisionDeps } from './types.js';

/** What the static step needs: the run's ports and its lease's fencing token. */
export type StaticLaunchDeps = ProvisionDeps & LaunchClaimsDeps & WriteStaticDeps;

/** What the static step did. */
export interface StaticLaunchOutcome {
  readonly created: NodeClaim[];
  readonly launch: LaunchClaimsOutcome;
}

/** Writes and launches the claims of the static pools in `launches` that lack nodes. */
export async function launchStaticPools(
  deps: StaticLaunchDeps,
  snapshot: ClusterSnapshot,
  launches: readonly StaticLaunch[],
  claims: readonly NodeClaim[],
  unavailable: readonly UnavailableOffering[],
  run: RunPoolOptions & {
    readonly leaseToken: number;
    readonly timeouts: NodeClaimTimeouts;
    readonly maxAttempts?: number;
  },
): Promise<StaticLaunchOutcome> {
  for (const l of launches.filter((x) => x.limited))
    deps.log.info('static NodePool lacks nodes but its node limit is reached, waiting', {
      nodepool: l.pool.name,
      replicas: l.count.replicas,
      active: l.count.active,
      deleting: l.count.deleting,
      'limits.nodes': l.count.nodeLimit,
    });
  const wanted = launches.filter((l) => l.launch > 0);
  if (wanted.length === 0) return { created: [], launch: mergeOutcomes([]) };
  const pools = runPools(
    wanted.map((l) => l.pool),
    snapshot,
    unavailable,
    deps.catalog,
    run,
  );
  const now = deps.clock.now();
  const created: NodeClaim[] = [];
  for (const l of wanted) {
    const sp = pools.find((p) => p.pool.name === l.pool.name);
    if (!sp) continue;
    const first = staticClaims(l, sp, snapshot.daemonSets, claims, now, run.timeouts);
    if (typeof first === 'string') {
      deps.log.warn('static NodePool cannot launch', { nodepool: l.pool.name, reason: first });
      continue;
    }
    deps.log.info('provisioning nodeclaims to satisfy the replica count of a static NodePool', {
      nodepool: l.pool.name,
      current: l.count.active,
      desired: l.count.replicas,
      'provision-count': l.launch,
    });
    const make = (salt: number) => {
      const made = staticClaims(l, sp, snapshot.daemonSets, claims, now, run.timeouts, salt);
      return typeof made === 'string' ? [] : made;
    };
    created.push(...(await writeStaticClaims(deps, make, run.leaseToken)));
  }
  const unavailableKeys: readonly OfferingKey[] = unavailable;
  const launch = await Promise.all(
    created.map((claim) =>
      launchClaims(deps, [claim], pools, {
        maxAttempts: run.maxAttempts,
        unavailable: unavailableKeys,
        leaseToken: run.leaseToken,
        prepared: prepareLaunch(deps, claim, pools, unavailableKeys),
      }),
    ),
  );
  return { created, launch: mergeOutcomes(launch) };
}
