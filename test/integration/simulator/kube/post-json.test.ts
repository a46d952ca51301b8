import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { postJson } from '../../../../functions/simulator/kube/admission/post-json.js';
import { keepIdleConnections } from '../../../../functions/simulator/loopback-server.js';

let server: Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A webhook that answers each review with the client port it came from. */
async function webhook(status = 200): Promise<string> {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ port: req.socket.remotePort }));
    });
  });
  keepIdleConnections(server);
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/validate`;
}

describe('admission webhook calls', () => {
  it('reuse a kept-alive connection for calls one after another', async () => {
    const url = await webhook();
    const first = (await postJson(url, { n: 1 }, 5_000)) as { port: number };
    const second = (await postJson(url, { n: 2 }, 5_000)) as { port: number };
    expect(second.port).toBe(first.port);
  });

  it('still reject a non-2xx answer naming its status', async () => {
    const url = await webhook(500);
    await expect(postJson(url, {}, 5_000)).rejects.toThrow(/HTTP 500/);
  });
});
