/**
 * A Lambda function URL on 127.0.0.1: turns each HTTP request into the payload format 2.0 event a
 * function URL delivers (`LambdaFunctionURLEvent`), invokes the function through the runner, and
 * writes its result back as Lambda does (an object with `statusCode` is an HTTP response; any
 * other value is a 200 JSON body; a failed invocation is a 502).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { LambdaFunctionURLEvent, LambdaFunctionURLResult } from 'aws-lambda';
import { listenOnLoopback } from '../loopback-server.js';
import type { FunctionUrlAuth } from './function-url-auth.js';

/** A running function URL. */
export interface FunctionUrl {
  /** `http://127.0.0.1:PORT/`. */
  readonly url: string;
  close(): Promise<void>;
}

/** Invokes the function behind the URL with one event. */
export type UrlInvoker = (event: LambdaFunctionURLEvent) => Promise<unknown>;

const MAX_PAYLOAD_BYTES = 6 * 1024 * 1024;
const TEXT_TYPES = /^(text\/|application\/(json|xml|x-www-form-urlencoded|[\w.+-]+\+json))/;

/**
 * Starts a function URL on a free port of 127.0.0.1. `auth` decides each call before the function
 * runs (see function-url-auth.ts); without it every call is let through.
 */
export async function startFunctionUrl(
  invoke: UrlInvoker,
  account = '000000000000',
  auth?: FunctionUrlAuth,
): Promise<FunctionUrl> {
  const server = createServer((req, res) => {
    const denial = auth?.(req);
    if (denial) {
      req.resume();
      send(res, denial.status, denial.body);
      return;
    }
    void serve(invoke, account, req, res);
  });
  const endpoint = await listenOnLoopback(server);
  return { ...endpoint, url: `${endpoint.url}/` };
}

async function serve(invoke: UrlInvoker, account: string, req: IncomingMessage, res: ServerResponse) {
  const body = await readBody(req);
  if (body === undefined) return send(res, 413, { Message: 'Request must be smaller than 6291456 bytes' });
  let result: unknown;
  try {
    result = await invoke(toEvent(req, body, account));
  } catch {
    return send(res, 502, { Message: 'Internal Server Error' });
  }
  writeResult(res, result as LambdaFunctionURLResult);
}

/** The function URL event of a request. */
export function toEvent(req: IncomingMessage, body: Buffer, account: string): LambdaFunctionURLEvent {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  const text = TEXT_TYPES.test(headers['content-type'] ?? '');
  const now = Date.now();
  const query = Object.fromEntries(url.searchParams);
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    headers,
    ...(Object.keys(query).length > 0 ? { queryStringParameters: query } : {}),
    requestContext: {
      accountId: account,
      apiId: 'simulated',
      domainName: headers.host ?? '127.0.0.1',
      domainPrefix: 'simulated',
      http: {
        method: req.method ?? 'GET',
        path: url.pathname,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: '$default',
      stage: '$default',
      time: new Date(now).toUTCString(),
      timeEpoch: now,
    },
    ...(body.length > 0 ? { body: text ? body.toString('utf8') : body.toString('base64') } : {}),
    isBase64Encoded: body.length > 0 && !text,
  };
}

function writeResult(res: ServerResponse, result: LambdaFunctionURLResult): void {
  if (typeof result === 'object' && result !== null && typeof result.statusCode === 'number') {
    const payload = result.body ?? '';
    const buffer = result.isBase64Encoded ? Buffer.from(payload, 'base64') : Buffer.from(payload, 'utf8');
    res.writeHead(result.statusCode, { ...(result.headers ?? {}), 'content-length': buffer.length });
    res.end(buffer);
    return;
  }
  if (typeof result === 'string') {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(result) });
    res.end(result);
    return;
  }
  send(res, 200, result ?? null);
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_PAYLOAD_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
