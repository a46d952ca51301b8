import { timingSafeEqual } from 'node:crypto';
import { type RotatingSecret, rotatingSecret } from '../../adapters/aws/rotating-secret.js';
import { createSecretsManagerClient } from '../../adapters/aws/secret-reader.js';
import { ENV } from '../../shared/env.js';
import type { Settings } from './settings.js';

/**
 * Where the webhook's shared secret comes from: the value(s) accepted now, and optionally a way
 * to re-read them when a call presents none of them (a rotation happened since they were read).
 */
export type SecretSource = (() => Promise<string | readonly string[]>) & {
  readonly refresh?: () => Promise<readonly string[]>;
};

const byArn = new Map<string, SecretSource>();

/**
 * The webhook secret of these settings: JOINER_WEBHOOK_SECRET itself (local runs, the simulated
 * cloud) or the Secrets Manager secret JOINER_WEBHOOK_SECRET_ARN, whose current value and, for a
 * day after a rotation, previous value are accepted (see rotating-secret.ts).
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
  // One source per secret, endpoint and caller: a process may serve several simulated clouds.
  const key = [arn, settings.endpoints.secretsManager ?? '', settings.credentials?.accessKeyId ?? ''].join(
    ' ',
  );
  let source = byArn.get(key);
  if (!source) {
    const client = createSecretsManagerClient(
      settings.region,
      settings.credentials,
      settings.endpoints.secretsManager,
    );
    source = sourceOf(rotatingSecret(client, arn));
    byArn.set(key, source);
  }
  return source;
}

/** A {@link SecretSource} over a rotating secret. */
export function sourceOf(secret: RotatingSecret): SecretSource {
  return Object.assign(() => secret.accepted(), { refresh: () => secret.refresh() });
}

/**
 * Whether `presented` is one of the source's accepted values; when it is none of them, the
 * values are re-read once (rate-limited by the source) before saying no.
 */
export async function secretAccepted(presented: string, source: SecretSource): Promise<boolean> {
  const matches = (values: string | readonly string[]) =>
    (typeof values === 'string' ? [values] : values).map((v) => secretMatches(presented, v)).includes(true);
  if (matches(await source())) return true;
  return source.refresh ? matches(await source.refresh()) : false;
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
