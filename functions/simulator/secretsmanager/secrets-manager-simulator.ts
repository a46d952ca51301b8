/**
 * The simulated Secrets Manager: the JSON 1.1 protocol (`X-Amz-Target: secretsmanager.GetSecretValue`)
 * serving the secrets the deployment created (the webhook's path secret), with version stages
 * (AWSCURRENT, AWSPREVIOUS after a rotation). Errors as Secrets Manager sends them:
 * `ResourceNotFoundException` for an unknown secret or a stage no version has,
 * `AccessDeniedException` when the caller's role may not `secretsmanager:GetSecretValue` the
 * secret (context: `secretsmanager:SecretId`, `secretsmanager:VersionStage`,
 * `secretsmanager:VersionId`). Faults: service `secretsmanager`.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { parseAwsJsonBody, readAwsJsonBody, sendAwsJson } from '../aws-json-protocol.js';
import type { FaultInjector } from '../faults.js';
import type { ContextValue, ServiceAuthorizer } from '../iam/authorization/authorization-request.js';
import { accessKeyOf, gateCall } from '../iam/authorization/service-gate.js';
import { listenOnLoopback } from '../loopback-server.js';

/** Options of {@link startSecretsManagerSimulator}. */
export interface SecretsManagerSimulatorOptions {
  readonly region: string;
  readonly accountId: string;
  /** Virtual time (CreatedDate of versions). */
  readonly now: () => number;
  readonly faults?: FaultInjector;
  /** The account's IAM: `secretsmanager:GetSecretValue` is authorized on the secret's ARN. */
  readonly iam?: ServiceAuthorizer;
}

/** A running simulated Secrets Manager. */
export interface SecretsManagerSimulator {
  /** Endpoint for `new SecretsManagerClient({ endpoint })`. */
  readonly url: string;
  /**
   * Creates the secret `arn` (a full `arn:aws:secretsmanager:…:secret:<name>-<6 chars>`) or, when it
   * exists, rotates it: the new value becomes AWSCURRENT and the old one AWSPREVIOUS.
   */
  putSecret(arn: string, value: string): void;
  close(): Promise<void>;
}

interface SecretVersion {
  readonly id: string;
  readonly value: string;
  readonly created: number;
  stages: string[];
}

interface Secret {
  readonly arn: string;
  readonly name: string;
  readonly versions: SecretVersion[];
}

class SecretsManagerError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

const error = (code: string, message: string, status?: number) =>
  new SecretsManagerError(code, message, status);
const SECRET_ARN = /^arn:aws[a-z-]*:secretsmanager:([a-z0-9-]+):(\d{12}):secret:(.+)-[A-Za-z0-9]{6}$/;
const TARGET_PREFIX = 'secretsmanager.';

/** Starts the simulated Secrets Manager on 127.0.0.1 and a free port. */
export async function startSecretsManagerSimulator(
  options: SecretsManagerSimulatorOptions,
): Promise<SecretsManagerSimulator> {
  const secrets = new Map<string, Secret>();
  const find = (id: string): Secret | undefined =>
    secrets.get(id) ?? [...secrets.values()].find((s) => s.name === id);
  const actions: Record<string, (body: Record<string, unknown>, req: IncomingMessage) => unknown> = {
    GetSecretValue: (body, req) => {
      const id = body.SecretId;
      if (typeof id !== 'string' || id === '')
        throw error(
          'ValidationException',
          "1 validation error detected: Value null at 'secretId' failed to satisfy constraint: Member must not be null",
        );
      const stage = typeof body.VersionStage === 'string' ? body.VersionStage : undefined;
      const versionId = typeof body.VersionId === 'string' ? body.VersionId : undefined;
      const secret = find(id);
      // IAM decides before the secret is looked up: a caller that may not read it learns nothing.
      const resource = secret?.arn ?? arnOfId(id, options);
      const context: Record<string, ContextValue> = {
        'secretsmanager:SecretId': secret?.arn ?? id,
        ...(stage ? { 'secretsmanager:VersionStage': stage } : {}),
        ...(versionId ? { 'secretsmanager:VersionId': versionId } : {}),
      };
      const denial = gateCall(options.iam, accessKeyOf(req.headers), 'json', () => [
        { action: 'secretsmanager:GetSecretValue', resource, context },
      ]);
      if (denial) throw error(denial.code, denial.message, denial.status);
      if (!secret)
        throw error('ResourceNotFoundException', "Secrets Manager can't find the specified secret.");
      const version = versionId
        ? secret.versions.find((v) => v.id === versionId)
        : secret.versions.find((v) => v.stages.includes(stage ?? 'AWSCURRENT'));
      if (!version)
        throw error(
          'ResourceNotFoundException',
          versionId
            ? `Secrets Manager can't find the specified secret value for VersionId: ${versionId}`
            : `Secrets Manager can't find the specified secret value for staging label: ${stage ?? 'AWSCURRENT'}`,
        );
      return {
        ARN: secret.arn,
        Name: secret.name,
        VersionId: version.id,
        SecretString: version.value,
        VersionStages: version.stages,
        CreatedDate: version.created / 1000,
      };
    },
  };
  const server = createServer((req, res) => {
    void handle(req, res, actions, options.faults);
  });
  const endpoint = await listenOnLoopback(server);
  return {
    ...endpoint,
    putSecret(arn, value) {
      const match = SECRET_ARN.exec(arn);
      if (!match) throw new Error(`simulated Secrets Manager: '${arn}' is not a secret ARN`);
      let secret = secrets.get(arn);
      if (!secret) {
        secret = { arn, name: match[3], versions: [] };
        secrets.set(arn, secret);
      }
      for (const v of secret.versions) {
        v.stages = v.stages.includes('AWSCURRENT') ? ['AWSPREVIOUS'] : [];
      }
      secret.versions.push({ id: randomUUID(), value, created: options.now(), stages: ['AWSCURRENT'] });
    },
  };
}

/** The ARN IAM evaluates for a SecretId that names no secret (a name, or an ARN of another). */
function arnOfId(id: string, options: SecretsManagerSimulatorOptions): string {
  if (id.startsWith('arn:')) return id;
  return `arn:aws:secretsmanager:${options.region}:${options.accountId}:secret:${id}-??????`;
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  actions: Record<string, (body: Record<string, unknown>, req: IncomingMessage) => unknown>,
  faults: FaultInjector | undefined,
): Promise<void> {
  try {
    const target = String(req.headers['x-amz-target'] ?? '');
    const action = target.startsWith(TARGET_PREFIX) ? target.slice(TARGET_PREFIX.length) : '';
    const body = parseAwsJsonBody(await readAwsJsonBody(req, 1024 * 1024, error), error);
    const fault = faults?.check('secretsmanager', action);
    await faults?.wait(fault?.latencyMs);
    if (fault?.error)
      throw error(fault.error, fault.message ?? `Injected fault: ${fault.error}`, fault.httpStatus ?? 400);
    const handler = actions[action];
    if (!handler)
      throw error(
        'UnknownOperationException',
        `Operation '${target}' is not supported by the simulated Secrets Manager`,
      );
    sendAwsJson(res, 200, handler(body, req));
  } catch (caught) {
    const e =
      caught instanceof SecretsManagerError
        ? caught
        : new SecretsManagerError('InternalServiceError', (caught as Error).message, 500);
    sendAwsJson(res, e.status, { __type: e.code, Message: e.message });
  }
}
