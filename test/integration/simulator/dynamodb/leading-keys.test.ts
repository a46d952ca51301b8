import {
  BatchGetItemCommand,
  CreateTableCommand,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  ScanCommand,
} from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type DynamoDbSimulator,
  startDynamoDbSimulator,
} from '../../../../functions/simulator/dynamodb/dynamodb-simulator.js';
import { AccountAuthorizer } from '../../../../functions/simulator/iam/authorization/account-authorizer.js';
import { SIMULATOR_ACCESS_KEY_ID } from '../../../../functions/simulator/iam/authorization/service-gate.js';

const ACCOUNT = '111122223333';
const ROLE = `arn:aws:iam::${ACCOUNT}:role/catalog`;
const TABLE = `arn:aws:dynamodb:us-west-2:${ACCOUNT}:table/joiner`;

let sim: DynamoDbSimulator;
let admin: DynamoDBClient;
let catalog: DynamoDBClient;

beforeAll(async () => {
  // The catalog function's grant in the stack: its own partition only.
  const authorizer = AccountAuthorizer.fromPolicies(
    {
      identity: {
        [ROLE]: [
          {
            Version: '2012-10-17',
            Statement: [
              {
                Effect: 'Allow',
                Action: [
                  'dynamodb:BatchGetItem',
                  'dynamodb:PutItem',
                  'dynamodb:GetItem',
                  'dynamodb:Query',
                  'dynamodb:Scan',
                ],
                Resource: TABLE,
                Condition: { 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': ['catalog'] } },
              },
            ],
          },
        ],
      },
    },
    { account: ACCOUNT, region: 'us-west-2', clock: () => Date.UTC(2026, 0, 1) },
  );
  sim = await startDynamoDbSimulator({ iam: authorizer, region: 'us-west-2', accountId: ACCOUNT });
  const client = (credentials: { accessKeyId: string; secretAccessKey: string }) =>
    new DynamoDBClient({ endpoint: sim.url, region: 'us-west-2', credentials, maxAttempts: 1 });
  admin = client({ accessKeyId: SIMULATOR_ACCESS_KEY_ID, secretAccessKey: 'x' });
  catalog = client(authorizer.registerPrincipal(ROLE, 'catalog'));
  await admin.send(
    new CreateTableCommand({
      TableName: 'joiner',
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      AttributeDefinitions: [
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'sk', AttributeType: 'S' },
      ],
      BillingMode: 'PAY_PER_REQUEST',
    }),
  );
});

afterAll(async () => {
  admin.destroy();
  catalog.destroy();
  await sim.close();
});

const item = (pk: string) => ({ pk: { S: pk }, sk: { S: 'x' } });
const denied = { name: 'AccessDeniedException' };

describe('dynamodb:LeadingKeys in the simulated DynamoDB', () => {
  it('allows the items of the granted partition, on every item-level call', async () => {
    await catalog.send(new PutItemCommand({ TableName: 'joiner', Item: item('catalog') }));
    const got = await catalog.send(new GetItemCommand({ TableName: 'joiner', Key: item('catalog') }));
    expect(got.Item?.pk?.S).toBe('catalog');
    const batch = await catalog.send(
      new BatchGetItemCommand({ RequestItems: { joiner: { Keys: [item('catalog')] } } }),
    );
    expect(batch.Responses?.joiner).toHaveLength(1);
    const query = await catalog.send(
      new QueryCommand({
        TableName: 'joiner',
        KeyConditionExpression: '#p = :p',
        ExpressionAttributeNames: { '#p': 'pk' },
        ExpressionAttributeValues: { ':p': { S: 'catalog' } },
      }),
    );
    expect(query.Count).toBe(1);
  });

  it('refuses another partition: a write, a read, a batch with one foreign key, a query', async () => {
    await expect(
      catalog.send(new PutItemCommand({ TableName: 'joiner', Item: item('claim#1') })),
    ).rejects.toMatchObject(denied);
    await expect(
      catalog.send(new GetItemCommand({ TableName: 'joiner', Key: item('lease') })),
    ).rejects.toMatchObject(denied);
    await expect(
      catalog.send(
        new BatchGetItemCommand({ RequestItems: { joiner: { Keys: [item('catalog'), item('lease')] } } }),
      ),
    ).rejects.toMatchObject(denied);
    await expect(
      catalog.send(
        new QueryCommand({
          TableName: 'joiner',
          KeyConditionExpression: 'pk = :p',
          ExpressionAttributeValues: { ':p': { S: 'lease' } },
        }),
      ),
    ).rejects.toMatchObject(denied);
  });

  it('puts no LeadingKeys in a Scan (ForAllValues then holds, as in AWS: do not grant Scan with it)', async () => {
    const scan = await catalog.send(new ScanCommand({ TableName: 'joiner' }));
    expect(scan.Count).toBe(1);
  });
});
