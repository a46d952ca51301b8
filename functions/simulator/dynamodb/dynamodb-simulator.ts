/**
 * The simulated DynamoDB: dynalite in-process on 127.0.0.1, in memory, with tables ACTIVE at once
 * (no CREATING / UPDATING / DELETING delays). No transactions and no TTL, as DESIGN.md notes.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { ApiLatency } from '../latency/api-latency.js';
import { listenOnLoopback } from '../loopback-server.js';

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

/** Starts dynalite on 127.0.0.1 (free port); with `latency`, each call waits its modeled latency first. */
export async function startDynamoDbSimulator(
  options: { latency?: ApiLatency } = {},
): Promise<DynamoDbSimulator> {
  const server: Server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  const latency = options.latency;
  if (latency) {
    const serve = server.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>;
    server.removeAllListeners('request');
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      const call = String(req.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
      void latency.wait('dynamodb', call).then(() => {
        for (const listener of serve) listener.call(server, req, res);
      });
    });
  }
  return listenOnLoopback(server);
}
