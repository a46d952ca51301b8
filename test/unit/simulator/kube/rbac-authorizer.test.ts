import { describe, expect, it } from 'vitest';
import {
  authorize,
  type BindingObject,
  type PolicyRule,
  type RbacObjects,
  type RequestAttributes,
  type RoleObject,
  type UserInfo,
} from '../../../../functions/simulator/kube/auth/rbac-authorizer.js';

const joiner: UserInfo = { username: 'joiner-fn', groups: ['joiner-controllers', 'system:authenticated'] };

function res(
  verb: string,
  resource: string,
  more: Partial<Omit<Extract<RequestAttributes, { kind: 'resource' }>, 'kind' | 'verb' | 'resource'>> = {},
): RequestAttributes {
  return {
    kind: 'resource',
    verb,
    resource,
    apiGroup: '',
    subresource: '',
    namespace: '',
    name: '',
    ...more,
  };
}

const clusterRole = (name: string, rules: PolicyRule[]): RoleObject => ({ metadata: { name }, rules });
const groupBinding = (name: string, role: string, group = 'joiner-controllers'): BindingObject => ({
  metadata: { name },
  roleRef: { kind: 'ClusterRole', name: role },
  subjects: [{ kind: 'Group', name: group }],
});

function rbac(objects: Partial<RbacObjects>): RbacObjects {
  return { clusterRoles: [], clusterRoleBindings: [], roles: [], roleBindings: [], ...objects };
}

/** A cluster where `rules` are bound to joiner's group cluster-wide. */
const granting = (...rules: PolicyRule[]) =>
  rbac({ clusterRoles: [clusterRole('r', rules)], clusterRoleBindings: [groupBinding('b', 'r')] });

const allowed = (request: RequestAttributes, objects: RbacObjects, user = joiner) =>
  authorize(user, request, objects).allowed;

describe('RBAC authorizer', () => {
  it('allows a request a bound ClusterRole grants, and only that verb, group and resource', () => {
    const objects = granting({ apiGroups: [''], resources: ['nodes'], verbs: ['get', 'patch'] });
    expect(allowed(res('patch', 'nodes', { name: 'n1' }), objects)).toBe(true);
    expect(allowed(res('get', 'nodes', { name: 'n1' }), objects)).toBe(true);
    expect(allowed(res('delete', 'nodes', { name: 'n1' }), objects)).toBe(false);
    expect(allowed(res('list', 'nodes'), objects)).toBe(false);
    expect(allowed(res('patch', 'nodes', { apiGroup: 'apps', name: 'n1' }), objects)).toBe(false);
    expect(allowed(res('patch', 'pods', { namespace: 'default', name: 'p' }), objects)).toBe(false);
  });

  it('denies with the API server message naming user, verb, resource, group and scope', () => {
    const denied = authorize(joiner, res('patch', 'nodes', { name: 'x' }), rbac({}));
    expect(denied).toEqual({
      allowed: false,
      message:
        'nodes "x" is forbidden: User "joiner-fn" cannot patch resource "nodes" in API group "" at the cluster scope',
    });
    const list = authorize(joiner, res('list', 'nodepools', { apiGroup: 'karpenter.sh' }), rbac({}));
    expect(list).toMatchObject({
      message:
        'nodepools.karpenter.sh is forbidden: User "joiner-fn" cannot list resource "nodepools" in API group "karpenter.sh" at the cluster scope',
    });
    const evict = res('create', 'pods', { subresource: 'eviction', namespace: 'web', name: 'p1' });
    expect(authorize(joiner, evict, rbac({}))).toMatchObject({
      message:
        'pods "p1" is forbidden: User "joiner-fn" cannot create resource "pods/eviction" in API group "" in the namespace "web"',
    });
    expect(
      authorize(joiner, { kind: 'nonResource', verb: 'post', path: '/metrics' }, rbac({})),
    ).toMatchObject({ message: 'forbidden: User "joiner-fn" cannot post path "/metrics"' });
  });

  it('matches `*` for verbs, API groups and resources', () => {
    const objects = granting({ apiGroups: ['*'], resources: ['*'], verbs: ['*'] });
    expect(allowed(res('deletecollection', 'widgets', { apiGroup: 'example.com' }), objects)).toBe(true);
    expect(
      allowed(res('create', 'pods', { subresource: 'eviction', namespace: 'a', name: 'p' }), objects),
    ).toBe(true);
    const anyVerb = granting({ apiGroups: ['karpenter.sh'], resources: ['nodepools'], verbs: ['*'] });
    expect(allowed(res('watch', 'nodepools', { apiGroup: 'karpenter.sh' }), anyVerb)).toBe(true);
    expect(allowed(res('watch', 'provisioners', { apiGroup: 'karpenter.sh' }), anyVerb)).toBe(false);
  });

  it('treats a subresource as its own resource: `pods` does not grant `pods/eviction`, `*/status` grants every status', () => {
    const pods = granting({ apiGroups: [''], resources: ['pods'], verbs: ['create', 'patch'] });
    const evict = res('create', 'pods', { subresource: 'eviction', namespace: 'a', name: 'p' });
    expect(allowed(evict, pods)).toBe(false);
    expect(
      allowed(evict, granting({ apiGroups: [''], resources: ['pods/eviction'], verbs: ['create'] })),
    ).toBe(true);
    const statuses = granting({ apiGroups: ['joiner.sh'], resources: ['*/status'], verbs: ['patch'] });
    const poolStatus = res('patch', 'nodepools', { apiGroup: 'joiner.sh', subresource: 'status', name: 'p' });
    expect(allowed(poolStatus, statuses)).toBe(true);
    expect(allowed(res('patch', 'nodepools', { apiGroup: 'joiner.sh', name: 'p' }), statuses)).toBe(false);
    const onlyStatus = granting({
      apiGroups: ['joiner.sh'],
      resources: ['nodepools/status'],
      verbs: ['patch'],
    });
    expect(allowed(poolStatus, onlyStatus)).toBe(true);
    expect(allowed(res('patch', 'nodepools', { apiGroup: 'joiner.sh', name: 'p' }), onlyStatus)).toBe(false);
  });

  it('limits a rule with resourceNames to those names, and never to collection requests', () => {
    const objects = granting({
      apiGroups: [''],
      resources: ['nodes'],
      resourceNames: ['n1'],
      verbs: ['get', 'list'],
    });
    expect(allowed(res('get', 'nodes', { name: 'n1' }), objects)).toBe(true);
    expect(allowed(res('get', 'nodes', { name: 'n2' }), objects)).toBe(false);
    expect(allowed(res('list', 'nodes'), objects)).toBe(false);
  });

  it('grants a RoleBinding only in its own namespace, with a Role of that namespace or a ClusterRole', () => {
    const role: RoleObject = {
      metadata: { name: 'reader', namespace: 'team' },
      rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['list'] }],
    };
    const roleBinding: BindingObject = {
      metadata: { name: 'rb', namespace: 'team' },
      roleRef: { kind: 'Role', name: 'reader' },
      subjects: [{ kind: 'Group', name: 'joiner-controllers' }],
    };
    const objects = rbac({ roles: [role], roleBindings: [roleBinding] });
    expect(allowed(res('list', 'pods', { namespace: 'team' }), objects)).toBe(true);
    expect(allowed(res('list', 'pods', { namespace: 'other' }), objects)).toBe(false);
    expect(allowed(res('list', 'pods'), objects)).toBe(false);
    // A Role of another namespace with the same name grants nothing here.
    const elsewhere = rbac({
      roles: [{ ...role, metadata: { name: 'reader', namespace: 'x' } }],
      roleBindings: [roleBinding],
    });
    expect(allowed(res('list', 'pods', { namespace: 'team' }), elsewhere)).toBe(false);
    const toClusterRole = rbac({
      clusterRoles: [
        clusterRole('evictor', [{ apiGroups: [''], resources: ['pods/eviction'], verbs: ['create'] }]),
      ],
      roleBindings: [{ ...roleBinding, roleRef: { kind: 'ClusterRole', name: 'evictor' } }],
    });
    const evictIn = (namespace: string) =>
      res('create', 'pods', { subresource: 'eviction', namespace, name: 'p' });
    expect(allowed(evictIn('team'), toClusterRole)).toBe(true);
    expect(allowed(evictIn('default'), toClusterRole)).toBe(false);
  });

  it('matches User, Group and ServiceAccount subjects; a binding to another group or a missing role grants nothing', () => {
    const rule = { apiGroups: [''], resources: ['nodes'], verbs: ['list'] };
    const roles = [clusterRole('r', [rule])];
    const bind = (subjects: BindingObject['subjects']): RbacObjects =>
      rbac({
        clusterRoles: roles,
        clusterRoleBindings: [
          { metadata: { name: 'b' }, roleRef: { kind: 'ClusterRole', name: 'r' }, subjects },
        ],
      });
    const list = res('list', 'nodes');
    expect(allowed(list, bind([{ kind: 'User', name: 'joiner-fn' }]))).toBe(true);
    expect(allowed(list, bind([{ kind: 'User', name: 'someone' }]))).toBe(false);
    expect(allowed(list, bind([{ kind: 'Group', name: 'other' }]))).toBe(false);
    const sa: UserInfo = { username: 'system:serviceaccount:kube-system:karpenter', groups: [] };
    expect(
      allowed(list, bind([{ kind: 'ServiceAccount', name: 'karpenter', namespace: 'kube-system' }]), sa),
    ).toBe(true);
    expect(
      allowed(list, bind([{ kind: 'ServiceAccount', name: 'karpenter', namespace: 'default' }]), sa),
    ).toBe(false);
    const dangling = rbac({ clusterRoleBindings: [groupBinding('b', 'missing')] });
    expect(allowed(list, dangling)).toBe(false);
  });

  it('lets system:masters do anything and any authenticated user read discovery and health paths', () => {
    const admin: UserInfo = { username: 'kubernetes-admin', groups: ['system:masters'] };
    expect(allowed(res('delete', 'nodes', { name: 'n' }), rbac({}), admin)).toBe(true);
    expect(allowed({ kind: 'nonResource', verb: 'get', path: '/apis/karpenter.sh/v1' }, rbac({}))).toBe(true);
    expect(allowed({ kind: 'nonResource', verb: 'get', path: '/version' }, rbac({}))).toBe(true);
    expect(allowed({ kind: 'nonResource', verb: 'get', path: '/metrics' }, rbac({}))).toBe(false);
    const anonymous: UserInfo = { username: 'system:anonymous', groups: [] };
    expect(allowed({ kind: 'nonResource', verb: 'get', path: '/api' }, rbac({}), anonymous)).toBe(false);
  });

  it('reads rules and subjects that are null or absent as empty', () => {
    const objects = rbac({
      clusterRoles: [{ metadata: { name: 'r' }, rules: null }],
      clusterRoleBindings: [
        { metadata: { name: 'b' }, roleRef: { kind: 'ClusterRole', name: 'r' }, subjects: null },
      ],
    });
    expect(allowed(res('list', 'nodes'), objects)).toBe(false);
  });
});
