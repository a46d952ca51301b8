import {
  CreateTableCommand,
  type CreateTableCommandInput,
  DescribeTableCommand,
  type DynamoDBClient,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { TABLE, type TableDescription, tableAttributes } from '../../shared/table.js';

/** The CreateTable request for joiner's table (the same shape the CDK stack declares). */
export function createTableInput(
  tableName: string,
  table: TableDescription = TABLE,
): CreateTableCommandInput {
  return {
    TableName: tableName,
    BillingMode: table.billingMode,
    AttributeDefinitions: tableAttributes(table).map((a) => ({
      AttributeName: a.name,
      AttributeType: a.type,
    })),
    KeySchema: [
      { AttributeName: table.partitionKey.name, KeyType: 'HASH' },
      { AttributeName: table.sortKey.name, KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: Object.values(table.indexes).map((index) => ({
      IndexName: index.indexName,
      KeySchema: [
        { AttributeName: index.partitionKey.name, KeyType: 'HASH' as const },
        ...(index.sortKey ? [{ AttributeName: index.sortKey.name, KeyType: 'RANGE' as const }] : []),
      ],
      Projection: { ProjectionType: index.projection },
    })),
  };
}

/**
 * Creates joiner's table if it does not exist and waits until it is ACTIVE (simulated cloud and
 * local runs; in AWS the CDK stack creates it). TTL is enabled where the service supports it.
 */
export async function ensureTable(
  client: DynamoDBClient,
  tableName: string,
  timeoutMs = 10_000,
): Promise<void> {
  try {
    await client.send(new CreateTableCommand(createTableInput(tableName)));
  } catch (error) {
    if ((error as { name?: string }).name !== 'ResourceInUseException') throw error;
  }
  await waitActive(client, tableName, timeoutMs);
  try {
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: TABLE.ttlAttribute, Enabled: true },
      }),
    );
  } catch (error) {
    // dynalite has no TTL; TTL is garbage collection only, so nothing depends on it.
    const name = (error as { name?: string }).name ?? '';
    if (!/UnknownOperation|ValidationException|NotImplemented/.test(name)) throw error;
  }
}

async function waitActive(client: DynamoDBClient, tableName: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const out = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const indexesActive = (out.Table?.GlobalSecondaryIndexes ?? []).every((i) => i.IndexStatus === 'ACTIVE');
    if (out.Table?.TableStatus === 'ACTIVE' && indexesActive) return;
    if (Date.now() > deadline) throw new Error(`table ${tableName} not ACTIVE after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
