/**
 * The HTTP side of the simulated EC2: POSTed form-encoded Query requests, dispatched by `Action`,
 * answered with the XML document or the EC2 error envelope; faults injected per action first.
 * With the account's IAM, the SigV4 access key names the caller (an unknown key is `AuthFailure`)
 * and every call is authorized: Describe* on `*` here, resource-level actions by their handlers.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FaultInjector } from '../faults.js';
import type { ServiceAuthorizer } from '../iam/authorization/authorization-request.js';
import { accessKeyOf, callerOf } from '../iam/authorization/service-gate.js';
import type { ApiLatency } from '../latency/api-latency.js';
import { keepIdleConnections } from '../loopback-server.js';
import type { Ec2Action } from './actions/action.js';
import { describeCapacityReservations } from './actions/capacity-reservation-actions.js';
import {
  describeAvailabilityZones,
  describeInstanceTypeOfferings,
  describeInstanceTypes,
  describeSpotPriceHistory,
} from './actions/catalog-actions.js';
import { createFleet } from './actions/fleet-actions.js';
import { describeImages } from './actions/image-actions.js';
import {
  createTags,
  describeInstances,
  runInstances,
  terminateInstances,
} from './actions/instance-actions.js';
import {
  createLaunchTemplate,
  deleteLaunchTemplate,
  describeLaunchTemplates,
} from './actions/launch-template-actions.js';
import {
  describeNetworkInterfaces,
  describeSecurityGroups,
  describeSubnets,
  modifyNetworkInterfaceAttribute,
} from './actions/network-actions.js';
import { describeSpotInstanceRequests, describeVolumes } from './actions/volume-actions.js';
import { requireAuthorized } from './authorization/ec2-caller.js';
import type { Ec2Reference } from './authorization/service-reference.js';
import type { Ec2Context } from './context.js';
import { Ec2Error } from './ec2-error.js';
import { parseQueryBody, readQueryBody } from './query.js';
import type { Ec2Throttling } from './throttling/ec2-throttling.js';
import { errorXml, sendXml, successXml } from './xml-response.js';

const ACTIONS: Readonly<Record<string, Ec2Action>> = {
  DescribeInstanceTypes: describeInstanceTypes,
  DescribeInstanceTypeOfferings: describeInstanceTypeOfferings,
  DescribeAvailabilityZones: describeAvailabilityZones,
  DescribeSpotPriceHistory: describeSpotPriceHistory,
  DescribeCapacityReservations: describeCapacityReservations,
  DescribeSubnets: describeSubnets,
  DescribeSecurityGroups: describeSecurityGroups,
  DescribeNetworkInterfaces: describeNetworkInterfaces,
  ModifyNetworkInterfaceAttribute: modifyNetworkInterfaceAttribute,
  DescribeImages: describeImages,
  CreateLaunchTemplate: createLaunchTemplate,
  DescribeLaunchTemplates: describeLaunchTemplates,
  DeleteLaunchTemplate: deleteLaunchTemplate,
  CreateFleet: createFleet,
  RunInstances: runInstances,
  DescribeInstances: describeInstances,
  TerminateInstances: terminateInstances,
  CreateTags: createTags,
  DescribeVolumes: describeVolumes,
  DescribeSpotInstanceRequests: describeSpotInstanceRequests,
};

/** The actions the simulated EC2 implements. */
export const EC2_ACTIONS: readonly string[] = Object.keys(ACTIONS);

/** Actions whose handlers authorize each resource they touch; the others are authorized on `*`. */
const RESOURCE_LEVEL_ACTIONS = new Set([
  'CreateFleet',
  'RunInstances',
  'CreateLaunchTemplate',
  'DeleteLaunchTemplate',
  'CreateTags',
  'TerminateInstances',
  'ModifyNetworkInterfaceAttribute',
]);

/** The served actions IAM authorizes on `*` (`ec2:Describe…`), checked against the reference at start. */
export const WILDCARD_ACTIONS: readonly string[] = EC2_ACTIONS.filter(
  (a) => !RESOURCE_LEVEL_ACTIONS.has(a),
).map((a) => `ec2:${a}`);

/** The account's IAM as the server uses it. */
export interface Ec2ServerIam {
  readonly authorizer: ServiceAuthorizer;
  readonly reference: Ec2Reference;
}

const MAX_BODY_BYTES = 10 * 1024 * 1024;

/** What the server applies to every request besides the action itself. */
export interface Ec2ServerOptions {
  readonly faults?: FaultInjector;
  readonly latency?: ApiLatency;
  readonly iam?: Ec2ServerIam;
  /** The account's API throttling (token buckets); none when absent. */
  readonly throttling?: Ec2Throttling;
}

/** Starts the HTTP server on 127.0.0.1 and a free port. */
export async function startEc2Server(
  ctx: Ec2Context,
  options: Ec2ServerOptions = {},
): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    void handle(ctx, options, req, res);
  });
  keepIdleConnections(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}` };
}

async function handle(ctx: Ec2Context, options: Ec2ServerOptions, req: IncomingMessage, res: ServerResponse) {
  const { faults, latency, iam, throttling } = options;
  const requestId = randomUUID();
  try {
    if (req.method !== 'POST')
      throw new Ec2Error('InvalidHttpRequest', `The simulated EC2 accepts POST, not ${req.method}`);
    const params = parseQueryBody(
      await readQueryBody(req, MAX_BODY_BYTES, (m) => new Ec2Error('RequestEntityTooLarge', m, 413)),
    );
    const action = params.str('Action');
    if (!action) throw new Ec2Error('MissingAction', 'The request must contain the parameter Action');
    const requestCtx = iam ? authenticated(ctx, iam, req, params.str('X-Amz-Credential')) : ctx;
    // EC2 throttles at the door: a refused request answers after a bare round trip.
    const throttled = ACTIONS[action] && throttling?.admit(accountOf(requestCtx), action, params);
    if (throttled) {
      await latency?.wait('ec2', action, '*');
      throw new Ec2Error('RequestLimitExceeded', 'Request limit exceeded.');
    }
    if (ACTIONS[action]) await latency?.wait('ec2', action);
    const fault = faults?.check('ec2', action);
    await faults?.wait(fault?.latencyMs);
    if (fault?.error) {
      throw new Ec2Error(fault.error, fault.message ?? `Injected fault: ${fault.error}`, fault.httpStatus);
    }
    const handler = ACTIONS[action];
    if (!handler)
      throw new Ec2Error('InvalidAction', `The action ${action} is not valid for this web service.`);
    if (iam?.reference.wildcardOnly.has(`ec2:${action}`)) {
      requireAuthorized(requestCtx, [
        { action: `ec2:${action}`, resource: '*', context: { 'ec2:Region': ctx.region } },
      ]);
    }
    sendXml(res, 200, successXml(action, requestId, handler(requestCtx, params)), requestId);
  } catch (error) {
    const e =
      error instanceof Ec2Error
        ? error
        : new Ec2Error('InternalError', `Simulated EC2 failed: ${(error as Error).message}`, 500);
    sendXml(res, e.httpStatus, errorXml(e.code, e.message, requestId), requestId);
  }
}

/**
 * The context of one request: the caller its access key names, as every simulated service finds
 * it (the simulator's own key is the administrator's: no caller, nothing to authorize); an
 * unknown key is EC2's `AuthFailure`.
 */
function authenticated(
  ctx: Ec2Context,
  iam: Ec2ServerIam,
  req: IncomingMessage,
  bodyCredential?: string,
): Ec2Context {
  const caller = callerOf(iam.authorizer, accessKeyOf(req.headers, req.url, bodyCredential), 'ec2');
  if (caller.denial) throw new Ec2Error(caller.denial.code, caller.denial.message, caller.denial.status);
  if (!caller.principal) return ctx;
  return {
    ...ctx,
    caller: { principal: caller.principal, authorizer: iam.authorizer, reference: iam.reference },
  };
}

/** The account a request counts against: its caller's, else the simulated account's. */
function accountOf(ctx: Ec2Context): string {
  const fromArn = ctx.caller?.principal.split(':')[4] ?? '';
  return /^\d{12}$/.test(fromArn) ? fromArn : ctx.state.topology.accountId;
}
