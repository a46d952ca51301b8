/**
 * The global condition keys AWS puts in every request context, from who signed the request and
 * when: aws:PrincipalArn, aws:PrincipalAccount, aws:PrincipalType, aws:userid, aws:CurrentTime,
 * aws:EpochTime, aws:SecureTransport, aws:RequestedRegion, and for a service principal
 * aws:PrincipalServiceName, aws:PrincipalIsAWSService and aws:SourceAccount. Keys the service
 * put in the request win over these.
 */
import { createHash } from 'node:crypto';
import type { ContextValue } from './authorization-request.js';

/** Who signed a request, as the account registered it. */
export interface PrincipalIdentity {
  /** The role ARN (or a service principal's name). */
  readonly arn: string;
  /** The session the function runs under (its function name). */
  readonly sessionName?: string;
}

/** Where and when requests are made. */
export interface RequestSetting {
  readonly account: string;
  readonly region: string;
  readonly now: Date;
}

/** The unique id IAM gives a role (`AROA…`): derived from the ARN so it is stable across runs. */
export function roleIdOf(roleArn: string): string {
  let id = roleIds.get(roleArn);
  if (id === undefined) {
    id = `AROA${createHash('sha256').update(roleArn).digest('hex').slice(0, 17).toUpperCase()}`;
    roleIds.set(roleArn, id);
  }
  return id;
}

const roleIds = new Map<string, string>();

/** Whether a principal is a service principal (`events.amazonaws.com`). */
export const isServicePrincipal = (principal: string): boolean =>
  !principal.startsWith('arn:') && principal.includes('.');

/** The global keys of a request by `identity` at `setting`, merged under the service's keys. */
export function withGlobalKeys(
  identity: PrincipalIdentity,
  setting: RequestSetting,
  serviceKeys: Readonly<Record<string, ContextValue>>,
): Record<string, ContextValue> {
  const keys: Record<string, ContextValue> = {
    'aws:CurrentTime': setting.now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    'aws:EpochTime': String(Math.floor(setting.now.getTime() / 1000)),
    'aws:SecureTransport': 'true',
    'aws:RequestedRegion': setting.region,
  };
  if (isServicePrincipal(identity.arn)) {
    keys['aws:PrincipalServiceName'] = identity.arn;
    keys['aws:PrincipalIsAWSService'] = 'true';
    keys['aws:SourceAccount'] = setting.account;
  } else {
    const account = /^arn:[^:]+:(?:iam|sts)::(\d{12}):/.exec(identity.arn)?.[1] ?? setting.account;
    keys['aws:PrincipalArn'] = identity.arn;
    keys['aws:PrincipalAccount'] = account;
    keys['aws:PrincipalIsAWSService'] = 'false';
    if (identity.arn.includes(':role/')) {
      keys['aws:PrincipalType'] = 'AssumedRole';
      keys['aws:userid'] = `${roleIdOf(identity.arn)}:${identity.sessionName ?? 'simulated'}`;
    } else if (identity.arn.includes(':user/')) {
      keys['aws:PrincipalType'] = 'User';
      keys['aws:username'] = identity.arn.slice(identity.arn.lastIndexOf('/') + 1);
    }
  }
  // Service keys win: they describe this request (a service may set its own region or source).
  const merged: Record<string, ContextValue> = {};
  const serviceLower = new Set(Object.keys(serviceKeys).map((k) => k.toLowerCase()));
  for (const [k, v] of Object.entries(keys)) if (!serviceLower.has(k.toLowerCase())) merged[k] = v;
  return Object.assign(merged, serviceKeys);
}
