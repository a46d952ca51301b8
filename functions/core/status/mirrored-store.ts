/**
 * A {@link StateStore} that mirrors every nodeclaim it writes into the cluster as a NodeClaim
 * resource (deleted once the claim is Gone), so `kubectl get nodeclaims.joiner.sh` follows the
 * claims as they change. DynamoDB stays the truth: the mirror write follows a successful store
 * write, never fails it, and the sweep's status step repairs whatever a lost write left behind.
 * A write that would not change the resource this store last wrote for the claim is not sent (a
 * drain step moves its timer every few seconds, which the resource does not show); should another
 * function have written the resource since, the sweep's status step brings it in line.
 */
import type { NodeClaim } from '../nodeclaim/nodeclaim.js';
import type { Clock } from '../ports/clock.js';
import type { ClusterApi } from '../ports/cluster-api.js';
import type { Log } from '../ports/log.js';
import type { StateStore } from '../ports/state-store.js';
import { type NodePoolOwner, nodeClaimResource } from './nodeclaim-resource.js';
import { ownersOf } from './report-status.js';

/** How long the NodePool owners (names → uids) are reused before being listed again. */
export const OWNERS_TTL_MS = 60_000;

/** Most claims whose last written resource is remembered (forgotten all at once past it). */
const REMEMBERED_LIMIT = 10_000;

/** Wraps `store`; `cluster` is resolved on the first write (the functions build it lazily). */
export function mirroredStore(
  store: StateStore,
  cluster: () => Pick<ClusterApi, 'applyNodeClaims' | 'deleteNodeClaims' | 'listNodePoolDocuments'>,
  clock: Clock,
  log: Log,
): StateStore {
  let owners: { at: number; byName: Map<string, NodePoolOwner> } | undefined;
  const ownerOf = async (pool: string): Promise<NodePoolOwner | undefined> => {
    if (!owners || clock.now() - owners.at > OWNERS_TTL_MS || !owners.byName.has(pool)) {
      try {
        owners = { at: clock.now(), byName: ownersOf(await cluster().listNodePoolDocuments()) };
      } catch (error) {
        log.debug('nodeclaim mirror: NodePools not listed, writing without owner', { error: String(error) });
        return undefined;
      }
    }
    return owners.byName.get(pool);
  };
  /** Claim id -> the resource this store last wrote for it (as JSON). */
  const written = new Map<string, string>();
  const mirror = async (claim: NodeClaim, fresh: boolean): Promise<void> => {
    try {
      if (claim.state === 'Gone') {
        written.delete(claim.id);
        await cluster().deleteNodeClaims([claim.id]);
        return;
      }
      const resource = nodeClaimResource(claim, await ownerOf(claim.nodePool));
      const json = JSON.stringify(resource);
      if (!fresh && written.get(claim.id) === json) return;
      written.delete(claim.id);
      await cluster().applyNodeClaims([resource], { fresh });
      if (written.size >= REMEMBERED_LIMIT) written.clear();
      written.set(claim.id, json);
    } catch (error) {
      log.warn('nodeclaim mirror write failed, the sweep repairs it', {
        nodeclaim: claim.id,
        error: String(error),
      });
    }
  };
  return new Proxy(store, {
    get(target, property, receiver) {
      if (property === 'createNodeClaim') {
        return async (claim: NodeClaim): Promise<boolean> => {
          const created = await target.createNodeClaim(claim);
          if (created) await mirror({ ...claim, version: 1 }, true);
          return created;
        };
      }
      if (property === 'updateNodeClaim') {
        return async (claim: NodeClaim): Promise<NodeClaim> => {
          const stored = await target.updateNodeClaim(claim);
          await mirror(stored, false);
          return stored;
        };
      }
      const value = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
