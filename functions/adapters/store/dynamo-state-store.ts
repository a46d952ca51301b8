import {
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  type QueryCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { NodeClaim, NodeClaimState } from '../../core/nodeclaim/nodeclaim.js';
import {
  type ConditionalRelease,
  ConflictError,
  type Lease,
  type OfferingKey,
  type StateStore,
  UNAVAILABLE_OFFERING_TTL_MS,
  type UnavailableOffering,
} from '../../core/ports/state-store.js';
import { TABLE } from '../../shared/table.js';
import { claimFromItem, nodeClaimItem, offeringSortKey, PK, ttlSeconds } from './items.js';

/** The run requests counted on a lease item (none before the first). */
function requestsOf(item: Record<string, unknown>): number {
  return typeof item.requests === 'number' ? item.requests : 0;
}

/** Whether an SDK error is a failed condition. */
export function isConditionFailed(error: unknown): boolean {
  return (error as { name?: string })?.name === 'ConditionalCheckFailedException';
}

/**
 * The DynamoDB single-table {@link StateStore} (layout in functions/shared/table.ts). All writes
 * are single-item conditional writes (no transactions), so it also runs on dynalite.
 */
/** The most operands DynamoDB's `IN` comparator takes. */
const MAX_IN_VALUES = 100;

export class DynamoStateStore implements StateStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async createNodeClaim(claim: NodeClaim): Promise<boolean> {
    return this.sendIf(
      new PutCommand({
        TableName: this.tableName,
        Item: nodeClaimItem({ ...claim, version: 1 }),
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async getNodeClaim(id: string): Promise<NodeClaim | undefined> {
    const out = await this.doc.send(
      new GetCommand({ TableName: this.tableName, Key: { pk: PK.nodeClaim, sk: id }, ConsistentRead: true }),
    );
    return out.Item ? claimFromItem(out.Item) : undefined;
  }

  async updateNodeClaim(claim: NodeClaim): Promise<NodeClaim> {
    const next = { ...claim, version: claim.version + 1 };
    try {
      await this.doc.send(
        new PutCommand({
          TableName: this.tableName,
          Item: nodeClaimItem(next),
          ...(claim.leaseToken === undefined
            ? {
                ConditionExpression: 'version = :expected',
                ExpressionAttributeValues: { ':expected': claim.version },
              }
            : {
                ConditionExpression:
                  'version = :expected AND (attribute_not_exists(leaseToken) OR leaseToken <= :lease)',
                ExpressionAttributeValues: { ':expected': claim.version, ':lease': claim.leaseToken },
              }),
        }),
      );
      return next;
    } catch (error) {
      if (isConditionFailed(error)) {
        throw new ConflictError(
          `nodeclaim ${claim.id} changed since version ${claim.version} was read, or a newer provisioning lease wrote it`,
        );
      }
      throw error;
    }
  }

  async listNodeClaims(states?: readonly NodeClaimState[]): Promise<NodeClaim[]> {
    // DynamoDB filters the states before answering: the claims of other states (Gone ones are kept
    // a day) are read and billed, but not sent, parsed and held by the caller.
    const wanted = states ? [...new Set(states)] : undefined;
    const byState =
      wanted && wanted.length > 0 && wanted.length <= MAX_IN_VALUES
        ? {
            FilterExpression: `#state IN (${wanted.map((_, i) => `:s${i}`).join(', ')})`,
            ExpressionAttributeNames: { '#state': 'state' },
          }
        : {};
    const items = await this.queryAll({
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk',
      ...byState,
      ExpressionAttributeValues: {
        ':pk': PK.nodeClaim,
        ...(byState.FilterExpression ? Object.fromEntries(wanted!.map((s, i) => [`:s${i}`, s])) : {}),
      },
      ConsistentRead: true,
    });
    const claims = items.map(claimFromItem);
    return states ? claims.filter((c) => states.includes(c.state)) : claims;
  }

  async findNodeClaimByInstanceId(instanceId: string): Promise<NodeClaim | undefined> {
    const items = await this.queryAll({
      TableName: this.tableName,
      IndexName: TABLE.indexes.byInstanceId.indexName,
      KeyConditionExpression: 'instanceId = :id',
      ExpressionAttributeValues: { ':id': instanceId },
    });
    // GSIs are eventually consistent: confirm with a consistent read of the item.
    const first = items[0] ? claimFromItem(items[0]) : undefined;
    return first ? this.getNodeClaim(first.id) : undefined;
  }

  async listDueNodeClaims(now: number, limit = 100): Promise<NodeClaim[]> {
    const shards = Array.from({ length: TABLE.timerShards }, (_, i) => String(i));
    const perShard = await Promise.all(
      shards.map((shard) =>
        this.queryAll(
          {
            TableName: this.tableName,
            IndexName: TABLE.indexes.byTimer.indexName,
            KeyConditionExpression: 'timerShard = :s AND dueAt <= :now',
            ExpressionAttributeValues: { ':s': shard, ':now': now },
          },
          limit,
        ),
      ),
    );
    return perShard
      .flat()
      .sort((a, b) => (a.dueAt as number) - (b.dueAt as number))
      .slice(0, limit)
      .map(claimFromItem);
  }

  async markOfferingsUnavailable(
    offerings: readonly OfferingKey[],
    reason: string,
    now: number,
    ttlMs = UNAVAILABLE_OFFERING_TTL_MS,
  ): Promise<void> {
    const expiresAt = now + ttlMs;
    await Promise.all(
      offerings.map((o) =>
        this.doc.send(
          new PutCommand({
            TableName: this.tableName,
            Item: {
              pk: PK.offering,
              sk: offeringSortKey(o),
              instanceType: o.instanceType,
              zone: o.zone,
              capacityType: o.capacityType,
              reason,
              expiresAt,
              ttl: ttlSeconds(expiresAt + 3_600_000),
            },
          }),
        ),
      ),
    );
  }

  async listUnavailableOfferings(now: number): Promise<UnavailableOffering[]> {
    const items = await this.queryAll({
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk',
      FilterExpression: 'expiresAt > :now',
      ExpressionAttributeValues: { ':pk': PK.offering, ':now': now },
      ConsistentRead: true,
    });
    return items.map((i) => ({
      instanceType: i.instanceType as string,
      zone: i.zone as string,
      capacityType: i.capacityType as UnavailableOffering['capacityType'],
      reason: i.reason as string,
      expiresAt: i.expiresAt as number,
    }));
  }

  async acquireLease(name: string, holder: string, now: number, ttlMs: number): Promise<Lease | undefined> {
    try {
      const out = await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: PK.lease, sk: name },
          UpdateExpression:
            'SET holder = :h, expiresAt = :e, #t = if_not_exists(#t, :zero) + :one, #ttl = :ttl',
          ConditionExpression: 'attribute_not_exists(pk) OR expiresAt <= :now OR holder = :h',
          ExpressionAttributeNames: { '#t': 'token', '#ttl': TABLE.ttlAttribute },
          ExpressionAttributeValues: {
            ':h': holder,
            ':e': now + ttlMs,
            ':now': now,
            ':zero': 0,
            ':one': 1,
            ':ttl': ttlSeconds(now + ttlMs + 86_400_000),
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      const a = out.Attributes ?? {};
      return {
        name,
        holder,
        expiresAt: a.expiresAt as number,
        token: a.token as number,
        requests: requestsOf(a),
      };
    } catch (error) {
      if (isConditionFailed(error)) return undefined;
      throw error;
    }
  }

  async renewLease(lease: Lease, now: number, ttlMs: number): Promise<Lease | undefined> {
    const renewed = await this.sendIf(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { pk: PK.lease, sk: lease.name },
        UpdateExpression: 'SET expiresAt = :e, #ttl = :ttl',
        ConditionExpression: 'holder = :h AND #t = :t AND expiresAt > :zero',
        ExpressionAttributeNames: { '#t': 'token', '#ttl': TABLE.ttlAttribute },
        ExpressionAttributeValues: {
          ':h': lease.holder,
          ':t': lease.token,
          ':e': now + ttlMs,
          ':zero': 0,
          ':ttl': ttlSeconds(now + ttlMs + 86_400_000),
        },
      }),
    );
    return renewed ? { ...lease, expiresAt: now + ttlMs } : undefined;
  }

  async releaseLease(lease: Lease): Promise<void> {
    // A lease taken over since, or already released, is left as it is.
    await this.sendIf(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { pk: PK.lease, sk: lease.name },
        UpdateExpression: 'SET expiresAt = :zero',
        ConditionExpression: 'holder = :h AND #t = :t',
        ExpressionAttributeNames: { '#t': 'token' },
        ExpressionAttributeValues: { ':h': lease.holder, ':t': lease.token, ':zero': 0 },
      }),
    );
  }

  async requestLeaseRun(name: string, now: number): Promise<boolean> {
    return this.sendIf(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { pk: PK.lease, sk: name },
        UpdateExpression: 'ADD requests :one',
        ConditionExpression: 'attribute_exists(pk) AND expiresAt > :now',
        ExpressionAttributeValues: { ':one': 1, ':now': now },
      }),
    );
  }

  async releaseLeaseUnlessRequested(lease: Lease, seen: number): Promise<ConditionalRelease> {
    const released = await this.sendIf(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { pk: PK.lease, sk: lease.name },
        UpdateExpression: 'SET expiresAt = :zero',
        ConditionExpression: `holder = :h AND #t = :t AND ${seen === 0 ? '(attribute_not_exists(requests) OR requests = :seen)' : 'requests = :seen'}`,
        ExpressionAttributeNames: { '#t': 'token' },
        ExpressionAttributeValues: { ':h': lease.holder, ':t': lease.token, ':zero': 0, ':seen': seen },
      }),
    );
    if (released) return { released: true };
    const held = await this.readLease(lease.name);
    if (held?.holder !== lease.holder || held.token !== lease.token) return { released: true };
    return { released: false, requests: requestsOf(held) };
  }

  private async readLease(name: string): Promise<Record<string, unknown> | undefined> {
    const out = await this.doc.send(
      new GetCommand({ TableName: this.tableName, Key: { pk: PK.lease, sk: name }, ConsistentRead: true }),
    );
    return out.Item;
  }

  async recordOnce(key: string, now: number, ttlMs: number): Promise<boolean> {
    return this.sendIf(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          pk: PK.idempotency,
          sk: key,
          expiresAt: now + ttlMs,
          [TABLE.ttlAttribute]: ttlSeconds(now + ttlMs),
        },
        ConditionExpression: 'attribute_not_exists(pk) OR expiresAt <= :now',
        ExpressionAttributeValues: { ':now': now },
      }),
    );
  }

  /** Sends a conditional write: false when its condition failed; any other error is thrown. */
  private async sendIf(command: PutCommand | UpdateCommand): Promise<boolean> {
    try {
      // Two calls, one per command type: the client's send is overloaded by command.
      await (command instanceof PutCommand ? this.doc.send(command) : this.doc.send(command));
      return true;
    } catch (error) {
      if (isConditionFailed(error)) return false;
      throw error;
    }
  }

  private async queryAll(input: QueryCommandInput, limit = Number.POSITIVE_INFINITY) {
    const items: Record<string, unknown>[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const out = await this.doc.send(new QueryCommand({ ...input, ExclusiveStartKey: start }));
      items.push(...(out.Items ?? []));
      start = out.LastEvaluatedKey;
    } while (start && items.length < limit);
    return items;
  }
}
