/**
 * The simulated DynamoDB: dynalite in-process on 127.0.0.1, in memory, with tables ACTIVE at once
 * (no CREATING / UPDATING / DELETING delays). No transactions and no TTL, as DESIGN.md notes.
 */
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';

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

/** Starts dynalite on 127.0.0.1 (free port). */
export async function startDynamoDbSimulator(): Promise<DynamoDbSimulator> {
  const server: Server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
