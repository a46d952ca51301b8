import {
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingMessage,
  type RequestOptions,
} from 'node:http';
import { type AgentOptions, Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { KubeApiError } from './kube-errors.js';

/**
 * An API server and how to trust it over TLS: `ca` is the PEM of the CA that signed its
 * certificate (the cluster CA for EKS); `cert` / `key` a client certificate (kubeconfig users with
 * certificate auth); `rejectUnauthorized` is false only for kubeconfig `insecure-skip-tls-verify`;
 * `servername` is kubeconfig `tls-server-name`.
 */
export interface KubeServer
  extends Pick<AgentOptions, 'ca' | 'cert' | 'key' | 'rejectUnauthorized' | 'servername'> {
  /** `https://host[:port][/prefix]`; `http://` only for a loopback server such as the simulator. */
  readonly url: string;
  /** What the server is called in errors, e.g. `EKS cluster prod`. */
  readonly name: string;
}

/** Content types of the three patch kinds the API server accepts. */
const PATCH_CONTENT_TYPES = {
  /** JSON merge patch (RFC 7386): objects merge, `null` removes, lists are replaced. */
  merge: 'application/merge-patch+json',
  /** Strategic merge patch: like merge, but some lists merge by a key (containers by name...). */
  strategic: 'application/strategic-merge-patch+json',
  /** JSON patch (RFC 6902): a list of operations. */
  json: 'application/json-patch+json',
} as const;

/** A patch kind: `merge`, `strategic` or `json`. */
export type PatchKind = keyof typeof PATCH_CONTENT_TYPES;

/** One request: a path under the server URL, query parameters and a JSON body. */
export interface KubeRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** `/api/v1/nodes`, `/apis/apps/v1/daemonsets`... (segments already encoded). */
  readonly path: string;
  /** Query parameters; undefined values are left out. */
  readonly query?: Readonly<Record<string, string | number | undefined>>;
  /** Sent as JSON. */
  readonly body?: unknown;
  /** Content-Type of the body (default `application/json`). */
  readonly contentType?: string;
}

/** How long a request may wait for its whole answer before it fails (default of {@link KubeTransport}). */
export const REQUEST_TIMEOUT_MS = 30_000;

/** Headers that authenticate a request (`Authorization: Bearer ...`), read before every request. */
export type KubeCredentials = () => Promise<Readonly<Record<string, string>>>;

/** The keep-alive connection pool for a server: HTTPS with its CA and client certificate, or plain HTTP. */
export function kubeAgent(server: KubeServer): HttpAgent {
  const url = parseServerUrl(server.url);
  if (url.protocol === 'http:') return new HttpAgent({ keepAlive: true });
  return new HttpsAgent({
    keepAlive: true,
    ca: server.ca,
    cert: server.cert,
    key: server.key,
    rejectUnauthorized: server.rejectUnauthorized ?? true,
    servername: server.servername,
  });
}

/**
 * Kubernetes REST over `node:https` / `node:http`: JSON bodies in, plain JSON objects out (the
 * wire shapes, timestamps as strings). A non-2xx answer is a {@link KubeApiError} with the status
 * and the API server's message; every error names the request.
 */
export class KubeTransport {
  private readonly url: URL;
  private readonly send: typeof httpRequest;
  private readonly agent: HttpAgent;

  constructor(
    private readonly server: KubeServer,
    private readonly credentials: KubeCredentials,
    /** A request without its whole answer after this long fails, so a stuck connection cannot hang a run. */
    private readonly timeoutMs = REQUEST_TIMEOUT_MS,
  ) {
    this.url = parseServerUrl(server.url);
    this.agent = kubeAgent(server);
    this.send = this.url.protocol === 'http:' ? httpRequest : httpsRequest;
  }

  /** GETs a path. */
  get<T>(path: string, query?: KubeRequest['query']): Promise<T> {
    return this.request<T>({ method: 'GET', path, query });
  }

  /** Sends a patch of the given kind with its content type. */
  patch<T>(path: string, kind: PatchKind, body: unknown): Promise<T> {
    return this.request<T>({ method: 'PATCH', path, body, contentType: PATCH_CONTENT_TYPES[kind] });
  }

  /** Sends one request and returns the parsed JSON answer (undefined for an empty body). */
  async request<T>(request: KubeRequest): Promise<T> {
    const what = `${request.method} ${request.path}`;
    const body = request.body === undefined ? undefined : Buffer.from(JSON.stringify(request.body));
    const headers: Record<string, string | number> = {
      Accept: 'application/json',
      'User-Agent': 'joiner',
      ...(await this.credentials()),
    };
    if (body) {
      headers['Content-Type'] = request.contentType ?? 'application/json';
      headers['Content-Length'] = body.length;
    }
    const options: RequestOptions = {
      method: request.method,
      protocol: this.url.protocol,
      hostname: this.url.hostname.replace(/^\[|\]$/g, ''),
      port: this.url.port || undefined,
      path: this.pathOf(request),
      headers,
      agent: this.agent,
    };
    let response = await this.exchange(options, body, what);
    // A read the API server could not answer now (5xx, 429) is asked again, twice at most, after a
    // short pause: reads are idempotent, and a run failing on one bad answer costs a whole retry.
    for (
      let attempt = 0;
      request.method === 'GET' && retryable(response.status) && attempt < READ_RETRIES.length;
      attempt++
    ) {
      await new Promise((resolve) => setTimeout(resolve, READ_RETRIES[attempt]));
      response = await this.exchange(options, body, what);
    }
    return parseAnswer<T>(what, response.status, response.text);
  }

  private pathOf(request: KubeRequest): string {
    const prefix = this.url.pathname.replace(/\/+$/, '');
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(request.query ?? {}))
      if (value !== undefined) query.set(name, String(value));
    const search = query.toString();
    return `${prefix}${request.path}${search ? `?${search}` : ''}`;
  }

  /**
   * Sends the request and reads the whole answer. A kept-alive connection the server closed while
   * idle (common after a Lambda freeze) fails with ECONNRESET before the server saw the request;
   * that request is sent once more on a new connection.
   */
  private exchange(
    options: RequestOptions,
    body: Buffer | undefined,
    what: string,
    retried = false,
  ): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      const req = this.send(options, (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', (error) => reject(this.networkError(what, error)));
      });
      req.setTimeout(this.timeoutMs, () => req.destroy(new Error(`no answer within ${this.timeoutMs} ms`)));
      req.on('error', (error: NodeJS.ErrnoException) => {
        if (req.reusedSocket && error.code === 'ECONNRESET' && !retried)
          resolve(this.exchange(options, body, what, true));
        else reject(this.networkError(what, error));
      });
      req.end(body);
    });
  }

  private networkError(what: string, error: Error): Error {
    const where = `the API server of ${this.server.name} at ${this.url.origin}`;
    return new Error(`${what}: cannot reach ${where}: ${error.message}`, { cause: error });
  }
}

function parseServerUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`the Kubernetes API server URL ${JSON.stringify(url)} is not a URL`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw new Error(`the Kubernetes API server URL ${url} must start with https:// (or http://)`);
  return parsed;
}

/** The JSON of a 2xx answer, or the {@link KubeApiError} of any other. */
/** Pauses (ms) before the retries of a read answered 5xx or 429. */
const READ_RETRIES = [50, 200] as const;

/** Whether an answer's status is worth asking again for a read. */
function retryable(status: number): boolean {
  return status === 429 || status === 500 || status === 502 || status === 503 || status === 504;
}

function parseAnswer<T>(what: string, status: number, text: string): T {
  if (status < 200 || status >= 300) throw apiError(what, status, text);
  if (text.trim() === '') return undefined as T;
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw new Error(
      `${what}: the API server answered HTTP ${status} with a body that is not JSON (${(error as Error).message}): ${excerpt(text)}`,
    );
  }
}

function apiError(what: string, status: number, text: string): KubeApiError {
  let parsed: { message?: unknown; reason?: unknown } | undefined;
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    parsed = undefined;
  }
  const message = typeof parsed?.message === 'string' ? parsed.message : excerpt(text) || 'no message';
  const reason = typeof parsed?.reason === 'string' ? parsed.reason : undefined;
  return new KubeApiError(what, status, message, reason);
}

function excerpt(text: string): string {
  const trimmed = text.trim();
  return trimmed.length > 200 ? `${trimmed.slice(0, 200)}...` : trimmed;
}
