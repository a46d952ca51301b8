/**
 * Static NodePools in a plan made from files (`joiner plan`): the nodes each static pool keeps
 * (Karpenter v1.8 `replicas`, within `limits.nodes`) are planned as the provisioning run launches
 * them — empty template nodeclaims made before the pods are planned — and the pods that go onto
 * them are shown on them. Pure.
 */
import type { Catalog } from '../model/instance-type.js';
import type { NodeClaim } from '../nodeclaim/nodeclaim.js';
import { DEFAULT_TIMEOUTS } from '../nodeclaim/state-machine.js';
import type { PlannedNodeClaim, SchedulePlan } from '../scheduling/types.js';
import type { ClusterSnapshot } from './cluster-snapshot.js';
import { planRun, type RunPlan, runPools } from './plan-run.js';
import { staticClaims } from './static-claims.js';
import { staticLaunches } from './static-pools.js';

/** Plans `snapshot` as a provisioning run would, static pools' nodes first (see the file comment). */
export function planWithStaticPools(snapshot: ClusterSnapshot, catalog: Catalog, now: number): RunPlan {
  const launches = staticLaunches(snapshot.nodePools, []).filter((l) => l.launch > 0);
  const pools = runPools(
    launches.map((l) => l.pool),
    snapshot,
    [],
    catalog,
    { now },
  );
  const claims: NodeClaim[] = [];
  for (const l of launches) {
    const sp = pools.find((p) => p.pool.name === l.pool.name);
    const made = sp ? staticClaims(l, sp, snapshot.daemonSets, [], now, DEFAULT_TIMEOUTS) : [];
    if (typeof made !== 'string') claims.push(...made);
  }
  const run = planRun(snapshot, claims, [], catalog, { now });
  return claims.length === 0 ? run : { ...run, plan: withStaticClaims(run.plan, claims) };
}

/** The plan with the static claims as planned nodeclaims carrying the pods placed on them. */
function withStaticClaims(plan: SchedulePlan, claims: readonly NodeClaim[]): SchedulePlan {
  const ids = new Set(claims.map((c) => c.id));
  const placed = new Map(plan.existingPlacements.filter((p) => ids.has(p.node)).map((p) => [p.node, p.pods]));
  const planned: PlannedNodeClaim[] = claims.map((c) => ({
    name: c.id,
    nodePool: c.nodePool,
    pods: placed.get(c.id) ?? [],
    requirements: c.requirements,
    labels: { ...c.labels },
    taints: c.taints,
    startupTaints: c.startupTaints,
    instanceTypeOptions: c.options,
    requests: c.requests,
  }));
  return {
    ...plan,
    nodeClaims: [...planned, ...plan.nodeClaims],
    existingPlacements: plan.existingPlacements.filter((p) => !ids.has(p.node)),
  };
}
