/**
 * A launched instance EC2 terminated before its node registered: joiner reads the instance's
 * state reason (launch-termination.ts) instead of only seeing "the instance is stopping or
 * terminating". When it is a launch failure, the claim is retired with it as its failure (the
 * NodeClaim's conditions and `lastFailure`, the pods' Warning events name it), one Warning event
 * goes to the NodeClaim and one to its NodePool, one log line is written, and:
 * - a capacity cause marks the offering unavailable (3 minutes), so the next launch picks another,
 *   and once the claim is Gone the provisioner is woken at once for its pods (relaunch-hint.ts);
 * - a NodeClass cause needs no mark: the failed claim itself starts the NodeClass's launch
 *   backoff (nodeclass-launch-backoff.ts), which the provisioner and the status read.
 * Idempotent under duplicate and concurrent delivery: only the invocation whose version-checked
 * write moves the claim from Launched to Terminating marks, logs and writes events; the others
 * only help finish the retire.
 */
import type { LaunchTermination } from '../launch/launch-termination.js';
import { classifyLaunchTermination } from '../launch/launch-termination.js';
import { volumeKeysOf, withVolumeKeys } from '../launch/volume-key-hint.js';
import type { NodeClaim } from '../nodeclaim/nodeclaim.js';
import { transition } from '../nodeclaim/state-machine.js';
import type { CloudInstance, CloudProvider } from '../ports/cloud-provider.js';
import type { ClusterApi, ClusterEvent } from '../ports/cluster-api.js';
import type { StateStore } from '../ports/state-store.js';
import { NODE_CLAIM_API_VERSION, NODE_CLAIM_KIND } from '../status/nodeclaim-resource.js';
import { hintRelaunch, type PoolRef, type RelaunchHintDeps } from './relaunch-hint.js';
import { type RetireDeps, retireClaim } from './retire-claim.js';
import { updateClaim } from './update-claim.js';

/** What handling a launch-time termination needs. */
export interface LaunchTerminatedDeps extends RetireDeps, Pick<RelaunchHintDeps, 'events'> {
  readonly store: RetireDeps['store'] & Pick<StateStore, 'markOfferingsUnavailable' | 'listNodeClaims'>;
  readonly cloud: RetireDeps['cloud'] & Pick<CloudProvider, 'get'>;
  readonly cluster: RetireDeps['cluster'] &
    Pick<ClusterApi, 'listNodePoolDocuments'> &
    Partial<Pick<ClusterApi, 'listNodeClassDocuments'>>;
}

/**
 * Retires `claim` (Launched, never registered) with the launch failure its instance's state reason
 * tells (see the file comment). `instance` is read when not given. Returns the failure, or
 * undefined when the claim is not Launched or the instance did not end for a launch failure (the
 * caller then retires it its own way).
 */
export async function retireLaunchTerminated(
  deps: LaunchTerminatedDeps,
  claim: NodeClaim,
  instance?: CloudInstance,
): Promise<LaunchTermination | undefined> {
  const instanceId = claim.instance?.instanceId;
  if (claim.state !== 'Launched' || !instanceId) return undefined;
  const described = instance ?? (await deps.cloud.get(instanceId));
  if (described && described.state !== 'shutting-down' && described.state !== 'terminated') return undefined;
  const classified = classifyLaunchTermination(instanceId, described?.stateReason);
  if (!classified) return undefined;
  const termination = await namingVolumeKeys(deps, claim, classified);
  const failure = { reason: termination.reason, message: termination.message };
  let won = false;
  const stored = await updateClaim(deps.store, claim.id, (c) => {
    won = c.state === 'Launched';
    return won ? transition(c, 'Terminating', deps.clock.now(), { failure }) : undefined;
  });
  if (!stored) return undefined;
  const pool = won ? await report(deps, stored, termination) : undefined;
  await retireClaim(deps, claim.id, failure, { instanceGone: true, warn: won, from: ['Terminating'] });
  // Only the winner asks for the relaunch, once the claim is Gone (no run waits for it then).
  if (won) await hintRelaunch(deps, stored, termination, pool);
  return termination;
}

/** Marks, logs and writes the events; returns the claim's NodePool document when it is found. */
async function report(
  deps: LaunchTerminatedDeps,
  claim: NodeClaim,
  t: LaunchTermination,
): Promise<PoolRef | undefined> {
  const i = claim.instance;
  if (t.cause === 'offering' && i) {
    const offering = { instanceType: i.instanceType, zone: i.zone, capacityType: i.capacityType };
    await deps.store.markOfferingsUnavailable([offering], t.code, deps.clock.now());
  }
  deps.log.warn('EC2 terminated the instance during launch', {
    nodeclaim: claim.id,
    nodepool: claim.nodePool,
    nodeclass: claim.nodeClass,
    instance: i?.instanceId,
    type: i?.instanceType,
    zone: i?.zone,
    'capacity-type': i?.capacityType,
    'state-reason': t.code,
    reason: t.reason,
    action: t.cause === 'offering' ? 'offering marked unavailable' : 'NodeClass launches back off',
  });
  const events: ClusterEvent[] = [
    {
      involvedObject: { kind: NODE_CLAIM_KIND, apiVersion: NODE_CLAIM_API_VERSION, name: claim.id },
      type: 'Warning',
      reason: t.reason,
      message: t.message,
    },
  ];
  const pools = await deps.cluster.listNodePoolDocuments().catch(() => []);
  const pool = pools.find((d) => d.metadata.name === claim.nodePool);
  if (pool)
    events.push({
      involvedObject: { kind: pool.kind, apiVersion: pool.apiVersion, name: pool.metadata.name },
      type: 'Warning',
      reason: t.reason,
      message: `nodeclaim ${claim.id}: ${t.message}`,
    });
  await deps.cluster.createEvents(events);
  return pool ? { apiVersion: pool.apiVersion, kind: pool.kind, name: pool.metadata.name } : undefined;
}

/** A `Client.InternalError` names the NodeClass's volume keys and the setting that grants them. */
async function namingVolumeKeys(
  deps: LaunchTerminatedDeps,
  claim: NodeClaim,
  t: LaunchTermination,
): Promise<LaunchTermination> {
  if (t.code !== 'Client.InternalError' || !deps.cluster.listNodeClassDocuments) return t;
  const docs = await deps.cluster.listNodeClassDocuments().catch(() => []);
  const keys = docs.filter((d) => d.metadata.name === claim.nodeClass).flatMap(volumeKeysOf);
  return withVolumeKeys(t, claim.nodeClass, [...new Set(keys)]);
}
