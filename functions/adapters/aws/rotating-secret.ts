/**
 * The webhook's path secret with rotation without downtime: the secret's current value is
 * accepted, and so is its previous value (Secrets Manager's AWSPREVIOUS stage) for a grace
 * period after the current one was created, so API servers still calling with the old URL keep
 * working while the new webhook configuration is rolled out. Values are cached; a caller that
 * meets an unknown secret may refresh them, at most once per `refreshMinMs` (a flood of forged
 * calls cannot turn into a flood of Secrets Manager reads).
 */
import { GetSecretValueCommand } from '@aws-sdk/client-secrets-manager';

/** The one call the reader makes (a SecretsManagerClient satisfies it). */
export interface GetSecretStageApi {
  send(command: GetSecretValueCommand): Promise<{ SecretString?: string; CreatedDate?: Date }>;
}

/** How long the previous value stays accepted after a rotation, and how often values may be re-read. */
export interface RotationOptions {
  /** @default 24 hours */
  readonly previousGraceMs?: number;
  /** @default 30 s */
  readonly refreshMinMs?: number;
  /** @default Date.now */
  readonly now?: () => number;
}

/** The accepted values of a rotating secret. */
export interface RotatingSecret {
  /** The accepted values (current first), read once and cached. */
  accepted(): Promise<readonly string[]>;
  /** Re-reads the values unless they were read less than `refreshMinMs` ago; returns the accepted ones. */
  refresh(): Promise<readonly string[]>;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** A {@link RotatingSecret} reading `secretArn`'s AWSCURRENT and AWSPREVIOUS stages. */
export function rotatingSecret(
  api: GetSecretStageApi,
  secretArn: string,
  options: RotationOptions = {},
): RotatingSecret {
  const now = options.now ?? Date.now;
  const grace = options.previousGraceMs ?? DAY_MS;
  const minGap = options.refreshMinMs ?? 30_000;
  let cached: Promise<readonly string[]> | undefined;
  let readAt = Number.NEGATIVE_INFINITY;
  const load = () => {
    readAt = now();
    const loading = readStages(api, secretArn, grace, now).catch((error: unknown) => {
      if (cached === loading) cached = undefined;
      throw error;
    });
    cached = loading;
    return loading;
  };
  return {
    accepted: () => cached ?? load(),
    refresh: () => (cached && now() - readAt < minGap ? cached : load()),
  };
}

async function readStages(
  api: GetSecretStageApi,
  secretArn: string,
  graceMs: number,
  now: () => number,
): Promise<readonly string[]> {
  const current = await api.send(
    new GetSecretValueCommand({ SecretId: secretArn, VersionStage: 'AWSCURRENT' }),
  );
  if (!current.SecretString) throw new Error(`secret ${secretArn} has no string value`);
  const values = [current.SecretString.trim()];
  const created = current.CreatedDate?.getTime();
  // A current value of unknown age may be brand new: the previous one stays accepted.
  if (created !== undefined && now() - created >= graceMs) return values;
  try {
    const previous = await api.send(
      new GetSecretValueCommand({ SecretId: secretArn, VersionStage: 'AWSPREVIOUS' }),
    );
    const value = previous.SecretString?.trim();
    if (value && value !== values[0]) values.push(value);
  } catch (error) {
    // A secret never rotated has no AWSPREVIOUS version.
    if ((error as { name?: string }).name !== 'ResourceNotFoundException') throw error;
  }
  return values;
}
