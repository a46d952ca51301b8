/**
 * Finds the drifted nodes of a round: for each initialized claim, its NodePool and NodeClass as
 * they are now, its node's labels, and what EC2 says of its instance and of what the NodeClass
 * resolves to (AMIs, subnets, security groups; resolved once per NodeClass, from the providers'
 * caches). A NodeClass that cannot be resolved now is skipped for cloud drift, never guessed.
 */
import type { NodeClass } from '../model/node-class.js';
import type { CloudInstance, NodeClassResolution } from '../ports/cloud-provider.js';
import type { DisruptionDeps } from './disruption-deps.js';
import type { DisruptionView } from './disruption-view.js';
import { driftOf } from './drift.js';

/** Drift found per claim id. */
export async function findDrift(
  deps: Pick<DisruptionDeps, 'cloud' | 'log'>,
  view: DisruptionView,
): Promise<Map<string, { readonly message: string }>> {
  const found = new Map<string, { message: string }>();
  const candidates = view.claims.filter((c) => c.state === 'Initialized' && view.nodeOf(c));
  if (candidates.length === 0) return found;
  const instances = await listInstances(deps);
  const resolved = new Map<string, Promise<NodeClassResolution | undefined>>();
  const resolve = (nodeClass: NodeClass): Promise<NodeClassResolution | undefined> => {
    let r = resolved.get(nodeClass.name);
    if (!r) {
      r = resolveNodeClass(deps, nodeClass);
      resolved.set(nodeClass.name, r);
    }
    return r;
  };
  for (const claim of candidates) {
    const pool = view.poolOf(claim);
    const nodeClass = view.config.nodeClasses.find((c) => c.name === claim.nodeClass);
    const node = view.nodeOf(claim);
    if (!pool || !nodeClass || !node) continue;
    const instance = claim.instance ? instances.get(claim.instance.instanceId) : undefined;
    const resolvedNow = instance ? await resolve(nodeClass) : undefined;
    try {
      const drift = driftOf({
        claim,
        nodeLabels: node.metadata.labels ?? {},
        nodePool: pool,
        nodeClass,
        instance: instance && {
          imageId: instance.imageId,
          subnetId: instance.subnetId,
          securityGroupIds: instance.securityGroupIds,
        },
        resolved: resolvedNow,
      });
      if (drift) found.set(claim.id, { message: `${drift.reason}: ${drift.message}` });
    } catch (error) {
      deps.log.error('could not check drift', { nodeclaim: claim.id, error: String(error) });
    }
  }
  return found;
}

async function listInstances(
  deps: Pick<DisruptionDeps, 'cloud' | 'log'>,
): Promise<Map<string, CloudInstance>> {
  try {
    return new Map((await deps.cloud.list()).map((i) => [i.instanceId, i]));
  } catch (error) {
    deps.log.warn('could not list instances, cloud drift not checked this round', { error: String(error) });
    return new Map();
  }
}

async function resolveNodeClass(
  deps: Pick<DisruptionDeps, 'cloud' | 'log'>,
  nodeClass: NodeClass,
): Promise<NodeClassResolution | undefined> {
  if (!deps.cloud.resolveNodeClass) return undefined;
  try {
    return await deps.cloud.resolveNodeClass(nodeClass);
  } catch (error) {
    deps.log.warn('could not resolve NodeClass, cloud drift not checked this round', {
      nodeclass: nodeClass.name,
      error: String(error),
    });
    return undefined;
  }
}
