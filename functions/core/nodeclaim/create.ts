import { createHash } from 'node:crypto';
import type { NodeClaim } from './nodeclaim.js';
import { DEFAULT_TIMEOUTS, type NodeClaimTimeouts } from './state-machine.js';

/** What a new nodeclaim is made from (a planned nodeclaim plus its pool/class identities). */
export type NewNodeClaim = Pick<
  NodeClaim,
  | 'id'
  | 'nodePool'
  | 'nodeClass'
  | 'nodePoolHash'
  | 'nodeClassHash'
  | 'nodePoolHashVersion'
  | 'nodeClassHashVersion'
  | 'requirements'
  | 'labels'
  | 'annotations'
  | 'taints'
  | 'startupTaints'
  | 'expireAfterMs'
  | 'terminationGracePeriodMs'
  | 'options'
  | 'pods'
  | 'requests'
  | 'static'
> & {
  /** Epoch ms after which the node expires (NodePool `expireAfter`); omitted for `Never`. */
  readonly expiresAt?: number;
};

/**
 * A deterministic nodeclaim id: `<nodepool>-<10 hex>` from the pool, the sorted pod uids and a
 * salt. Two invocations that plan the same pods with the same salt get the same id, so the
 * conditional create lets only one of them launch.
 */
export function nodeClaimId(nodePool: string, podUids: readonly string[], salt = ''): string {
  const digest = createHash('sha256')
    .update(`${nodePool}\n${[...podUids].sort().join('\n')}\n${salt}`)
    .digest('hex');
  return `${nodePool}-${digest.slice(0, 10)}`;
}

/** Creates a Pending nodeclaim at `now`, with its launch token and launch timeout armed. */
export function newNodeClaim(
  input: NewNodeClaim,
  now: number,
  timeouts: NodeClaimTimeouts = DEFAULT_TIMEOUTS,
): NodeClaim {
  if (input.options.length === 0)
    throw new Error(`nodeclaim ${input.id}: no instance-type options to launch`);
  const { expiresAt, ...rest } = input;
  return {
    ...rest,
    launchToken: `joiner-${input.id}`,
    launchAttempts: 0,
    state: 'Pending',
    version: 0,
    timestamps: { Pending: now },
    timers: {
      launchTimeout: now + timeouts.launchMs,
      ...(expiresAt === undefined ? {} : { expiration: expiresAt }),
    },
  };
}
