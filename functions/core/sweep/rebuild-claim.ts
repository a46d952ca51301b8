/**
 * The claim of an instance whose claim record is missing, rebuilt from what survives outside the
 * table: the instance, its node and its tags (the sweep's adoption, adopt-instance.ts, and an
 * interruption for such an instance, interruption/adopt-interrupted.ts).
 */
import {
  ANNOTATION_NODECLASS_HASH,
  ANNOTATION_NODECLASS_HASH_VERSION,
  ANNOTATION_NODEPOOL_HASH,
  ANNOTATION_NODEPOOL_HASH_VERSION,
} from '../lifecycle/node-labels.js';
import type { Node } from '../model/kube-objects.js';
import type { NodeClaim } from '../nodeclaim/nodeclaim.js';
import { DEFAULT_TIMEOUTS } from '../nodeclaim/state-machine.js';
import type { CloudInstance } from '../ports/cloud-provider.js';

/**
 * The claim of `instance` rebuilt from what survives outside the table (see the file comment):
 * `Registered` on `node`, its NodePool's labels, taints and requirements (when the pool still
 * exists), the drift hashes its node was annotated with, the registration timeout armed so a
 * node that never initializes is still retired, and no pods (it was planned for none it knows).
 */
export function rebuildClaim(input: {
  readonly id: string;
  readonly instance: CloudInstance;
  readonly node: Node;
  readonly nodeClass: string;
  readonly pool?: {
    readonly labels: NodeClaim['labels'];
    readonly taints: NodeClaim['taints'];
    readonly startupTaints: NodeClaim['startupTaints'];
    readonly requirements: NodeClaim['requirements'];
    readonly expireAfterMs: number | null;
    readonly terminationGracePeriodMs?: number;
  };
  readonly price?: number;
  readonly now: number;
}): NodeClaim {
  const { instance, node, pool, now } = input;
  const annotations = node.metadata.annotations ?? {};
  const launchedAt = Math.min(instance.launchTime, now);
  const option = {
    instanceType: instance.instanceType,
    zone: instance.zone,
    capacityType: instance.capacityType,
    price: input.price ?? 0,
  };
  const expiration = pool && pool.expireAfterMs !== null ? launchedAt + pool.expireAfterMs : undefined;
  return {
    id: input.id,
    nodePool: instance.nodePool ?? node.metadata.labels?.['karpenter.sh/nodepool'] ?? '',
    nodeClass: input.nodeClass,
    nodePoolHash: annotations[ANNOTATION_NODEPOOL_HASH] ?? '',
    nodeClassHash: annotations[ANNOTATION_NODECLASS_HASH] ?? '',
    ...optional('nodePoolHashVersion', annotations[ANNOTATION_NODEPOOL_HASH_VERSION]),
    ...optional('nodeClassHashVersion', annotations[ANNOTATION_NODECLASS_HASH_VERSION]),
    requirements: pool?.requirements ?? [],
    labels: pool?.labels ?? {},
    taints: pool?.taints ?? [],
    startupTaints: pool?.startupTaints ?? [],
    ...(pool ? { expireAfterMs: pool.expireAfterMs } : {}),
    ...(pool?.terminationGracePeriodMs === undefined
      ? {}
      : { terminationGracePeriodMs: pool.terminationGracePeriodMs }),
    options: [option],
    pods: [],
    requests: {},
    launchToken: `joiner-${input.id}`,
    launchAttempts: 1,
    state: 'Registered',
    version: 0,
    timestamps: { Pending: launchedAt, Launched: launchedAt, Registered: now },
    timers: {
      registrationTimeout: now + DEFAULT_TIMEOUTS.registrationMs,
      ...(expiration === undefined ? {} : { expiration: Math.max(expiration, now) }),
    },
    instance: {
      instanceId: instance.instanceId,
      instanceType: instance.instanceType,
      zone: instance.zone,
      capacityType: instance.capacityType,
      ...(input.price === undefined ? {} : { price: input.price }),
      ...(instance.imageId ? { imageId: instance.imageId } : {}),
      providerId: `aws:///${instance.zone}/${instance.instanceId}`,
    },
    nodeName: node.metadata.name,
  };
}

function optional<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, string>);
}
