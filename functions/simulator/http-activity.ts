/**
 * Feeds the HTTP traffic of a simulated cloud into its {@link Activity}, through Node's
 * `diagnostics_channel` (no server or client needs to know):
 *
 * - a request served by a simulated service is a `sim` scope until its response is finished, except
 *   long polls (SQS ReceiveMessage waits for messages, it does no work) and function URLs (the
 *   invocation behind them is a `joiner` scope of its own);
 * - a request sent from a scope suspends that scope until the answer arrives: a handler waiting for
 *   EC2 is not computing;
 * - every request and answer is a change the clock waits to settle, and a request counts as the
 *   simulator's work while it crosses loopback, both ways: from the moment it is sent until the
 *   service reads it, and from the moment the service has written its answer until the caller has
 *   read all of it. Crossing takes a few turns of the event loop, more on a busy host; without this
 *   the clock would see nobody working meanwhile and move on to its next timer, and how far it got
 *   would depend on the host's load (a call to a service without modeled latency let it run on);
 * - a request sent by a joiner invocation brings the compute it owes (compute-ledger.ts) to the
 *   simulated service, whose modeled latency wait pays it first; the bytes of the answer are charged
 *   to the invocation (it parses them); a service that waits no latency hands the debt back.
 */

import { subscribe } from 'node:diagnostics_channel';
import type { ClientRequest, IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { type Activity, type ActivityScope, type Billing, currentScope } from './activity.js';

/** How requests to a port count. */
export type PortRole = 'service' | 'function-url';

interface Registration {
  readonly activity: Activity;
  readonly role: PortRole;
}

const ports = new Map<number, Registration>();
let subscribed = false;

/** Tracks the requests served on `port` (a simulated service's) for `activity`; returns an untrack function. */
export function trackPort(activity: Activity, port: number, role: PortRole = 'service'): () => void {
  ensureSubscribed();
  const registration = { activity, role };
  ports.set(port, registration);
  return () => {
    if (ports.get(port) === registration) ports.delete(port);
  };
}

/** Tracks the port of a `http://host:port` URL. */
export function trackUrl(activity: Activity, url: string, role: PortRole = 'service'): () => void {
  return trackPort(activity, Number(new URL(url).port), role);
}

function ensureSubscribed(): void {
  if (subscribed) return;
  subscribed = true;
  subscribe('http.server.request.start', (message) => {
    const { request, response, socket } = message as {
      request: IncomingMessage;
      response: ServerResponse;
      socket: Socket;
    };
    const registration = ports.get(socket.localPort ?? -1);
    if (!registration) return;
    registration.activity.poke();
    // The compute a request from a joiner invocation brings, and its crossing, if any.
    const billing = takeByPort(billings, socket);
    const transit = takeByPort(transits, socket);
    transit?.arrived();
    response.once('finish', () => transit?.answered());
    if (registration.role === 'function-url' || isLongPoll(request)) return;
    const scope = registration.activity.enter('sim');
    scope.billing = billing;
    const end = (): void => scope.end();
    response.once('finish', end);
    response.once('close', end);
  });
  subscribe('http.client.request.start', (message) => {
    const { request } = message as { request: ClientRequest };
    const registration = ports.get(portOf(request));
    const scope = currentScope();
    registration?.activity.poke();
    const ledger = registration ? scope?.ledger : undefined;
    const what = requestKey(request);
    const billing: Billing | undefined = ledger && {
      ledger,
      request: what,
      call: ledger.nextCall(what),
      computeMs: ledger.takeForCall(),
    };
    if (billing) carry(request.socket, billing);
    if (registration) {
      const transit = new Transit(registration.activity);
      onceConnected(request.socket, (port) => transits.set(port, transit));
      request.once('response', (response: IncomingMessage) => {
        response.once('end', () => transit.done());
        response.once('close', () => transit.done());
      });
      request.once('close', () => transit.done());
      request.once('error', () => transit.done());
    }
    scope?.suspend();
    let answered = false;
    const answer = (response?: IncomingMessage): void => {
      if (answered) return;
      answered = true;
      if (billing) {
        // A service that waits no latency did not take the compute: the invocation pays it at its
        // next call or at its end. The answer's parsing (and the work over it) is charged the same
        // way, before the client reads the body, so always to the same call.
        billing.ledger.charge(billing.computeMs);
        billing.computeMs = 0;
        billing.ledger.chargeBytes(Number(response?.headers['content-length'] ?? 0) || 0);
      }
      scope?.resume();
      registration?.activity.poke();
    };
    request.once('response', answer);
    request.once('close', () => answer());
    request.once('error', () => answer());
  });
}

/**
 * The compute requests from joiner invocations bring, by the client socket's local port (the
 * served request's remote port): this module publishes a request once it is written, when its
 * headers can no longer change, and the service reads it only after the socket connected.
 */
const billings = new Map<number, Billing>();

function carry(socket: Socket | null, billing: Billing): void {
  onceConnected(socket, (port) => billings.set(port, billing));
}

/** Calls `put` with the client socket's local port once it is connected (at once if it is). */
function onceConnected(socket: Socket | null, put: (port: number) => void): void {
  if (!socket) return;
  const ready = (): void => {
    if (socket.localPort !== undefined) put(socket.localPort);
  };
  if (socket.connecting || socket.localPort === undefined) socket.once('connect', ready);
  else ready();
}

/**
 * One request on its way between a caller and a simulated service: the simulator's work (a scope
 * of no one's) while it crosses loopback, out and back.
 */
class Transit {
  private crossing?: ActivityScope;
  private finished = false;

  constructor(private readonly activity: Activity) {
    this.crossing = activity.open('sim');
  }

  /** The service has read the request: its own scope (or the long poll) takes over. */
  arrived(): void {
    this.crossing?.end();
    this.crossing = undefined;
  }

  /** The service has written its answer: it crosses back until the caller has read it. */
  answered(): void {
    if (this.finished || this.crossing) return;
    this.crossing = this.activity.open('sim');
  }

  /** The caller has the whole answer (or gave up). */
  done(): void {
    this.finished = true;
    this.crossing?.end();
    this.crossing = undefined;
  }
}

/** Requests crossing loopback, by the client socket's local port (the served request's remote port). */
const transits = new Map<number, Transit>();

/**
 * Takes what the client socket's side left for this request in `byPort` (by its local port, the
 * served request's remote port), if anything.
 */
function takeByPort<T>(byPort: Map<number, T>, socket: Socket): T | undefined {
  const port = socket.remotePort;
  if (port === undefined) return undefined;
  const value = byPort.get(port);
  byPort.delete(port);
  return value;
}

/** SQS long polls and Kubernetes watches wait for news; they do no work while open. */
function isLongPoll(request: IncomingMessage): boolean {
  return (
    request.headers['x-amz-target'] === 'AmazonSQS.ReceiveMessage' ||
    /[?&]watch=(true|1)\b/.test(request.url ?? '')
  );
}

/**
 * What a request is, as far as its latency draw goes: its method, path and target header (not its
 * port, which differs from run to run; the draw is by service already). Concurrent calls of an
 * invocation reach this module in an order that depends on the host (a call on a pooled socket is
 * published at once, one that needs a new connection after it connects), so their latency is drawn
 * by what they are and their rank among the same requests, not among all of the invocation's calls.
 */
function requestKey(request: ClientRequest): string {
  return `${request.method} ${request.path} ${String(request.getHeader('x-amz-target') ?? '')}`;
}

function portOf(request: ClientRequest): number {
  const host = String(request.getHeader('host') ?? '');
  const port = Number(host.slice(host.lastIndexOf(':') + 1));
  return Number.isInteger(port) ? port : -1;
}
