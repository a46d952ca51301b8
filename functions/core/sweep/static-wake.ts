/**
 * The sweep's check of static NodePools (Karpenter v1.8 `replicas`): a pool that lacks nodes (a
 * node was interrupted, expired, repaired or deleted, a launch failed, or `replicas` went up while
 * the webhook call was lost) gets a ConfigurationChanged event for it, which wakes a provisioning
 * run; the run launches what the pool lacks under its lease. So a static pool is whole again
 * within a minute whatever event was lost.
 */
import { DETAIL_TYPES } from '../../shared/event-rules.js';
import { staticLaunches } from '../provisioning/static-pools.js';
import type { SweepDeps } from './sweep-deps.js';

/** States of the claims a static pool's count is made of. */
const COUNTED = ['Pending', 'Launched', 'Registered', 'Initialized', 'Draining', 'Terminating'] as const;

/** Wakes the provisioner for each static pool that lacks nodes; returns their names. */
export async function wakeStaticPools(deps: SweepDeps): Promise<string[]> {
  const config = await deps.config();
  if (!config.nodePools.some((p) => p.replicas !== undefined)) return [];
  const claims = await deps.store.listNodeClaims([...COUNTED]);
  const lacking = staticLaunches(config.nodePools, claims).filter((l) => l.launch > 0);
  if (lacking.length === 0) return [];
  const now = deps.clock.now();
  await deps.events.publish(
    lacking.map((l) => ({
      detailType: DETAIL_TYPES.configurationChanged,
      detail: {
        group: l.pool.source.apiVersion.split('/')[0],
        kind: l.pool.source.kind,
        name: l.pool.name,
      },
      time: now,
    })),
  );
  deps.log.info('static NodePool(s) lack nodes, waking the provisioner', {
    nodepools: lacking.map((l) => `${l.pool.name} (${l.count.active} of ${l.count.replicas})`),
  });
  return lacking.map((l) => l.pool.name);
}
