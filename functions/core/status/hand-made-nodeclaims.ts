/**
 * NodeClaims of Karpenter's kind (`karpenter.sh`) that someone created by hand, where joiner
 * manages Karpenter's kinds. Karpenter's lifecycle controller launches any NodeClaim that is not
 * launched yet, whoever created it; joiner launches nodes only for pending pods, through its own
 * nodeclaims (mirrored as `nodeclaims.joiner.sh`), so it refuses such a NodeClaim loudly instead of
 * ignoring it: status conditions `Launched=False` and `Ready=False` with the reason, one Warning
 * event on the object and one log line. The object's status remembers the refusal, so later sweeps
 * (and a sweep running beside another) stay quiet. NodeClaims that are launched already (a
 * provider ID, or `Launched=True`: left behind by a Karpenter that ran before) are not touched.
 * With `karpenterKinds: ignore` a running Karpenter owns them all and joiner reads none.
 */
import type { KarpenterKinds } from '../model/config/karpenter-kinds.js';
import type { ClusterApi, ConfigDocument } from '../ports/cluster-api.js';
import type { Log } from '../ports/log.js';
import { condition } from './conditions.js';
import { conditionsOf, writeRefusal } from './object-refusal.js';

/** The reason of the conditions and of the event. */
export const HAND_MADE_NODECLAIM_REASON = 'NotSupported';

/** The message a refused NodeClaim gets. */
export const HAND_MADE_NODECLAIM_MESSAGE =
  'joiner does not launch NodeClaims created by hand: it launches nodes for pending pods through its NodePools ' +
  '(its own nodeclaims are listed as nodeclaims.joiner.sh). This NodeClaim gets no node; delete it, and create ' +
  'pods that a NodePool can take instead';

type Cluster = Pick<ClusterApi, 'listKarpenterNodeClaimDocuments' | 'patchConfigStatus' | 'createEvents'>;

/** Whether a NodeClaim was launched (by a Karpenter that ran before): a provider ID or `Launched=True`. */
function launched(document: ConfigDocument): boolean {
  const status = document.status as { providerID?: unknown } | undefined;
  if (typeof status?.providerID === 'string' && status.providerID !== '') return true;
  return conditionsOf(document).some((c) => c.type === 'Launched' && c.status === 'True');
}

/** Whether its status already says joiner refused it. */
function refused(document: ConfigDocument): boolean {
  return conditionsOf(document).some(
    (c) => c.type === 'Launched' && c.status === 'False' && c.reason === HAND_MADE_NODECLAIM_REASON,
  );
}

/** The NodeClaims among `documents` joiner must refuse and has not yet (see the file comment). */
export function handMadeNodeClaims(documents: readonly ConfigDocument[]): ConfigDocument[] {
  return documents.filter(
    (d) => d.kind === 'NodeClaim' && !d.metadata.deletionTimestamp && !launched(d) && !refused(d),
  );
}

/**
 * Refuses each hand-made NodeClaim not refused yet (see the file comment); returns their names.
 * Best effort, never throws: a failed read or write is logged and the next sweep tries again.
 */
export async function refuseHandMadeNodeClaims(
  cluster: Cluster,
  log: Log,
  karpenterKinds: KarpenterKinds | undefined,
  now: number,
): Promise<string[]> {
  if (karpenterKinds === 'ignore' || !cluster.listKarpenterNodeClaimDocuments) return [];
  let documents: ConfigDocument[];
  try {
    documents = await cluster.listKarpenterNodeClaimDocuments();
  } catch (error) {
    log.warn('could not list karpenter.sh NodeClaims, the next sweep does', { error: String(error) });
    return [];
  }
  const refusedNow: string[] = [];
  for (const document of handMadeNodeClaims(documents)) {
    const { apiVersion } = document;
    const name = document.metadata.name;
    log.error(`refusing NodeClaim ${name}: ${HAND_MADE_NODECLAIM_MESSAGE}`, {
      nodeclaim: name,
      apiVersion,
      reason: HAND_MADE_NODECLAIM_REASON,
    });
    const others = conditionsOf(document).filter((c) => c.type !== 'Launched' && c.type !== 'Ready');
    const conditions = [
      ...others,
      condition('Launched', 'False', HAND_MADE_NODECLAIM_REASON, HAND_MADE_NODECLAIM_MESSAGE, now),
      condition('Ready', 'False', HAND_MADE_NODECLAIM_REASON, HAND_MADE_NODECLAIM_MESSAGE, now),
    ];
    try {
      await writeRefusal(cluster, document, conditions, {
        reason: HAND_MADE_NODECLAIM_REASON,
        message: HAND_MADE_NODECLAIM_MESSAGE,
      });
      refusedNow.push(name);
    } catch (error) {
      log.warn('could not report a refused NodeClaim, the next sweep reports it', {
        nodeclaim: name,
        error: (error as Error).message,
      });
    }
  }
  return refusedNow;
}
