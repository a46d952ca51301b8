/**
 * Kubernetes RBAC authorization as the API server's RBAC authorizer decides it: a request is
 * allowed when a rule of a role bound to the user (by a ClusterRoleBinding anywhere, by a
 * RoleBinding in the request's namespace only) matches its verb, API group, resource (with
 * subresource) and name, or its non-resource path. Pure: the RBAC objects are passed in.
 */

/** Who is asking, as authentication established it. */
export interface UserInfo {
  readonly username: string;
  readonly groups: readonly string[];
}

/** A request for an API resource (the API server's RequestInfo). */
export interface ResourceAttributes {
  readonly kind: 'resource';
  /** get, list, watch, create, update, patch, delete, deletecollection. */
  readonly verb: string;
  /** '' for the core group. */
  readonly apiGroup: string;
  /** The plural, e.g. `pods`. */
  readonly resource: string;
  /** e.g. `eviction`, `status`; '' for none. */
  readonly subresource: string;
  /** '' for cluster-scoped requests (and requests across all namespaces). */
  readonly namespace: string;
  /** '' for requests on a collection. */
  readonly name: string;
}

/** A request for a path that is no resource (`/api`, `/version`, `/healthz`...). */
export interface NonResourceAttributes {
  readonly kind: 'nonResource';
  readonly verb: string;
  readonly path: string;
}

/** What is authorized. */
export type RequestAttributes = ResourceAttributes | NonResourceAttributes;

/** One `rules` entry of a Role or ClusterRole. */
export interface PolicyRule {
  readonly verbs?: readonly string[];
  readonly apiGroups?: readonly string[];
  readonly resources?: readonly string[];
  readonly resourceNames?: readonly string[];
  readonly nonResourceURLs?: readonly string[];
}

/** A Role or ClusterRole (the fields the authorizer reads). */
export interface RoleObject {
  readonly metadata: { readonly name: string; readonly namespace?: string };
  readonly rules?: readonly PolicyRule[] | null;
}

/** One subject of a binding. */
export interface Subject {
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
}

/** A RoleBinding or ClusterRoleBinding (the fields the authorizer reads). */
export interface BindingObject {
  readonly metadata: { readonly name: string; readonly namespace?: string };
  readonly roleRef: { readonly kind: string; readonly name: string };
  readonly subjects?: readonly Subject[] | null;
}

/** The RBAC objects stored in the cluster. */
export interface RbacObjects {
  readonly clusterRoles: readonly RoleObject[];
  readonly clusterRoleBindings: readonly BindingObject[];
  readonly roles: readonly RoleObject[];
  readonly roleBindings: readonly BindingObject[];
}

/** The authorizer's answer; a denial carries the API server's `Forbidden` message. */
export type Decision =
  | { readonly allowed: true; readonly by: string }
  | { readonly allowed: false; readonly message: string };

/** The group whose members may do anything (the API server's privileged group). */
export const SUPERUSER_GROUP = 'system:masters';
/** The group every authenticated user is in. */
export const AUTHENTICATED_GROUP = 'system:authenticated';

/**
 * The bootstrap policy every API server has: discovery and health paths are readable by any
 * authenticated user (the `system:discovery` and `system:public-info-viewer` ClusterRoles).
 */
const BOOTSTRAP: RbacObjects = {
  clusterRoles: [
    {
      metadata: { name: 'system:discovery' },
      rules: [
        {
          verbs: ['get'],
          nonResourceURLs: [
            '/api',
            '/api/*',
            '/apis',
            '/apis/*',
            '/openapi',
            '/openapi/*',
            '/version',
            '/version/',
          ],
        },
      ],
    },
    {
      metadata: { name: 'system:public-info-viewer' },
      rules: [
        { verbs: ['get'], nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'] },
      ],
    },
  ],
  clusterRoleBindings: ['system:discovery', 'system:public-info-viewer'].map((name) => ({
    metadata: { name },
    roleRef: { kind: 'ClusterRole', name },
    subjects: [{ kind: 'Group', name: AUTHENTICATED_GROUP }],
  })),
  roles: [],
  roleBindings: [],
};

/** Decides a request the way the RBAC authorizer does (plus the superuser group and bootstrap policy). */
export function authorize(user: UserInfo, request: RequestAttributes, rbac: RbacObjects): Decision {
  if (user.groups.includes(SUPERUSER_GROUP)) return { allowed: true, by: `group ${SUPERUSER_GROUP}` };
  for (const objects of [BOOTSTRAP, rbac]) {
    const by = allowedBy(user, request, objects);
    if (by) return { allowed: true, by };
  }
  return { allowed: false, message: forbiddenMessage(user, request) };
}

function allowedBy(user: UserInfo, request: RequestAttributes, rbac: RbacObjects): string | undefined {
  for (const binding of rbac.clusterRoleBindings) {
    if (binding.roleRef.kind !== 'ClusterRole' || !bindsUser(binding, user)) continue;
    const role = rbac.clusterRoles.find((r) => r.metadata.name === binding.roleRef.name);
    if (role && rulesAllow(role.rules, request))
      return `ClusterRoleBinding ${binding.metadata.name} of ClusterRole ${role.metadata.name}`;
  }
  // A RoleBinding grants only inside its own namespace, and never non-resource paths.
  if (request.kind !== 'resource' || request.namespace === '') return undefined;
  for (const binding of rbac.roleBindings) {
    if (binding.metadata.namespace !== request.namespace || !bindsUser(binding, user)) continue;
    const role =
      binding.roleRef.kind === 'ClusterRole'
        ? rbac.clusterRoles.find((r) => r.metadata.name === binding.roleRef.name)
        : binding.roleRef.kind === 'Role'
          ? rbac.roles.find(
              (r) => r.metadata.name === binding.roleRef.name && r.metadata.namespace === request.namespace,
            )
          : undefined;
    if (role && rulesAllow(role.rules, request))
      return `RoleBinding ${request.namespace}/${binding.metadata.name} of ${binding.roleRef.kind} ${role.metadata.name}`;
  }
  return undefined;
}

function bindsUser(binding: BindingObject, user: UserInfo): boolean {
  return (binding.subjects ?? []).some((s) => {
    if (s.kind === 'User') return s.name === user.username;
    if (s.kind === 'Group') return user.groups.includes(s.name);
    if (s.kind === 'ServiceAccount') {
      const namespace = s.namespace || binding.metadata.namespace;
      return user.username === `system:serviceaccount:${namespace}:${s.name}`;
    }
    return false;
  });
}

function rulesAllow(rules: readonly PolicyRule[] | null | undefined, request: RequestAttributes): boolean {
  return (rules ?? []).some((rule) => ruleAllows(rule, request));
}

/** True when one rule allows the request (RBAC's RuleAllows). */
export function ruleAllows(rule: PolicyRule, request: RequestAttributes): boolean {
  if (!matches(rule.verbs, request.verb)) return false;
  if (request.kind === 'nonResource') return nonResourceMatches(rule.nonResourceURLs, request.path);
  if (!matches(rule.apiGroups, request.apiGroup)) return false;
  if (!resourceMatches(rule.resources, request)) return false;
  const names = rule.resourceNames ?? [];
  return names.length === 0 || (request.name !== '' && names.includes(request.name));
}

function matches(values: readonly string[] | undefined, wanted: string): boolean {
  return (values ?? []).some((v) => v === '*' || v === wanted);
}

/** `*` matches every resource and subresource; `*\/status` every resource's status; else exact. */
function resourceMatches(resources: readonly string[] | undefined, request: ResourceAttributes): boolean {
  const combined = request.subresource ? `${request.resource}/${request.subresource}` : request.resource;
  return (resources ?? []).some(
    (r) => r === '*' || r === combined || (request.subresource !== '' && r === `*/${request.subresource}`),
  );
}

function nonResourceMatches(urls: readonly string[] | undefined, path: string): boolean {
  return (urls ?? []).some(
    (u) => u === '*' || u === path || (u.endsWith('*') && path.startsWith(u.slice(0, -1))),
  );
}

/**
 * The message of the API server's 403, e.g. `nodes "x" is forbidden: User "u" cannot patch
 * resource "nodes" in API group "" at the cluster scope`.
 */
export function forbiddenMessage(user: UserInfo, request: RequestAttributes): string {
  if (request.kind === 'nonResource')
    return `forbidden: User "${user.username}" cannot ${request.verb} path "${request.path}"`;
  const resource = request.subresource ? `${request.resource}/${request.subresource}` : request.resource;
  const where = request.namespace ? `in the namespace "${request.namespace}"` : 'at the cluster scope';
  const why = `User "${user.username}" cannot ${request.verb} resource "${resource}" in API group "${request.apiGroup}" ${where}`;
  const qualified = request.apiGroup ? `${request.resource}.${request.apiGroup}` : request.resource;
  return request.name
    ? `${qualified} "${request.name}" is forbidden: ${why}`
    : `${qualified} is forbidden: ${why}`;
}
