/**
 * The nodeclaim a NodePool's template makes with no pod on it (Karpenter's
 * `NewNodeClaimTemplate(nodePool)`): what a static pool launches to keep its `replicas`. Its
 * options are every offering the pool's requirements allow, ranked as the scheduler ranks a new
 * claim's (preferred capacity type first, cheapest first), so CreateFleet picks the cheapest
 * available as Karpenter's cloud provider does. Pure.
 */
import type { DaemonSet } from '../model/kube-objects.js';
import { CPU, MEMORY, PODS } from '../model/resources.js';
import { Claim } from './claim.js';
import { finalizeClaim } from './finalize.js';
import { poolContexts } from './pool-context.js';
import { Dims } from './resource-vector.js';
import { MAX_INSTANCE_TYPE_OPTIONS } from './schedule.js';
import type { PlannedNodeClaim, SchedulingPool } from './types.js';

/**
 * The planned claim named `name` for an empty node of `sp`, or why the pool can launch none (its
 * NodeClass is missing, or no instance type meets its requirements).
 */
export function templateClaim(
  sp: SchedulingPool,
  daemonSets: readonly DaemonSet[],
  name: string,
  maxOptions = MAX_INSTANCE_TYPE_OPTIONS,
): PlannedNodeClaim | string {
  const dims = new Dims([CPU, MEMORY, PODS]);
  const [ctx] = poolContexts([sp], daemonSets, dims, () => ({}));
  if (ctx.problem) return ctx.problem;
  if (ctx.baseOptions.length === 0)
    return `no instance type of NodePool ${sp.pool.name} meets its requirements with an available offering`;
  return finalizeClaim(new Claim(name, ctx, ctx.reqs, ctx.baseOptions, dims), name, dims, maxOptions);
}
