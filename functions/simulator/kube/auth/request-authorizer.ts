/**
 * The simulated API server's authentication and authorization filter: who sends the request (by
 * its bearer token and the cluster's access entries), and whether the RBAC objects stored in the
 * cluster allow it. Runs before the request is routed, as the real filter chain does.
 */
import { ApiError } from '../api/api-error.js';
import type { KubeApi } from '../api/kube-api.js';
import type { AccessEntries } from './access-entries.js';
import {
  authorize,
  type BindingObject,
  type RbacObjects,
  type ResourceAttributes,
  type RoleObject,
  type UserInfo,
} from './rbac-authorizer.js';
import { requestAttributes } from './request-attributes.js';

const RBAC = 'rbac.authorization.k8s.io/v1';

/** Denials kept for {@link RequestAuthorizer.denials}. */
const DENIALS_KEPT = 100;

/** Authenticates and authorizes requests against the RBAC objects of `api`. */
export class RequestAuthorizer {
  private readonly denied: string[] = [];
  private readonly used = new Map<string, Set<string>>();

  constructor(
    private readonly api: KubeApi,
    private readonly access: AccessEntries,
  ) {}

  /** The requesting user; throws 401 when unauthenticated and 403 when RBAC denies the request. */
  check(method: string, url: URL, authorization: string | undefined): UserInfo {
    const user = this.access.authenticate(authorization);
    const request = requestAttributes(method, url);
    const decision = authorize(user, request, this.rbacObjects());
    if (decision.allowed) {
      if (request.kind === 'resource') this.recordUse(user.username, request);
      return user;
    }
    if (this.denied.length < DENIALS_KEPT) this.denied.push(`${method} ${url.pathname}: ${decision.message}`);
    const details =
      request.kind === 'resource'
        ? { group: request.apiGroup, kind: request.resource, ...(request.name ? { name: request.name } : {}) }
        : {};
    throw new ApiError(403, 'Forbidden', decision.message, details);
  }

  /** The requests RBAC refused (the first 100), each with the API server's message. */
  denials(): readonly string[] {
    return this.denied;
  }

  /**
   * The distinct permissions a user's allowed resource requests used, as `verb group resource`
   * (`list karpenter.sh nodepools`, `create "" pods/eviction`): what its role must grant.
   */
  permissionsUsedBy(username: string): string[] {
    return [...(this.used.get(username) ?? [])].sort();
  }

  private recordUse(username: string, request: ResourceAttributes): void {
    const resource = request.subresource ? `${request.resource}/${request.subresource}` : request.resource;
    const used = this.used.get(username) ?? new Set<string>();
    this.used.set(username, used);
    used.add(`${request.verb} ${request.apiGroup || '""'} ${resource}`);
  }

  private rbacObjects(): RbacObjects {
    const all = <T>(kind: string) => this.api.view(this.api.typeOf(RBAC, kind)) as unknown as T[];
    return {
      clusterRoles: all<RoleObject>('ClusterRole'),
      clusterRoleBindings: all<BindingObject>('ClusterRoleBinding'),
      roles: all<RoleObject>('Role'),
      roleBindings: all<BindingObject>('RoleBinding'),
    };
  }
}
