import { timingSafeEqual } from 'node:crypto';
import { cachedSecret, createSecretsManagerClient } from '../../adapters/aws/secret-reader.js';
import { ENV } from '../../shared/env.js';
import type { Settings } from './settings.js';

/** Where the webhook's shared secret comes from. */
export type SecretSource = () => Promise<string>;

const byArn = new Map<string, SecretSource>();

/**
 * The webhook secret of these settings: JOINER_WEBHOOK_SECRET itself (local runs, the simulated
 * cloud) or the Secrets Manager secret JOINER_WEBHOOK_SECRET_ARN (read once per process).
 */
export function webhookSecretSource(settings: Settings): SecretSource {
  const literal = settings.webhookSecret;
  if (literal) return async () => literal;
  const arn = settings.webhookSecretArn;
  if (!arn) {
    return async () => {
      throw new Error(`neither ${ENV.webhookSecret} nor ${ENV.webhookSecretArn} is set: the webhook secret`);
    };
  }
  let source = byArn.get(arn);
  if (!source) {
    source = cachedSecret(createSecretsManagerClient(settings.region, settings.credentials), arn);
    byArn.set(arn, source);
  }
  return source;
}

/** Compares a presented secret with the expected one in constant time (for equal lengths). */
export function secretMatches(presented: string, expected: string): boolean {
  const a = Buffer.from(presented, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  if (a.length !== b.length) {
    timingSafeEqual(b, b);
    return false;
  }
  return timingSafeEqual(a, b);
}
