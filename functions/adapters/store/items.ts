import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { NodeClaim } from '../../core/nodeclaim/nodeclaim.js';
import { nextTimer } from '../../core/nodeclaim/state-machine.js';
import type { OfferingKey } from '../../core/ports/state-store.js';
import { TABLE } from '../../shared/table.js';
import { DecodedClaims, type StoredClaim } from './decoded-claims.js';

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

/**
 * A nodeclaim as stored: the claim itself as gzip-compressed JSON in one binary attribute, plus the
 * top-level attributes the table's keys, indexes and conditions use, and a few readable ones for
 * whoever browses the table.
 *
 * One compressed attribute rather than a nested map: a claim carries its ranked offerings, its
 * pods and their requests. As a DynamoDB map, a claim of 20 pods and 78 offerings is an 11 KiB
 * item (scale-interruption's writes averaged 18 KiB on the wire), billed a write unit per started
 * KiB on the table and again on each index it is in. Compressed it is about 1.5 KiB, and neither
 * the SDK nor DynamoDB walks it attribute by attribute.
 */
export interface NodeClaimItem {
  pk: string;
  sk: string;
  version: number;
  state: string;
  /** The claim without its version (the `version` attribute is the truth), gzip-compressed JSON. */
  claimGzip: Uint8Array;
  /** Readable copies for whoever browses the table; joiner reads the claim from `claimGzip`. */
  nodePool: string;
  nodeName?: string;
  instanceType?: string;
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
  const { version, ...rest } = claim;
  const item: NodeClaimItem = {
    pk: PK.nodeClaim,
    sk: claim.id,
    version,
    state: claim.state,
    claimGzip: gzipSync(JSON.stringify(rest)),
    nodePool: claim.nodePool,
  };
  if (claim.nodeName) item.nodeName = claim.nodeName;
  if (claim.instance?.instanceType) item.instanceType = claim.instance.instanceType;
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

/** The claims this execution environment decoded (see decoded-claims.ts). */
const decoded = new DecodedClaims();

/**
 * Reads a claim back from its item (the version attribute is the truth). Items written before the
 * claim was compressed carry it as a map in `claim`; they are read as they are and rewritten
 * compressed at their next write.
 */
export function claimFromItem(item: Record<string, unknown>): NodeClaim {
  const where = `state table item ${String(item.pk)}/${String(item.sk)}`;
  if (typeof item.version !== 'number') throw new Error(`${where} has no numeric version attribute`);
  if (item.claimGzip instanceof Uint8Array) {
    const claim = decoded.decode(String(item.sk), item.claimGzip, (bytes) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(gunzipSync(bytes).toString('utf8'));
      } catch (error) {
        throw new Error(
          `${where} has a claimGzip attribute that is not gzip-compressed JSON: ${(error as Error).message}`,
        );
      }
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
        throw new Error(`${where} has a claimGzip attribute that does not hold a nodeclaim object`);
      }
      return parsed as StoredClaim;
    });
    return { ...claim, version: item.version };
  }
  if (item.claim && typeof item.claim === 'object')
    return { ...(item.claim as NodeClaim), version: item.version };
  throw new Error(`${where} has neither a claimGzip nor a claim attribute`);
}

/** Sort key of an offering. */
export function offeringSortKey(o: OfferingKey): string {
  return `${o.instanceType}|${o.zone}|${o.capacityType}`;
}
