import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { cachedUntilFailure } from '../../shared/cached-until-failure.js';

/** The one call the reader makes (a SecretsManagerClient satisfies it). */
export interface GetSecretValueApi {
  send(command: GetSecretValueCommand): Promise<{ SecretString?: string }>;
}

/**
 * Returns a function reading a Secrets Manager secret's string value once and caching it (the
 * webhook secret changes only with a redeploy). A failed read is not cached.
 */
export function cachedSecret(api: GetSecretValueApi, secretArn: string): () => Promise<string> {
  return cachedUntilFailure(() => read(api, secretArn));
}

async function read(api: GetSecretValueApi, secretArn: string): Promise<string> {
  const output = await api.send(new GetSecretValueCommand({ SecretId: secretArn }));
  if (!output.SecretString) throw new Error(`secret ${secretArn} has no string value`);
  return output.SecretString.trim();
}

/** A Secrets Manager client for `region`. */
export function createSecretsManagerClient(
  region: string,
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string },
): SecretsManagerClient {
  return new SecretsManagerClient({ region, ...(credentials ? { credentials } : {}) });
}
