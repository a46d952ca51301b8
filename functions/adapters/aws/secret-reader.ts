import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { CACHED_MIDDLEWARE, leanSdkClient } from './lean-client.js';

/** The one call the reader makes (a SecretsManagerClient satisfies it). */
export interface GetSecretValueApi {
  send(command: GetSecretValueCommand): Promise<{ SecretString?: string }>;
}

/** Reads a secret's current string value. */
export async function readSecret(api: GetSecretValueApi, secretArn: string): Promise<string> {
  const output = await api.send(new GetSecretValueCommand({ SecretId: secretArn }));
  if (!output.SecretString) throw new Error(`secret ${secretArn} has no string value`);
  return output.SecretString.trim();
}

/** A Secrets Manager client for `region` (at `endpoint` when given: the simulated cloud). */
export function createSecretsManagerClient(
  region: string,
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string },
  endpoint?: string,
): SecretsManagerClient {
  return leanSdkClient(
    new SecretsManagerClient({
      ...CACHED_MIDDLEWARE,
      region,
      ...(credentials ? { credentials } : {}),
      ...(endpoint ? { endpoint } : {}),
    }),
  );
}
