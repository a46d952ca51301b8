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

/**
 * Keeps `server`'s idle keep-alive connections open until it closes. Node closes a connection idle
 * for 5 wall seconds by default; a client that reuses it just then gets a reset and its SDK retries
 * after a wall-time backoff. How often that happens depends on how busy the host is (wall time
 * between two calls of a simulated minute), so a simulated service never closes idle connections.
 */
export function keepIdleConnections(server: Server): void {
  server.keepAliveTimeout = 0;
}

/** Starts `server` listening on 127.0.0.1 (its idle connections kept, see {@link keepIdleConnections}). */
export async function listenOnLoopback(server: Server, port = 0): Promise<LoopbackEndpoint> {
  keepIdleConnections(server);
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
