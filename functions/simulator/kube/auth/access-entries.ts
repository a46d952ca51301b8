/**
 * Authentication of the simulated API server, as EKS does it: a bearer token names an IAM
 * principal, and the cluster's access entry for that principal gives the Kubernetes username and
 * groups. The cluster creator (the simulator's own clients, tests, `npm start` users) is a cluster
 * admin, in the superuser group; every other principal gets only what RBAC binds to its groups.
 */
import { randomBytes } from 'node:crypto';
import { ApiError } from '../api/api-error.js';
import { AUTHENTICATED_GROUP, SUPERUSER_GROUP, type UserInfo } from './rbac-authorizer.js';

/** The cluster creator's token (the simulator's admin kubeconfig carries it). */
export const CLUSTER_CREATOR_TOKEN = 'joiner-simulator';
/** The cluster creator's Kubernetes username. */
export const CLUSTER_CREATOR_USERNAME = 'kubernetes-admin';

/** An access entry of type STANDARD: an IAM principal mapped to Kubernetes groups. */
export interface AccessEntry {
  /** `arn:aws:iam::ACCOUNT:role/NAME` (or a user ARN). */
  readonly principalArn: string;
  /** Groups RBAC bindings name; reserved prefixes (`system:`...) are refused, as EKS refuses them. */
  readonly kubernetesGroups: readonly string[];
  /** Default: EKS's default, the assumed-role ARN with the session name. */
  readonly username?: string;
}

const ROLE_ARN = /^arn:aws[a-z-]*:iam::(\d{12}):role\/(?:[\w+=,.@-]+\/)*([\w+=,.@-]+)$/;
const USER_ARN = /^arn:aws[a-z-]*:iam::\d{12}:user\/(?:[\w+=,.@-]+\/)*[\w+=,.@-]+$/;
const RESERVED_GROUP = /^(system|eks|aws|amazon|iam):/;

/** The user of a request without credentials when anonymous requests are enabled. */
export const ANONYMOUS_USER: UserInfo = { username: 'system:anonymous', groups: ['system:unauthenticated'] };

/** The simulated cluster's access entries and the tokens of their principals. */
export class AccessEntries {
  private readonly users = new Map<string, UserInfo>();
  private readonly tokens = new Map<string, string>();

  /**
   * @param anonymous Requests without an Authorization header are {@link ANONYMOUS_USER} (as with
   *   the API server's `--anonymous-auth`; RBAC decides what that user may do) instead of 401.
   */
  constructor(private readonly anonymous = false) {
    this.users.set(CLUSTER_CREATOR_TOKEN, {
      username: CLUSTER_CREATOR_USERNAME,
      groups: [SUPERUSER_GROUP, AUTHENTICATED_GROUP],
    });
  }

  /**
   * Creates (or replaces) the access entry of a principal; returns the bearer token its
   * credentials yield (the same token for the same principal).
   */
  addAccessEntry(entry: AccessEntry): string {
    const role = ROLE_ARN.exec(entry.principalArn);
    if (!role && !USER_ARN.test(entry.principalArn))
      throw new Error(`access entry principalArn '${entry.principalArn}' is not an IAM role or user ARN`);
    for (const group of entry.kubernetesGroups) {
      if (RESERVED_GROUP.test(group))
        throw new Error(
          `access entry of ${entry.principalArn}: kubernetesGroups '${group}' uses a reserved prefix`,
        );
    }
    const username =
      entry.username ??
      (role ? `arn:aws:sts::${role[1]}:assumed-role/${role[2]}/{{SessionName}}` : entry.principalArn);
    let token = this.tokens.get(entry.principalArn);
    if (!token) {
      token = `k8s-aws-v1.${randomBytes(24).toString('base64url')}`;
      this.tokens.set(entry.principalArn, token);
    }
    this.users.set(token, {
      username: username.replaceAll('{{SessionName}}', 'joiner'),
      groups: [...entry.kubernetesGroups, AUTHENTICATED_GROUP],
    });
    return token;
  }

  /** Who sends `Authorization: <header>`; an unknown token (or a missing one, unless anonymous) is 401. */
  authenticate(header: string | undefined): UserInfo {
    if (header === undefined && this.anonymous) return ANONYMOUS_USER;
    const token = /^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1];
    const user = token === undefined ? undefined : this.users.get(token);
    if (!user) throw new ApiError(401, 'Unauthorized', 'Unauthorized');
    return user;
  }
}
