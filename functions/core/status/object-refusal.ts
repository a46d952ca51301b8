/**
 * How joiner tells a user, on the object itself, that it refuses a configuration object or a
 * NodeClaim: False conditions on its status (the status's other fields kept) and one Warning event
 * on it, as Karpenter reports an object it will not act on.
 */
import type { ClusterApi, ConfigDocument } from '../ports/cluster-api.js';
import type { Condition } from './conditions.js';

/** The conditions an object's status holds now (none when it has no status yet). */
export function conditionsOf(document: ConfigDocument): readonly Condition[] {
  const status = document.status as { conditions?: unknown } | undefined;
  return Array.isArray(status?.conditions) ? (status.conditions as Condition[]) : [];
}

/** The Warning event of a refusal. */
export interface RefusalEvent {
  readonly reason: string;
  readonly message: string;
}

/**
 * Writes `conditions` as the object's status conditions (its other status fields kept), then one
 * Warning event on it. Throws what the API server answered; the caller decides whether to retry.
 */
export async function writeRefusal(
  cluster: Pick<ClusterApi, 'patchConfigStatus' | 'createEvents'>,
  document: ConfigDocument,
  conditions: readonly Condition[],
  event: RefusalEvent,
): Promise<void> {
  const { apiVersion, kind } = document;
  const name = document.metadata.name;
  const status = { ...((document.status as Record<string, unknown> | undefined) ?? {}), conditions };
  const uid = typeof document.metadata.uid === 'string' ? document.metadata.uid : undefined;
  await cluster.patchConfigStatus({ apiVersion, kind, name }, status);
  await cluster.createEvents([
    {
      involvedObject: { kind, name, apiVersion, ...(uid ? { uid } : {}) },
      type: 'Warning',
      reason: event.reason,
      message: event.message,
    },
  ]);
}
