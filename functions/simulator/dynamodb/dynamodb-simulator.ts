/**
 * The simulated DynamoDB: dynalite in-process on 127.0.0.1, in memory, with tables ACTIVE at once
 * (no CREATING / UPDATING / DELETING delays). No transactions and no TTL, as DESIGN.md notes.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { PassThrough } from 'node:stream';
import type { AuthorizationRequest, ServiceAuthorizer } from '../iam/authorization/authorization-request.js';
import { accessKeyOf, type GateDenial, gateCall } from '../iam/authorization/service-gate.js';
import type { ApiLatency } from '../latency/api-latency.js';
import { listenOnLoopback } from '../loopback-server.js';
import { PartitionKeys } from './leading-keys.js';

interface DynaliteOptions {
  readonly createTableMs?: number;
  readonly deleteTableMs?: number;
  readonly updateTableMs?: number;
}

const require = createRequire(import.meta.url);
const dynalite = require('dynalite') as (options: DynaliteOptions) => Server;

/** A running simulated DynamoDB. */
export interface DynamoDbSimulator {
  /** `http://127.0.0.1:PORT`. */
  readonly url: string;
  close(): Promise<void>;
}

/** Options of {@link startDynamoDbSimulator}. */
export interface DynamoDbSimulatorOptions {
  /** Modeled latency: each call waits it first. */
  readonly latency?: ApiLatency;
  /** The account's IAM: each call is authorized on the tables (and indexes) it names first. */
  readonly iam?: ServiceAuthorizer;
  /** Region and account of the table ARNs authorized. Default us-west-2 / 000000000000. */
  readonly region?: string;
  readonly accountId?: string;
}

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/** Starts dynalite on 127.0.0.1 (free port), behind the latency model and the account's IAM. */
export async function startDynamoDbSimulator(
  options: DynamoDbSimulatorOptions = {},
): Promise<DynamoDbSimulator> {
  const server: Server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  const { latency, iam } = options;
  if (latency || iam) {
    const serve = server.listeners('request') as Listener[];
    server.removeAllListeners('request');
    const dispatch: Listener = (req, res) => {
      for (const listener of serve) listener.call(server, req, res);
    };
    const keys = new PartitionKeys();
    const gated: Listener = iam ? (req, res) => void gate(iam, options, keys, req, res, dispatch) : dispatch;
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      const call = String(req.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
      if (!latency) return gated(req, res);
      void latency.wait('dynamodb', call).then(() => gated(req, res));
    });
  }
  return listenOnLoopback(server);
}

/**
 * Reads the request body, authorizes `dynamodb:<Operation>` on every table and index it names
 * (with `dynamodb:LeadingKeys` for item-level calls), and either answers AccessDeniedException or hands dynalite a copy of the request.
 */
async function gate(
  iam: ServiceAuthorizer,
  at: DynamoDbSimulatorOptions,
  keys: PartitionKeys,
  req: IncomingMessage,
  res: ServerResponse,
  dispatch: Listener,
): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  const operation = String(req.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
  let body: Record<string, unknown> = {};
  try {
    body = raw.length > 0 ? (JSON.parse(raw.toString('utf8')) as Record<string, unknown>) : {};
  } catch {
    // dynalite answers the malformed body itself.
  }
  keys.learn(operation, body);
  const arn = `arn:aws:dynamodb:${at.region ?? 'us-west-2'}:${at.accountId ?? '000000000000'}:table/`;
  const denial = gateCall(iam, accessKeyOf(req.headers, req.url), 'json', () =>
    dynamoResourcesOf(body).map((resource): Omit<AuthorizationRequest, 'principal'> => {
      const leading = resource === '*' ? undefined : keys.leadingKeys(operation, resource, body);
      return {
        action: `dynamodb:${operation}`,
        resource: resource === '*' ? '*' : `${arn}${resource}`,
        context: leading ? { 'dynamodb:LeadingKeys': leading } : {},
      };
    }),
  );
  if (denial) return sendDenial(res, denial);
  const copy = Object.assign(new PassThrough(), {
    headers: req.headers,
    method: req.method,
    url: req.url,
    socket: req.socket,
  });
  dispatch(copy as unknown as IncomingMessage, res);
  copy.end(raw);
}

/** The tables (`name`, `name/index/idx`) a DynamoDB call names; `*` for a call that names none. */
export function dynamoResourcesOf(body: Record<string, unknown>): string[] {
  const table = typeof body.TableName === 'string' ? body.TableName : undefined;
  if (table) return [typeof body.IndexName === 'string' ? `${table}/index/${body.IndexName}` : table];
  const items = body.RequestItems;
  if (items && typeof items === 'object') return Object.keys(items);
  const transact = body.TransactItems;
  if (Array.isArray(transact)) {
    const names = transact.flatMap((item: Record<string, { TableName?: unknown }>) =>
      Object.values(item ?? {}).map((op) => op?.TableName),
    );
    return [...new Set(names.filter((n): n is string => typeof n === 'string'))];
  }
  return ['*'];
}

function sendDenial(res: ServerResponse, denial: GateDenial): void {
  const text = JSON.stringify({ __type: `com.amazon.coral.service#${denial.code}`, message: denial.message });
  res.writeHead(denial.status, {
    'content-type': 'application/x-amz-json-1.0',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}
