import { createHash } from 'node:crypto';
import type { NodeClaim } from '../../core/nodeclaim/nodeclaim.js';
import { nextTimer } from '../../core/nodeclaim/state-machine.js';
import type { OfferingKey } from '../../core/ports/state-store.js';
import { TABLE } from '../../shared/table.js';

/** Partition keys of the single table: one per record kind. */
export const PK = {
  nodeClaim: 'nodeclaim',
  offering: 'offering',
  lease: 'lease',
  idempotency: 'idempotency',
  /** The live instance catalog snapshot (sort key `<region>#types` / `<region>#spot`). */
  catalog: 'catalog',
} as const;

/** How long a finished (Gone) nodeclaim is kept before TTL collects it. */
export const GONE_RETENTION_MS = 24 * 60 * 60_000;

/** A nodeclaim as stored: the claim as a map plus its top-level key and index attributes. */
export interface NodeClaimItem {
  pk: string;
  sk: string;
  version: number;
  state: string;
  claim: NodeClaim;
  instanceId?: string;
  /** The fencing token of the provisioning lease that last launched it (conditions compare it). */
  leaseToken?: number;
  timerShard?: string;
  dueAt?: number;
  ttl?: number;
}

/** The timer shard of a nodeclaim id (stable, spreads the byTimer index). */
export function timerShard(id: string, shards = TABLE.timerShards): string {
  const n = createHash('sha256').update(id).digest().readUInt32BE(0);
  return String(n % shards);
}

/** Epoch seconds for the TTL attribute. */
export function ttlSeconds(epochMs: number): number {
  return Math.ceil(epochMs / 1000);
}

/** Builds the stored item of a claim (version already set by the caller). */
export function nodeClaimItem(claim: NodeClaim): NodeClaimItem {
  const item: NodeClaimItem = {
    pk: PK.nodeClaim,
    sk: claim.id,
    version: claim.version,
    state: claim.state,
    claim,
  };
  if (claim.instance?.instanceId) item.instanceId = claim.instance.instanceId;
  if (claim.leaseToken !== undefined) item.leaseToken = claim.leaseToken;
  const next = nextTimer(claim);
  if (next) {
    item.timerShard = timerShard(claim.id);
    item.dueAt = next.dueAt;
  }
  if (claim.state === 'Gone') {
    item.ttl = ttlSeconds((claim.timestamps.Gone ?? 0) + GONE_RETENTION_MS);
  }
  return item;
}

/** Reads a claim back from its item (the version attribute is the truth). */
export function claimFromItem(item: Record<string, unknown>): NodeClaim {
  const stored = item as unknown as NodeClaimItem;
  if (!stored.claim || typeof stored.claim !== 'object') {
    throw new Error(`state table item ${stored.pk}/${stored.sk} has no claim attribute`);
  }
  return { ...stored.claim, version: stored.version };
}

/** Sort key of an offering. */
export function offeringSortKey(o: OfferingKey): string {
  return `${o.instanceType}|${o.zone}|${o.capacityType}`;
}
