import {
  createServer,
  Agent as HttpAgent,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KubeApiError, kubeError, statusOf } from '../../../../functions/adapters/kube/kube-errors.js';
import { listAll, PAGE_SIZE } from '../../../../functions/adapters/kube/kube-lists.js';
import { KubeTransport, kubeAgent } from '../../../../functions/adapters/kube/kube-transport.js';

/** A request as the test server saw it. */
interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
  readonly socket: Socket;
}

type Answer = (seen: Seen, res: ServerResponse) => void;

/** A tiny HTTP server on 127.0.0.1 answering with `answer`, recording what it was sent. */
class TestServer {
  readonly seen: Seen[] = [];
  answer: Answer = (_seen, res) => json(res, 200, {});
  private server?: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const seen = {
          method: req.method ?? '',
          url: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          socket: req.socket,
        };
        this.seen.push(seen);
        this.answer(seen, res);
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

let server: TestServer;
let transport: KubeTransport;
let token: string;

beforeEach(async () => {
  server = new TestServer();
  await server.start();
  token = 't1';
  transport = new KubeTransport({ url: server.url, name: 'test cluster' }, async () => ({
    Authorization: `Bearer ${token}`,
  }));
});

afterEach(async () => {
  await server.close();
});

describe('KubeTransport', () => {
  it('sends JSON with the bearer token read before each request and returns plain JSON', async () => {
    server.answer = (_seen, res) =>
      json(res, 200, { metadata: { creationTimestamp: '2026-01-01T00:00:00Z' } });
    const answer = await transport.get<{ metadata: { creationTimestamp: unknown } }>('/api/v1/nodes/n1', {
      resourceVersion: '0',
      skipped: undefined,
    });
    expect(answer.metadata.creationTimestamp).toBe('2026-01-01T00:00:00Z');
    token = 't2';
    await transport.request({ method: 'POST', path: '/api/v1/namespaces/default/events', body: { a: 1 } });
    const [get, post] = server.seen;
    expect([get.method, get.url, get.headers.authorization, get.headers.accept]).toEqual([
      'GET',
      '/api/v1/nodes/n1?resourceVersion=0',
      'Bearer t1',
      'application/json',
    ]);
    expect(get.headers['content-type']).toBeUndefined();
    expect([post.method, post.headers.authorization, post.headers['content-type'], post.body]).toEqual([
      'POST',
      'Bearer t2',
      'application/json',
      '{"a":1}',
    ]);
  });

  it('sends each patch kind with its content type', async () => {
    await transport.patch('/api/v1/nodes/n1', 'merge', { metadata: {} });
    await transport.patch('/api/v1/nodes/n1', 'strategic', { metadata: {} });
    await transport.patch('/api/v1/nodes/n1', 'json', [{ op: 'add', path: '/a', value: 1 }]);
    expect(server.seen.map((s) => [s.method, s.headers['content-type']])).toEqual([
      ['PATCH', 'application/merge-patch+json'],
      ['PATCH', 'application/strategic-merge-patch+json'],
      ['PATCH', 'application/json-patch+json'],
    ]);
  });

  it('keeps the path prefix of the server URL and encodes query parameters', async () => {
    const prefixed = new KubeTransport(
      { url: `${server.url}/k8s/clusters/c-1/`, name: 'proxied' },
      async () => ({}),
    );
    await prefixed.get('/api/v1/pods', { fieldSelector: 'spec.nodeName=,status.phase=Pending' });
    expect(server.seen[0].url).toBe(
      '/k8s/clusters/c-1/api/v1/pods?fieldSelector=spec.nodeName%3D%2Cstatus.phase%3DPending',
    );
  });

  it('reuses kept-alive connections and resends once on a connection the server closed while idle', async () => {
    await transport.get('/a');
    await transport.get('/b');
    expect(server.seen[0].socket).toBe(server.seen[1].socket);
    // The next request on that connection finds it closed (as after a Lambda freeze).
    server.answer = (seen, res) => {
      if (seen.socket === server.seen[0].socket) seen.socket.destroy();
      else json(res, 200, { ok: true });
    };
    expect(await transport.get('/c')).toEqual({ ok: true });
    expect(server.seen.map((s) => s.url)).toEqual(['/a', '/b', '/c', '/c']);
  });

  it('returns undefined for an empty answer', async () => {
    server.answer = (_seen, res) => res.writeHead(200).end();
    expect(await transport.request({ method: 'DELETE', path: '/api/v1/nodes/n1' })).toBeUndefined();
  });

  it('fails a 2xx answer that is not JSON with an error naming the request', async () => {
    server.answer = (_seen, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html>proxy</html>');
    await expect(transport.get('/api/v1/nodes')).rejects.toThrow(
      /^GET \/api\/v1\/nodes: the API server answered HTTP 200 with a body that is not JSON \(.*\): <html>proxy<\/html>$/,
    );
  });

  it('fails a non-2xx answer with its status, and the reason and message of its Status', async () => {
    server.answer = (_seen, res) =>
      json(res, 409, {
        kind: 'Status',
        status: 'Failure',
        reason: 'Conflict',
        code: 409,
        message: 'Operation cannot be fulfilled on nodes "n1": the object has been modified',
      });
    const error = await transport.patch('/api/v1/nodes/n1', 'merge', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KubeApiError);
    expect(error).toMatchObject({
      code: 409,
      reason: 'Conflict',
      serverMessage: 'Operation cannot be fulfilled on nodes "n1": the object has been modified',
      message:
        'PATCH /api/v1/nodes/n1 failed (HTTP 409): Operation cannot be fulfilled on nodes "n1": the object has been modified',
    });
    expect(statusOf(error)).toBe(409);
    const wrapped = kubeError('patching node n1', error);
    expect(statusOf(wrapped)).toBe(409);
    expect(wrapped.message).toBe(
      'patching node n1 failed (HTTP 409): Operation cannot be fulfilled on nodes "n1": the object has been modified',
    );
  });

  it('fails a non-2xx answer without a Status with the start of its body', async () => {
    server.answer = (_seen, res) => res.writeHead(503).end(`upstream unavailable ${'x'.repeat(500)}`);
    const error = (await transport.get('/api/v1/nodes').catch((e: unknown) => e)) as KubeApiError;
    expect(error.code).toBe(503);
    expect(error.message).toMatch(
      /^GET \/api\/v1\/nodes failed \(HTTP 503\): upstream unavailable x+\.\.\.$/,
    );
    expect(error.message.length).toBeLessThan(300);
  });

  it('fails a request whose answer does not come in time, naming the request and the server', async () => {
    server.answer = () => undefined;
    const impatient = new KubeTransport({ url: server.url, name: 'test cluster' }, async () => ({}), 50);
    const error = (await impatient.get('/api/v1/pods').catch((e: unknown) => e)) as Error;
    expect(error.message).toBe(
      `GET /api/v1/pods: cannot reach the API server of test cluster at ${server.url}: no answer within 50 ms`,
    );
  });

  it('fails with an error naming the server when it cannot connect', async () => {
    const url = server.url;
    await server.close();
    const error = (await transport.get('/api/v1/nodes').catch((e: unknown) => e)) as Error;
    expect(error.message).toBe(
      `GET /api/v1/nodes: cannot reach the API server of test cluster at ${url}: connect ECONNREFUSED ${url.slice('http://'.length)}`,
    );
    expect(statusOf(error)).toBeUndefined();
    expect(kubeError('listing nodes', error).message).toMatch(
      /^listing nodes failed: GET \/api\/v1\/nodes: cannot reach/,
    );
    server = new TestServer();
    await server.start();
  });

  it('rejects a server URL that is not http(s)', () => {
    expect(() => new KubeTransport({ url: 'ftp://x', name: 'x' }, async () => ({}))).toThrow(
      'the Kubernetes API server URL ftp://x must start with https:// (or http://)',
    );
    expect(() => new KubeTransport({ url: 'not a url', name: 'x' }, async () => ({}))).toThrow(
      'the Kubernetes API server URL "not a url" is not a URL',
    );
  });
});

describe('kubeAgent', () => {
  it('trusts the given CA and presents the client certificate over HTTPS, with kept-alive connections', () => {
    const agent = kubeAgent({
      url: 'https://ABC.gr7.us-west-2.eks.amazonaws.com',
      name: 'EKS cluster prod',
      ca: 'CA PEM',
      cert: 'CERT PEM',
      key: 'KEY PEM',
      servername: 'kubernetes',
    });
    expect(agent).toBeInstanceOf(HttpsAgent);
    expect((agent as HttpsAgent).options).toMatchObject({
      keepAlive: true,
      ca: 'CA PEM',
      cert: 'CERT PEM',
      key: 'KEY PEM',
      rejectUnauthorized: true,
      servername: 'kubernetes',
    });
  });

  it('skips certificate checks only when told to, and uses plain HTTP for an http:// server', () => {
    const insecure = kubeAgent({ url: 'https://127.0.0.1:6443', name: 'kind', rejectUnauthorized: false });
    expect((insecure as HttpsAgent).options).toMatchObject({ rejectUnauthorized: false });
    const plain = kubeAgent({ url: 'http://127.0.0.1:8080', name: 'simulator' });
    expect(plain).toBeInstanceOf(HttpAgent);
    expect(plain).not.toBeInstanceOf(HttpsAgent);
  });
});

describe('listAll', () => {
  it('follows continue tokens with the page size and keeps the other query parameters', async () => {
    server.answer = (seen, res) => {
      const page = new URL(seen.url, server.url).searchParams.get('continue');
      if (!page) json(res, 200, { items: [{ n: 1 }, { n: 2 }], metadata: { continue: 'p2' } });
      else if (page === 'p2') json(res, 200, { items: [{ n: 3 }], metadata: { continue: 'p3' } });
      else json(res, 200, { items: null, metadata: { continue: '' } });
    };
    const items = await listAll(transport, '/api/v1/pods', { fieldSelector: 'spec.nodeName=n1' });
    expect(items).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(server.seen.map((s) => s.url)).toEqual([
      `/api/v1/pods?fieldSelector=spec.nodeName%3Dn1&limit=${PAGE_SIZE}`,
      `/api/v1/pods?fieldSelector=spec.nodeName%3Dn1&limit=${PAGE_SIZE}&continue=p2`,
      `/api/v1/pods?fieldSelector=spec.nodeName%3Dn1&limit=${PAGE_SIZE}&continue=p3`,
    ]);
  });

  it('fails with an error naming the path when the answer is not a list', async () => {
    server.answer = (_seen, res) => json(res, 200, 'nope');
    await expect(listAll(transport, '/api/v1/pods')).rejects.toThrow(
      'GET /api/v1/pods: the API server answered a list that is not an object',
    );
  });
});

describe('KubeTransport under API server 5xx', () => {
  it('asks a read again after a 503 or 429, twice at most', async () => {
    let answers = [503, 429];
    server.answer = (_seen, res) => {
      const status = answers.shift();
      if (status) json(res, status, { kind: 'Status', message: 'busy' });
      else json(res, 200, { ok: true });
    };
    expect(await transport.get('/api/v1/nodes')).toEqual({ ok: true });
    expect(server.seen).toHaveLength(3);
    answers = [503, 503, 503];
    await expect(transport.get('/api/v1/nodes')).rejects.toMatchObject({ code: 503 });
    expect(server.seen).toHaveLength(6);
  });

  it('never repeats a write', async () => {
    server.answer = (_seen, res) => json(res, 503, { kind: 'Status', message: 'busy' });
    await expect(
      transport.request({ method: 'POST', path: '/api/v1/namespaces/default/events', body: {} }),
    ).rejects.toMatchObject({ code: 503 });
    expect(server.seen).toHaveLength(1);
  });
});
