/**
 * The HTTP side of the simulated IAM: POSTed form-encoded Query requests (version 2010-05-08)
 * authorized by the account's IAM (see iam-requests.ts) and dispatched by `Action`, answered with IAM's XML documents
 * (`<ActionResponse><ActionResult>`, lists of `<member>`) or its `<ErrorResponse>` envelope;
 * faults injected per action first.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ec2Error } from '../ec2/ec2-error.js';
import { parseQueryBody, type QueryParams, readQueryBody } from '../ec2/query.js';
import { sendXml, writeXml, XML_HEADER, type XmlValue, xmlElement } from '../ec2/xml-response.js';
import type { FaultInjector } from '../faults.js';
import { keepIdleConnections } from '../loopback-server.js';
import type { ServiceAuthorizer } from './authorization/authorization-request.js';
import { accessKeyOf, gateCall } from './authorization/service-gate.js';
import { IamError } from './iam-error.js';
import { iamRequestsOf, tagsOf } from './iam-requests.js';
import type { IamInstanceProfile, IamRole, IamState } from './iam-state.js';

export const IAM_NAMESPACE = 'https://iam.amazonaws.com/doc/2010-05-08/';

/** An action: the `<ActionResult>` members, or undefined for actions that return none. */
type IamAction = (state: IamState, params: QueryParams) => Record<string, XmlValue> | undefined;

const ACTIONS: Readonly<Record<string, IamAction>> = {
  CreateInstanceProfile: (state, p) => ({
    InstanceProfile: profileXml(
      state.createInstanceProfile(p.required('InstanceProfileName'), p.str('Path') ?? '/', tagsOf(p)),
    ),
  }),
  GetInstanceProfile: (state, p) => ({
    InstanceProfile: profileXml(state.getInstanceProfile(p.required('InstanceProfileName'))),
  }),
  AddRoleToInstanceProfile: (state, p) => {
    state.addRoleToInstanceProfile(p.required('InstanceProfileName'), p.required('RoleName'));
    return undefined;
  },
  RemoveRoleFromInstanceProfile: (state, p) => {
    state.removeRoleFromInstanceProfile(p.required('InstanceProfileName'), p.required('RoleName'));
    return undefined;
  },
  DeleteInstanceProfile: (state, p) => {
    state.deleteInstanceProfile(p.required('InstanceProfileName'));
    return undefined;
  },
  TagInstanceProfile: (state, p) => {
    state.tagInstanceProfile(p.required('InstanceProfileName'), tagsOf(p));
    return undefined;
  },
  ListInstanceProfiles: (state, p) => {
    const all = state.listInstanceProfiles(p.str('PathPrefix') ?? '/');
    const start = p.str('Marker') ? Number(p.str('Marker')) : 0;
    if (!Number.isInteger(start) || start < 0 || start > all.length)
      throw new IamError('ValidationError', `Invalid Marker '${p.str('Marker')}'`);
    const max = p.int('MaxItems') ?? 100;
    if (max < 1 || max > 1000) throw new IamError('ValidationError', 'MaxItems must be between 1 and 1000');
    const page = all.slice(start, start + max);
    const truncated = start + max < all.length;
    return {
      InstanceProfiles: page.map((profile) => profileXml(profile, false)),
      IsTruncated: truncated,
      Marker: truncated ? String(start + max) : undefined,
    };
  },
  GetRole: (state, p) => ({ Role: roleXml(state.getRole(p.required('RoleName'))) }),
};

/** The actions the simulated IAM implements. */
export const IAM_ACTIONS: readonly string[] = Object.keys(ACTIONS);

const MAX_BODY_BYTES = 1024 * 1024;

/** Starts the HTTP server on 127.0.0.1 and a free port. */
export async function startIamServer(
  state: IamState,
  faults?: FaultInjector,
  iam?: ServiceAuthorizer,
): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    void handle(state, faults, req, res, iam);
  });
  keepIdleConnections(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}` };
}

async function handle(
  state: IamState,
  faults: FaultInjector | undefined,
  req: IncomingMessage,
  res: ServerResponse,
  iam?: ServiceAuthorizer,
): Promise<void> {
  const requestId = randomUUID();
  try {
    if (req.method !== 'POST')
      throw new IamError('InvalidHttpRequest', `The simulated IAM accepts POST, not ${req.method}`);
    const params = parseQueryBody(
      await readQueryBody(req, MAX_BODY_BYTES, (m) => new IamError('RequestEntityTooLarge', m, 413)),
    );
    const action = params.str('Action');
    if (!action) throw new IamError('MissingAction', 'The request must contain the parameter Action');
    const fault = faults?.check('iam', action);
    await faults?.wait(fault?.latencyMs);
    if (fault?.error)
      throw new IamError(fault.error, fault.message ?? `Injected fault: ${fault.error}`, fault.httpStatus);
    const handler = ACTIONS[action];
    if (!handler)
      throw new IamError('InvalidAction', `Could not find operation ${action} for version 2010-05-08`);
    const denial = gateCall(iam, accessKeyOf(req.headers), 'query', () =>
      iamRequestsOf(state, action, params),
    );
    if (denial) throw new IamError(denial.code, denial.message, denial.status);
    sendXml(res, 200, successXml(action, requestId, handler(state, params)), requestId);
  } catch (error) {
    const e =
      error instanceof IamError
        ? error
        : error instanceof Ec2Error
          ? new IamError(error.code === 'MissingParameter' ? 'ValidationError' : error.code, error.message)
          : new IamError('ServiceFailure', `Simulated IAM failed: ${(error as Error).message}`);
    sendXml(res, e.httpStatus, errorXml(e, requestId), requestId);
  }
}

function roleXml(role: IamRole): Record<string, XmlValue> {
  return {
    Path: role.path,
    RoleName: role.name,
    RoleId: role.id,
    Arn: role.arn,
    CreateDate: role.createDate,
    AssumeRolePolicyDocument: encodeURIComponent(
      JSON.stringify({
        Version: '2012-10-17',
        Statement: [
          { Effect: 'Allow', Principal: { Service: 'ec2.amazonaws.com' }, Action: 'sts:AssumeRole' },
        ],
      }),
    ),
  };
}

/** An instance profile; ListInstanceProfiles leaves tags out, as IAM does. */
function profileXml(profile: IamInstanceProfile, withTags = true): Record<string, XmlValue> {
  const tags = Object.entries(profile.tags);
  return {
    Path: profile.path,
    InstanceProfileName: profile.name,
    InstanceProfileId: profile.id,
    Arn: profile.arn,
    CreateDate: profile.createDate,
    Roles: profile.roles.map(roleXml),
    Tags: withTags && tags.length > 0 ? tags.map(([Key, Value]) => ({ Key, Value })) : undefined,
  };
}

function successXml(action: string, requestId: string, result: Record<string, XmlValue> | undefined): string {
  const parts = [XML_HEADER, `<${action}Response xmlns="${IAM_NAMESPACE}">`];
  if (result) {
    parts.push(`<${action}Result>`);
    for (const [name, value] of Object.entries(result)) writeXml(parts, name, value, 'member');
    parts.push(`</${action}Result>`);
  }
  parts.push(
    `<ResponseMetadata>${xmlElement('RequestId', requestId)}</ResponseMetadata>`,
    `</${action}Response>`,
  );
  return parts.join('');
}

function errorXml(error: IamError, requestId: string): string {
  const type = error.httpStatus >= 500 ? 'Receiver' : 'Sender';
  return `${XML_HEADER}<ErrorResponse xmlns="${IAM_NAMESPACE}"><Error>${xmlElement('Type', type)}${xmlElement('Code', error.code)}${xmlElement('Message', error.message)}</Error>${xmlElement('RequestId', requestId)}</ErrorResponse>`;
}
