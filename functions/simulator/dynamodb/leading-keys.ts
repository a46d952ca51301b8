/**
 * `dynamodb:LeadingKeys`, as DynamoDB puts it in the request context of item-level calls: the
 * partition key values of the items the call reads or writes (GetItem, PutItem, UpdateItem,
 * DeleteItem, ConditionCheckItem, each table of BatchGetItem / BatchWriteItem, the partition key
 * of a Query's key condition). Without it a `ForAllValues:StringEquals` condition on the key would
 * hold vacuously and let a function touch any item. The partition key names come from the
 * CreateTable calls the simulator saw.
 */

/** A DynamoDB attribute value (`{ S: 'x' }`, `{ N: '1' }`, `{ B: '…' }`). */
type AttributeValue = Readonly<Record<string, unknown>>;

/** Partition key attribute names, per table and per `table/index/name`. */
export class PartitionKeys {
  private readonly names = new Map<string, string>();

  /** Learns the partition keys of a CreateTable request (the table's and its indexes'). */
  learn(operation: string, body: Readonly<Record<string, unknown>>): void {
    if (operation !== 'CreateTable' || typeof body.TableName !== 'string') return;
    const table = body.TableName;
    const hash = hashKeyOf(body.KeySchema);
    if (hash) this.names.set(table, hash);
    for (const list of [body.GlobalSecondaryIndexes, body.LocalSecondaryIndexes]) {
      for (const index of Array.isArray(list) ? list : []) {
        const key = hashKeyOf((index as { KeySchema?: unknown }).KeySchema);
        const name = (index as { IndexName?: unknown }).IndexName;
        if (key && typeof name === 'string') this.names.set(`${table}/index/${name}`, key);
      }
    }
  }

  /**
   * The `dynamodb:LeadingKeys` of `operation` on `resource` (a table or `table/index/name` the
   * call names), or undefined when the call carries none (Scan, DescribeTable, a table whose key
   * the simulator never saw created).
   */
  leadingKeys(
    operation: string,
    resource: string,
    body: Readonly<Record<string, unknown>>,
  ): string[] | undefined {
    const key = this.names.get(resource);
    if (!key) return undefined;
    const table = resource.split('/')[0];
    const of = (item: unknown) => scalar((item as Record<string, AttributeValue> | undefined)?.[key]);
    switch (operation) {
      case 'GetItem':
      case 'DeleteItem':
      case 'UpdateItem':
      case 'ConditionCheckItem':
        return values([of(body.Key)]);
      case 'PutItem':
        return values([of(body.Item)]);
      case 'BatchGetItem': {
        const entry = (body.RequestItems as Record<string, { Keys?: unknown[] }> | undefined)?.[table];
        return values((entry?.Keys ?? []).map(of));
      }
      case 'BatchWriteItem': {
        const writes = (body.RequestItems as Record<string, unknown[]> | undefined)?.[table] ?? [];
        return values(
          writes.map((w) => {
            const write = w as { PutRequest?: { Item?: unknown }; DeleteRequest?: { Key?: unknown } };
            return of(write.PutRequest?.Item ?? write.DeleteRequest?.Key);
          }),
        );
      }
      case 'Query':
        return values([queryPartition(body, key)]);
      default:
        return undefined;
    }
  }
}

function hashKeyOf(schema: unknown): string | undefined {
  if (!Array.isArray(schema)) return undefined;
  const hash = schema.find((k) => (k as { KeyType?: unknown }).KeyType === 'HASH') as
    | { AttributeName?: unknown }
    | undefined;
  return typeof hash?.AttributeName === 'string' ? hash.AttributeName : undefined;
}

/** The partition key value a Query's key condition (expression or legacy KeyConditions) names. */
function queryPartition(body: Readonly<Record<string, unknown>>, key: string): string | undefined {
  const legacy = (body.KeyConditions as Record<string, { AttributeValueList?: unknown[] }> | undefined)?.[
    key
  ];
  if (legacy) return scalar(legacy.AttributeValueList?.[0] as AttributeValue | undefined);
  const expression = typeof body.KeyConditionExpression === 'string' ? body.KeyConditionExpression : '';
  const names = (body.ExpressionAttributeNames ?? {}) as Record<string, string>;
  const attributeValues = (body.ExpressionAttributeValues ?? {}) as Record<string, AttributeValue>;
  for (const m of expression.matchAll(/([#\w.-]+)\s*=\s*(:[\w]+)/g)) {
    const name = m[1].startsWith('#') ? names[m[1]] : m[1];
    if (name === key) return scalar(attributeValues[m[2]]);
  }
  return undefined;
}

function scalar(value: AttributeValue | undefined): string | undefined {
  if (!value) return undefined;
  for (const type of ['S', 'N', 'B'] as const) {
    if (typeof value[type] === 'string') return value[type] as string;
  }
  return undefined;
}

function values(list: (string | undefined)[]): string[] | undefined {
  const present = list.filter((v): v is string => v !== undefined);
  return present.length > 0 ? [...new Set(present)] : undefined;
}
