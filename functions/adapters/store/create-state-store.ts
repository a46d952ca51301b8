import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ENV } from '../../shared/env.js';
import { leanSdkClient } from '../aws/lean-client.js';
import { DynamoStateStore } from './dynamo-state-store.js';

/** Where the table is. `endpoint` points at dynalite in the simulated cloud. */
export interface StateStoreOptions {
  readonly tableName: string;
  readonly region?: string;
  readonly endpoint?: string;
  /** Static credentials for the simulated cloud (any value works there). */
  readonly credentials?: { accessKeyId: string; secretAccessKey: string };
}

/** A DynamoDB document client that drops undefined fields (optional model fields). */
export function createDocumentClient(options: Omit<StateStoreOptions, 'tableName'>): DynamoDBDocumentClient {
  // No cacheMiddleware here: the document client's commands bind their input into the handler.
  const client = leanSdkClient(
    new DynamoDBClient({
      region: options.region ?? 'us-east-1',
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      ...(options.credentials ? { credentials: options.credentials } : {}),
    }),
  );
  return DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
}

/** The state store for `options`. */
export function createStateStore(options: StateStoreOptions): DynamoStateStore {
  return new DynamoStateStore(createDocumentClient(options), options.tableName);
}

/** The state store configured from the Lambda environment (table name and optional endpoint). */
export function stateStoreFromEnv(env: NodeJS.ProcessEnv = process.env): DynamoStateStore {
  const tableName = env[ENV.tableName];
  if (!tableName) throw new Error(`environment variable ${ENV.tableName} is not set: the state table name`);
  return createStateStore({
    tableName,
    region: env.AWS_REGION,
    endpoint: env[ENV.dynamoDbEndpoint] || undefined,
  });
}
