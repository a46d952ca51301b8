import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';

const require = createRequire(import.meta.url);
const dynalite = require('dynalite') as (options: { createTableMs?: number }) => Server;

/** A dynalite server on 127.0.0.1 with an ephemeral port, in memory. */
export async function startDynalite(): Promise<{ endpoint: string; close: () => Promise<void> }> {
  const server = dynalite({ createTableMs: 0 });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}
