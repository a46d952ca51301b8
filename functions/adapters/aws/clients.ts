import { EC2Client } from '@aws-sdk/client-ec2';
import { IAMClient } from '@aws-sdk/client-iam';
import { SSMClient } from '@aws-sdk/client-ssm';
import { ENV } from '../../shared/env.js';
import { CACHED_MIDDLEWARE, leanSdkClient } from './lean-client.js';
import { type RetrySleep, SleepingRetryStrategy } from './retry-strategy.js';

/** Where to reach AWS: the region, and endpoint overrides for the simulated cloud. */
export interface AwsClientOptions {
  readonly region: string;
  readonly ec2Endpoint?: string;
  readonly ssmEndpoint?: string;
  readonly iamEndpoint?: string;
  readonly credentials?: { accessKeyId: string; secretAccessKey: string };
  /** SDK attempts per call, throttling included (default 8, the SDK's standard retry mode). */
  readonly maxAttempts?: number;
  /**
   * How the retries' backoff is waited: the wall clock in Lambda (default); the simulated cloud
   * passes its virtual clock's wait.
   */
  readonly retrySleep?: RetrySleep;
  /**
   * The jitter of that backoff, a float in [0, 1): `Math.random` in Lambda (default); the
   * simulated cloud passes a source seeded by the run's seed.
   */
  readonly retryRandom?: () => number;
}

/**
 * Throttling (EC2's RequestLimitExceeded, other services' Throttling) and transient errors are
 * retried in the SDK's standard retry mode: up to `maxAttempts` attempts, exponential backoff with
 * full jitter, within the client's retry quota (see retry-strategy.ts). Each client keeps the
 * SDK's default connection pool (50 sockets); joiner bounds its own concurrent launches well
 * below it (see ec2-cloud-provider.ts).
 */
function common(options: AwsClientOptions) {
  const maxAttempts = options.maxAttempts ?? 8;
  return {
    ...CACHED_MIDDLEWARE,
    region: options.region,
    maxAttempts,
    retryStrategy: new SleepingRetryStrategy(maxAttempts, options.retrySleep, options.retryRandom),
    ...(options.credentials ? { credentials: options.credentials } : {}),
  };
}

export function createEc2Client(options: AwsClientOptions): EC2Client {
  return leanSdkClient(
    new EC2Client({
      ...common(options),
      ...(options.ec2Endpoint ? { endpoint: options.ec2Endpoint } : {}),
    }),
  );
}

export function createSsmClient(options: AwsClientOptions): SSMClient {
  return leanSdkClient(
    new SSMClient({
      ...common(options),
      ...(options.ssmEndpoint ? { endpoint: options.ssmEndpoint } : {}),
    }),
  );
}

/** IAM (instance profiles for NodeClass roles); a global service, reached through the region's partition. */
export function createIamClient(options: AwsClientOptions): IAMClient {
  return leanSdkClient(
    new IAMClient({
      ...common(options),
      ...(options.iamEndpoint ? { endpoint: options.iamEndpoint } : {}),
    }),
  );
}

/** Client options from the Lambda environment (AWS_REGION and the endpoint overrides). */
export function awsClientOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): AwsClientOptions {
  const region = env.AWS_REGION ?? env.AWS_DEFAULT_REGION;
  if (!region) throw new Error('environment variable AWS_REGION is not set: the region joiner launches in');
  return {
    region,
    ec2Endpoint: env[ENV.ec2Endpoint] || undefined,
    ssmEndpoint: env[ENV.ssmEndpoint] || undefined,
    iamEndpoint: env[ENV.iamEndpoint] || undefined,
  };
}
