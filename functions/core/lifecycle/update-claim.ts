import type { NodeClaim } from '../nodeclaim/nodeclaim.js';
import { ConflictError, type StateStore } from '../ports/state-store.js';

/** How often a decision is re-made after losing an optimistic-concurrency race. */
const MAX_ATTEMPTS = 5;

/**
 * Reads the claim, asks `decide` for its next version and writes it if the stored version did not
 * change meanwhile; on a {@link ConflictError} it re-reads and decides again. `decide` returns
 * `undefined` (or the claim itself) when there is nothing to do. Returns the claim as stored
 * afterwards, or undefined when the claim does not exist. `known` is the claim as the caller has
 * just read or written it: the first decision is made on it without reading the claim again (a
 * write is still conditional on its version, so a claim changed meanwhile is re-read); when that
 * decision is to do nothing, `known` is returned as it is.
 */
export async function updateClaim(
  store: Pick<StateStore, 'getNodeClaim' | 'updateNodeClaim'>,
  id: string,
  decide: (claim: NodeClaim) => NodeClaim | undefined,
  known?: NodeClaim,
): Promise<NodeClaim | undefined> {
  for (let attempt = 1; ; attempt++) {
    const claim = attempt === 1 && known?.id === id ? known : await store.getNodeClaim(id);
    if (!claim) return undefined;
    const next = decide(claim);
    if (next === undefined || next === claim) return claim;
    try {
      return await store.updateNodeClaim(next);
    } catch (error) {
      if (!(error instanceof ConflictError) || attempt >= MAX_ATTEMPTS) throw error;
    }
  }
}
