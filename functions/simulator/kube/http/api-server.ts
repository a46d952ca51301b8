/**
 * The HTTP front of the simulated API server: Kubernetes REST on 127.0.0.1 as
 * `@kubernetes/client-node` speaks it (JSON bodies, patch content types, chunked watches, `Status`
 * errors). Every request is authenticated and authorized by RBAC before it is routed.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FaultInjector } from '../../faults.js';
import type { ApiLatency } from '../../latency/api-latency.js';
import { keepIdleConnections } from '../../loopback-server.js';
import { ApiError, badRequest } from '../api/api-error.js';
import type { KubeApi, WriteOptions } from '../api/kube-api.js';
import type { KubeObject } from '../api/object-store.js';
import { patchTypeOf } from '../api/patch.js';
import { bindPod, evictPod } from '../api/pod-subresources.js';
import { scaleOf, updateScale } from '../api/scale.js';
import type { RequestAuthorizer } from '../auth/request-authorizer.js';
import { decodeProtobufBody, PROTOBUF_CONTENT_TYPE } from '../protobuf/decode-body.js';
import { coreVersions, group, groupList, resourceList, versionInfo } from './discovery.js';
import { validateFields } from './field-validation.js';
import {
  acceptsOpenApiV2Protobuf,
  encodeOpenApiV2,
  OPENAPI_V2_PROTOBUF,
  openApiV2Document,
} from './openapi-v2.js';
import { openApiV3 } from './openapi-v3.js';
import { type DiscoveryPath, parseRequestPath, type ResourcePath } from './request-path.js';
import { toTable, wantsTable } from './table.js';
import { type OpenWatch, startWatch } from './watch-stream.js';

const MAX_BODY = 3 * 1024 * 1024;

/** A running HTTP API server. */
export interface ApiHttpServer {
  readonly url: string;
  /** Sends a BOOKMARK to every watch that asked for bookmarks. */
  bookmarkAll(): void;
  /** Ends every open watch (as a watch timeout or an API server restart does); clients re-watch. */
  endWatches(): void;
  close(): Promise<void>;
}

/**
 * Starts the HTTP server on 127.0.0.1 (port 0 = a free port); `authorizer` admits or refuses each
 * request (401 / 403) before it is routed.
 */
export async function startApiHttpServer(
  api: KubeApi,
  authorizer: RequestAuthorizer,
  port = 0,
  latency?: ApiLatency,
  faults?: FaultInjector,
): Promise<ApiHttpServer> {
  const watches = new Set<OpenWatch>();
  const server: Server = createServer((req, res) => {
    // Injected faults (service `kubernetes`, action = HTTP method): the API server answers the
    // error (503 ServiceUnavailable by default) before doing anything.
    const fault = faults?.check('kubernetes', req.method ?? 'GET');
    if (fault?.error) {
      sendError(
        res,
        new ApiError(fault.httpStatus ?? 503, 'ServiceUnavailable', fault.message ?? fault.error),
      );
      return;
    }
    handle(api, authorizer, req, res, watches, latency).catch((err: unknown) => sendError(res, err));
  });
  keepIdleConnections(server);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    bookmarkAll: () => {
      for (const w of watches) w.bookmark();
    },
    endWatches: () => {
      for (const w of [...watches]) w.end();
    },
    close: async () => {
      for (const w of [...watches]) w.end();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function handle(
  api: KubeApi,
  authorizer: RequestAuthorizer,
  req: IncomingMessage,
  res: ServerResponse,
  watches: Set<OpenWatch>,
  latency?: ApiLatency,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  authorizer.check(req.method ?? 'GET', url, req.headers.authorization);
  if (url.pathname === '/openapi/v3' || url.pathname.startsWith('/openapi/v3/')) {
    const doc = openApiV3(api, url.pathname);
    if (!doc)
      throw new ApiError(404, 'NotFound', `the server could not find the requested resource ${url.pathname}`);
    return sendJson(res, 200, doc);
  }
  if (url.pathname === '/openapi/v2') return sendOpenApiV2(res, openApiV2Document(api), req.headers.accept);
  const path = parseRequestPath(api.registry, url.pathname);
  if (path.kind === 'discovery') return sendJson(res, 200, discovery(api, path));
  const q = url.searchParams;
  const opts: WriteOptions = { dryRun: q.get('dryRun') === 'All' };
  const method = req.method ?? 'GET';
  if (method === 'GET' && !path.name && (q.get('watch') === 'true' || q.get('watch') === '1')) {
    const watch = startWatch(
      api,
      path.type,
      {
        namespace: path.namespace,
        labelSelector: q.get('labelSelector') ?? undefined,
        fieldSelector: q.get('fieldSelector') ?? undefined,
        resourceVersion: q.get('resourceVersion') ?? undefined,
        allowWatchBookmarks: q.get('allowWatchBookmarks') === 'true',
      },
      res,
      () => watches.delete(watch),
    );
    if (!res.writableEnded) watches.add(watch);
    return;
  }
  await latency?.wait('kubernetes', method !== 'GET' ? 'write' : path.name ? 'get' : 'list');
  const body = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(method)
    ? await readBody(req, req.headers['content-type'])
    : undefined;
  if (method !== 'GET' && !path.subresource) validateFields(api, path.type, body, q.get('fieldValidation'));
  const [code, out] = await dispatch(api, path, method, q, body, req.headers['content-type'], opts);
  const table = method === 'GET' && !path.subresource ? wantsTable(req.headers.accept) : undefined;
  sendJson(res, code, table ? asTable(api, path.type, out as KubeObject, table, q) : out);
}

async function dispatch(
  api: KubeApi,
  p: ResourcePath,
  method: string,
  q: URLSearchParams,
  body: unknown,
  contentType: string | undefined,
  opts: WriteOptions,
): Promise<[number, unknown]> {
  const { type, namespace, name, subresource: sub } = p;
  const obj = body as KubeObject;
  if (!name) {
    if (method === 'GET') return [200, listBody(api, p, q)];
    if (method === 'POST' && type.plural === 'bindings' && !type.group) {
      const binding = requireObject(obj);
      return [201, await bindPod(api, namespace ?? '', binding.metadata.name, binding, opts)];
    }
    if (method === 'POST') return [201, await api.create(type, namespace, requireObject(obj), opts)];
    if (method === 'DELETE') return [200, await deleteCollection(api, p, q, opts)];
  } else if (sub === 'scale') {
    if (method === 'GET') return [200, scaleOf(api.get(type, namespace, name), type)];
    if (method === 'PUT')
      return [200, await updateScale(api, type, namespace ?? '', name, { body: obj }, opts)];
    if (method === 'PATCH')
      return [
        200,
        await updateScale(
          api,
          type,
          namespace ?? '',
          name,
          { patchType: patchTypeOf(contentType), patch: body },
          opts,
        ),
      ];
  } else if (sub === 'binding' && method === 'POST')
    return [201, await bindPod(api, namespace ?? '', name, requireObject(obj), opts)];
  else if (sub === 'eviction' && method === 'POST')
    return [201, await evictPod(api, namespace ?? '', name, requireObject(obj), opts)];
  else if (method === 'GET') return [200, api.getForSerialization(type, namespace, name)];
  else if (method === 'PUT')
    return [200, await api.replace(type, namespace, name, requireObject(obj), sub, opts)];
  else if (method === 'PATCH')
    return [200, await api.patch(type, namespace, name, patchTypeOf(contentType), body, sub, opts)];
  else if (method === 'DELETE' && !sub) {
    const del = (obj ?? {}) as {
      preconditions?: { uid?: string; resourceVersion?: string };
      gracePeriodSeconds?: number;
    };
    const grace = q.get('gracePeriodSeconds') ?? del.gracePeriodSeconds;
    return [
      200,
      await api.delete(type, namespace, name, {
        ...opts,
        preconditions: del.preconditions,
        gracePeriodSeconds: grace === undefined ? undefined : Number(grace),
      }),
    ];
  }
  throw new ApiError(
    405,
    'MethodNotAllowed',
    `the server does not allow this method on the requested resource: ${method} ${type.plural}${sub ? `/${sub}` : ''}`,
  );
}

/** A GET's object or list as the Table kubectl asked for. */
function asTable(
  api: KubeApi,
  type: ResourcePath['type'],
  out: KubeObject,
  version: 'v1' | 'v1beta1',
  q: URLSearchParams,
): Record<string, unknown> {
  const list = Array.isArray(out.items);
  const meta = out.metadata as { resourceVersion?: string; continue?: string };
  return toTable(api, type, list ? (out.items as KubeObject[]) : [out], {
    version,
    includeObject: q.get('includeObject'),
    resourceVersion: meta?.resourceVersion,
    continue: list ? meta?.continue : undefined,
  });
}

function listBody(api: KubeApi, p: ResourcePath, q: URLSearchParams): Record<string, unknown> {
  const limit = q.get('limit');
  const page = api.listForSerialization(p.type, {
    namespace: p.namespace,
    labelSelector: q.get('labelSelector') ?? undefined,
    fieldSelector: q.get('fieldSelector') ?? undefined,
    limit: limit ? Number(limit) : undefined,
    continue: q.get('continue') ?? undefined,
  });
  const metadata: Record<string, unknown> = { resourceVersion: page.resourceVersion };
  if (page.continue)
    Object.assign(metadata, { continue: page.continue, remainingItemCount: page.remainingItemCount });
  return {
    apiVersion: p.type.group ? `${p.type.group}/${p.type.version}` : p.type.version,
    kind: `${p.type.kind}List`,
    metadata,
    items: page.items,
  };
}

async function deleteCollection(
  api: KubeApi,
  p: ResourcePath,
  q: URLSearchParams,
  opts: WriteOptions,
): Promise<Record<string, unknown>> {
  const items = api.list(p.type, {
    namespace: p.namespace,
    labelSelector: q.get('labelSelector') ?? undefined,
    fieldSelector: q.get('fieldSelector') ?? undefined,
  }).items;
  for (const o of items) await api.delete(p.type, o.metadata.namespace, o.metadata.name, opts);
  return {
    apiVersion: p.type.group ? `${p.type.group}/${p.type.version}` : p.type.version,
    kind: `${p.type.kind}List`,
    metadata: {},
    items,
  };
}

function discovery(api: KubeApi, p: DiscoveryPath): unknown {
  const found = {
    api: () => coreVersions(),
    apis: () => groupList(api.registry),
    group: () => group(api.registry, p.group ?? ''),
    resources: () => resourceList(api.registry, p.group ?? '', p.version ?? ''),
    version: () => versionInfo(),
    health: () => 'ok',
  }[p.what]();
  if (found === undefined)
    throw new ApiError(
      404,
      'NotFound',
      `the server could not find the requested resource (${p.group}/${p.version ?? ''})`,
    );
  return found;
}

function requireObject(obj: unknown): KubeObject {
  if (!obj || typeof obj !== 'object' || Array.isArray(obj))
    throw badRequest('the request body must be a JSON object');
  const o = obj as KubeObject;
  o.metadata ??= { name: '' };
  return o;
}

async function readBody(req: IncomingMessage, contentType: string | undefined): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new ApiError(413, 'BadRequest', `request body larger than ${MAX_BODY} bytes`);
    chunks.push(chunk as Buffer);
  }
  const bytes = Buffer.concat(chunks);
  // client-go's typed clients (kubectl create deployment) send built-in kinds as protobuf.
  if (contentType?.startsWith(PROTOBUF_CONTENT_TYPE)) return decodeProtobufBody(bytes);
  const text = bytes.toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (err) {
    throw badRequest(`the request body is not valid JSON: ${(err as Error).message}`);
  }
}

/** The v2 document as protobuf when the client asks for it (kubectl does), else as JSON. */
function sendOpenApiV2(res: ServerResponse, doc: Record<string, unknown>, accept: string | undefined): void {
  if (!acceptsOpenApiV2Protobuf(accept)) {
    sendJson(res, 200, doc);
    return;
  }
  const body = encodeOpenApiV2(doc);
  res.writeHead(200, { 'Content-Type': OPENAPI_V2_PROTOBUF, 'Content-Length': body.length });
  res.end(body);
}

function sendJson(res: ServerResponse, code: number, body: unknown): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(code, {
    'Content-Type': typeof body === 'string' ? 'text/plain' : 'application/json',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

function sendError(res: ServerResponse, err: unknown): void {
  const apiErr =
    err instanceof ApiError
      ? err
      : new ApiError(
          500,
          'InternalError',
          `Internal error occurred: ${(err as Error)?.message ?? String(err)}`,
        );
  if (res.headersSent) {
    res.end();
    return;
  }
  sendJson(res, apiErr.code, apiErr.toStatus());
}
