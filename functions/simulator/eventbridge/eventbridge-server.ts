/**
 * The simulated EventBridge HTTP endpoint: the JSON 1.1 protocol `@aws-sdk/client-eventbridge`
 * speaks (POST, `X-Amz-Target: AWSEvents.<Action>`, `application/x-amz-json-1.1`), errors as
 * `{ "__type", "message" }`. Actions: PutEvents, CreateEventBus, PutRule, PutTargets, ListRules,
 * ListTargetsByRule. Faults (service `eventbridge`) are injected per action.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { TargetInput } from '../../shared/target-input.js';
import { parseAwsJsonBody, readAwsJsonBody, sendAwsJson } from '../aws-json-protocol.js';
import type { FaultInjector } from '../faults.js';
import type { ServiceAuthorizer } from '../iam/authorization/authorization-request.js';
import { accessKeyOf, gateCall } from '../iam/authorization/service-gate.js';
import type { ApiLatency } from '../latency/api-latency.js';
import { listenOnLoopback } from '../loopback-server.js';
import { busName, EventBusError, type EventBusRegistry } from './event-bus.js';
import { InvalidEventPatternError } from './event-pattern.js';
import { putEvents, RequestError } from './put-events.js';

/** The Input / InputPath / InputTransformer of a PutTargets target, when it has any. */
function targetInputOf(target: Record<string, unknown>): TargetInput | undefined {
  const input: Record<string, unknown> = {};
  for (const field of ['Input', 'InputPath', 'InputTransformer'] as const) {
    if (target[field] !== undefined) input[field] = target[field];
  }
  return Object.keys(input).length > 0 ? (input as TargetInput) : undefined;
}

/** A running EventBridge endpoint. */
export interface EventBridgeServer {
  /** `http://127.0.0.1:PORT`. */
  readonly url: string;
  close(): Promise<void>;
}

type Action = (registry: EventBusRegistry, body: Record<string, unknown>) => Promise<unknown> | unknown;

const MAX_BODY_BYTES = 1024 * 1024;

const requestError = (code: string, message: string, status?: number) =>
  new RequestError(code, message, status);

const ACTIONS: Record<string, Action> = {
  PutEvents: (registry, body) => putEvents(registry, body),
  CreateEventBus: (registry, body) => ({ EventBusArn: registry.createBus(required(body, 'Name')) }),
  PutRule: (registry, body) => {
    const pattern = parsePattern(required(body, 'EventPattern'));
    const state = body.State === 'DISABLED' ? 'DISABLED' : 'ENABLED';
    return { RuleArn: registry.putRule(busOf(body), required(body, 'Name'), pattern, state) };
  },
  PutTargets: (registry, body) => {
    const targets = Array.isArray(body.Targets) ? body.Targets : [];
    registry.putTargets(
      busOf(body),
      required(body, 'Rule'),
      targets.map((t: Record<string, unknown>) => ({
        id: required(t, 'Id'),
        arn: required(t, 'Arn'),
        input: targetInputOf(t),
      })),
    );
    return { FailedEntryCount: 0, FailedEntries: [] };
  },
  ListRules: (registry, body) => ({
    Rules: registry.listRules(busOf(body), (body.NamePrefix as string) ?? '').map((rule) => ({
      Name: rule.name,
      EventBusName: rule.bus,
      EventPattern: JSON.stringify(rule.pattern),
      State: rule.state,
    })),
  }),
  ListTargetsByRule: (registry, body) => {
    const rule = registry.listRules(busOf(body)).find((r) => r.name === required(body, 'Rule'));
    if (!rule) throw new EventBusError('ResourceNotFoundException', `Rule ${body.Rule} does not exist.`);
    return { Targets: rule.targets.map((t) => ({ Id: t.id, Arn: t.arn, ...t.input })) };
  },
};

/** Starts the endpoint on 127.0.0.1 (a free port unless `port` is given). */
export async function startEventBridgeServer(
  registry: EventBusRegistry,
  options: {
    faults?: FaultInjector;
    port?: number;
    latency?: ApiLatency;
    /** The account's IAM: each call is authorized (PutEvents once per bus its entries name). */
    iam?: ServiceAuthorizer;
  } = {},
): Promise<EventBridgeServer> {
  const server = createServer((req, res) => {
    void handle(registry, options.faults, req, res, options.latency, options.iam);
  });
  return listenOnLoopback(server, options.port ?? 0);
}

async function handle(
  registry: EventBusRegistry,
  faults: FaultInjector | undefined,
  req: IncomingMessage,
  res: ServerResponse,
  latency?: ApiLatency,
  iam?: ServiceAuthorizer,
): Promise<void> {
  try {
    const target = String(req.headers['x-amz-target'] ?? '');
    const [prefix, name] = target.split('.');
    const action = ACTIONS[name];
    const raw = await readAwsJsonBody(req, MAX_BODY_BYTES, requestError);
    if (Object.hasOwn(ACTIONS, name)) await latency?.wait('events', name);
    if (req.method !== 'POST' || prefix !== 'AWSEvents' || !action) {
      throw new RequestError('UnknownOperationException', `unsupported operation '${target || req.method}'`);
    }
    await applyFault(faults, name);
    const body = parseAwsJsonBody(raw, requestError);
    const denial = gateCall(iam, accessKeyOf(req.headers, req.url), 'json', () =>
      eventsResourcesOf(registry, name, body).map((resource) => ({
        action: `events:${name}`,
        resource,
        context: {},
      })),
    );
    if (denial) throw new RequestError(denial.code, denial.message, denial.status);
    sendAwsJson(res, 200, await action(registry, body));
  } catch (error) {
    const [code, message, status] = describeError(error);
    sendAwsJson(res, status, { __type: code, message });
  }
}

async function applyFault(faults: FaultInjector | undefined, action: string): Promise<void> {
  const fault = faults?.check('eventbridge', action);
  if (!fault) return;
  await faults?.wait(fault.latencyMs);
  if (fault.error) {
    throw new RequestError(
      fault.error,
      fault.message ?? `injected fault: ${fault.error}`,
      fault.httpStatus ?? 400,
    );
  }
}

function describeError(error: unknown): [string, string, number] {
  if (error instanceof RequestError) return [error.code, error.message, error.status];
  if (error instanceof EventBusError) return [error.code, error.message, 400];
  if (error instanceof InvalidEventPatternError) return ['InvalidEventPatternException', error.message, 400];
  return ['InternalException', error instanceof Error ? error.message : String(error), 500];
}

function parsePattern(text: string): Record<string, unknown> {
  try {
    return JSON.parse(text);
  } catch {
    throw new InvalidEventPatternError('EventPattern is not valid JSON');
  }
}

function required(body: Record<string, unknown>, field: string): string {
  const value = body[field];
  if (typeof value !== 'string' || value === '') {
    throw new RequestError('ValidationException', `${field} is required and must be a non-empty string`);
  }
  return value;
}

function busOf(body: Record<string, unknown>): string {
  return typeof body.EventBusName === 'string' ? body.EventBusName : 'default';
}

/** The ARNs an EventBridge call acts on: the buses of PutEvents entries, a rule, a bus, or `*`. */
export function eventsResourcesOf(
  registry: EventBusRegistry,
  action: string,
  body: Record<string, unknown>,
): string[] {
  const arnOfBus = (bus: string) => registry.busArn(busName(bus));
  switch (action) {
    case 'PutEvents': {
      const entries = Array.isArray(body.Entries) ? (body.Entries as Record<string, unknown>[]) : [];
      return [
        ...new Set(
          entries.map((e) => arnOfBus(typeof e?.EventBusName === 'string' ? e.EventBusName : 'default')),
        ),
      ];
    }
    case 'CreateEventBus':
      return [arnOfBus(typeof body.Name === 'string' ? body.Name : '')];
    case 'PutRule':
    case 'PutTargets':
    case 'ListTargetsByRule': {
      const rule = typeof body.Name === 'string' ? body.Name : typeof body.Rule === 'string' ? body.Rule : '';
      return [registry.ruleArn(busName(busOf(body)), rule)];
    }
    default:
      return ['*'];
  }
}
