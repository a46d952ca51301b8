import { request } from 'node:http';
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Activity } from '../../../functions/simulator/activity.js';
import { trackPort } from '../../../functions/simulator/http-activity.js';

let server: Server | undefined;
let untrack: (() => void) | undefined;

afterEach(async () => {
  untrack?.();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

const turns = async (n: number): Promise<void> => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe("HTTP activity: a request crossing loopback is the simulator's work", () => {
  it('keeps the simulation busy while a sent request has not been read by the service', async () => {
    const activity = new Activity();
    const accepted: Socket[] = [];
    // A service that is slow to read: it accepts the connection and reads nothing yet.
    server = createServer((socket) => {
      socket.pause();
      accepted.push(socket);
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    untrack = trackPort(activity, port);
    const ended = new Promise<void>((resolve) => {
      const req = request({ host: '127.0.0.1', port, path: '/' });
      req.on('error', () => resolve());
      req.on('close', () => resolve());
      req.end();
    });
    // Long past the few turns the activity needs to settle: the request is still on its way.
    await turns(20);
    expect(accepted.length).toBe(1);
    expect(activity.simBusy).toBe(true);
    // The service drops it: the caller gives up, nothing crosses any more.
    for (const socket of accepted) socket.destroy();
    await ended;
    await turns(20);
    expect(activity.simBusy).toBe(false);
  });
});
