/**
 * How the simulated services serve: an HTTP server bound to 127.0.0.1 (a free port unless one is
 * given), its base URL, and a close that also ends kept-alive connections.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A listening simulated endpoint. */
export interface LoopbackEndpoint {
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  readonly url: string;
  readonly close: () => Promise<void>;
}

/** Starts `server` listening on 127.0.0.1. */
export async function listenOnLoopback(server: Server, port = 0): Promise<LoopbackEndpoint> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const bound = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${bound}`, close: () => closeServer(server) };
}

/** Closes `server`, ending its open connections. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}
