/**
 * The one description of joiner's DynamoDB table. The CDK stack creates exactly this table and
 * the simulated cloud's `ensureTable()` creates the same one in dynalite, so keys, indexes and
 * the TTL attribute cannot drift apart.
 */

export type KeyType = 'S' | 'N';

export interface KeyAttribute {
  readonly name: string;
  readonly type: KeyType;
}

export interface IndexDescription {
  readonly indexName: string;
  readonly partitionKey: KeyAttribute;
  readonly sortKey?: KeyAttribute;
  /** Always ALL: readers get whole items from the index. */
  readonly projection: 'ALL';
}

export interface TableDescription {
  readonly partitionKey: KeyAttribute;
  readonly sortKey: KeyAttribute;
  readonly billingMode: 'PAY_PER_REQUEST';
  /** Epoch-seconds attribute DynamoDB TTL deletes by; garbage collection only, never a timer. */
  readonly ttlAttribute: string;
  readonly indexes: {
    /** Nodeclaims by launched instance id (interruptions, GC). Sparse: only launched claims. */
    readonly byInstanceId: IndexDescription;
    /** Nodeclaims with a pending timer, by (timer shard, earliest due-at). Sparse. */
    readonly byTimer: IndexDescription;
  };
  /** How many timer shards the byTimer index spreads over. */
  readonly timerShards: number;
}

export const TABLE: TableDescription = {
  partitionKey: { name: 'pk', type: 'S' },
  sortKey: { name: 'sk', type: 'S' },
  billingMode: 'PAY_PER_REQUEST',
  ttlAttribute: 'ttl',
  indexes: {
    byInstanceId: {
      indexName: 'byInstanceId',
      partitionKey: { name: 'instanceId', type: 'S' },
      projection: 'ALL',
    },
    byTimer: {
      indexName: 'byTimer',
      partitionKey: { name: 'timerShard', type: 'S' },
      sortKey: { name: 'dueAt', type: 'N' },
      projection: 'ALL',
    },
  },
  timerShards: 4,
};

/** Every key attribute of the table and its indexes (for `AttributeDefinitions`). */
export function tableAttributes(table: TableDescription = TABLE): KeyAttribute[] {
  const all = [
    table.partitionKey,
    table.sortKey,
    ...Object.values(table.indexes).flatMap((index) => [index.partitionKey, index.sortKey]),
  ].filter((a): a is KeyAttribute => a !== undefined);
  return [...new Map(all.map((a) => [a.name, a])).values()];
}
