/**
 * What the simulated IAM asks the account's IAM before each call: the action on the instance
 * profile or role it names, with the tags IAM puts in the request context (`aws:RequestTag/*`
 * and `aws:TagKeys` for tags sent, `aws:ResourceTag/*` for the profile's own). Adding a role to a profile needs
 * `iam:PassRole` on the role, passed to EC2. A profile that does not exist is evaluated without
 * a path (`instance-profile/<name>`): IAM cannot know the path of what it does not hold.
 */

import type { QueryParams } from '../ec2/query.js';
import type { AuthorizationRequest, ContextValue } from './authorization/authorization-request.js';
import { type IamState, profileArn } from './iam-state.js';

type Request = Omit<AuthorizationRequest, 'principal'>;

/** The authorization requests of one IAM call (none for an action it does not know). */
export function iamRequestsOf(state: IamState, action: string, params: QueryParams): Request[] {
  const account = state.accountId;
  const profileName = params.str('InstanceProfileName') ?? '';
  const existing = state.profiles.get(profileName);
  const profile = existing?.arn ?? profileArn(account, '/', profileName);
  const onProfile = (name: string, context: Record<string, ContextValue> = {}): Request => ({
    action: `iam:${name}`,
    resource: profile,
    context: { ...resourceTags(existing?.tags ?? {}), ...context },
  });
  switch (action) {
    case 'CreateInstanceProfile': {
      const tags = tagsOf(params);
      const resource = profileArn(account, params.str('Path') ?? '/', profileName);
      const context = requestTags(tags);
      // Tags sent with the create are authorized by the create's own request-tag conditions (as
      // Karpenter's policy relies on: its TagInstanceProfile grant needs a resource tag no new
      // profile has).
      return [{ action: 'iam:CreateInstanceProfile', resource, context }];
    }
    case 'TagInstanceProfile':
      return [onProfile('TagInstanceProfile', requestTags(tagsOf(params)))];
    case 'AddRoleToInstanceProfile': {
      const roleName = params.str('RoleName') ?? '';
      const role = state.roles.get(roleName)?.arn ?? `arn:aws:iam::${account}:role/${roleName}`;
      return [
        onProfile('AddRoleToInstanceProfile'),
        { action: 'iam:PassRole', resource: role, context: { 'iam:PassedToService': 'ec2.amazonaws.com' } },
      ];
    }
    case 'GetInstanceProfile':
    case 'RemoveRoleFromInstanceProfile':
    case 'DeleteInstanceProfile':
      return [onProfile(action)];
    case 'ListInstanceProfiles':
      return [
        {
          action: 'iam:ListInstanceProfiles',
          resource: `arn:aws:iam::${account}:instance-profile${params.str('PathPrefix') ?? '/'}`,
          context: {},
        },
      ];
    case 'GetRole': {
      const roleName = params.str('RoleName') ?? '';
      const role = state.roles.get(roleName)?.arn ?? `arn:aws:iam::${account}:role/${roleName}`;
      return [{ action: 'iam:GetRole', resource: role, context: {} }];
    }
    default:
      return [];
  }
}

function requestTags(tags: Record<string, string>): Record<string, ContextValue> {
  const context: Record<string, ContextValue> = { 'aws:TagKeys': Object.keys(tags) };
  for (const [key, value] of Object.entries(tags)) context[`aws:RequestTag/${key}`] = value;
  return context;
}

function resourceTags(tags: Record<string, string>): Record<string, ContextValue> {
  return Object.fromEntries(Object.entries(tags).map(([key, value]) => [`aws:ResourceTag/${key}`, value]));
}

/** The Tags.member.N of a request. */
export function tagsOf(params: QueryParams): Record<string, string> {
  const members = params.child('Tags')?.list('member') ?? [];
  return Object.fromEntries(members.map((m) => [m.required('Key'), m.str('Value') ?? '']));
}
