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
  /**
   * The entry has the `AmazonEKSClusterAdminPolicy` access policy at cluster scope (the
   * installer's): EKS authorizes it like `cluster-admin`, whatever RBAC binds.
   */
  readonly clusterAdmin?: boolean;
}

/**
 * Who signed an EKS token: the principal ARN of an access key id, the cluster creator, or
 * undefined for a key the account does not know.
 */
export type TokenSigner = (accessKeyId: string) => string | 'cluster-creator' | undefined;

/** Prefix of an EKS bearer token (a presigned STS GetCallerIdentity URL, base64url). */
const EKS_TOKEN_PREFIX = 'k8s-aws-v1.';

const ROLE_ARN = /^arn:aws[a-z-]*:iam::(\d{12}):role\/(?:[\w+=,.@-]+\/)*([\w+=,.@-]+)$/;
const USER_ARN = /^arn:aws[a-z-]*:iam::\d{12}:user\/(?:[\w+=,.@-]+\/)*[\w+=,.@-]+$/;
const RESERVED_GROUP = /^(system|eks|aws|amazon|iam):/;

/** The user of a request without credentials when anonymous requests are enabled. */
export const ANONYMOUS_USER: UserInfo = { username: 'system:anonymous', groups: ['system:unauthenticated'] };

/** The simulated cluster's access entries and the tokens of their principals. */
export class AccessEntries {
  private readonly users = new Map<string, UserInfo>();
  private readonly tokens = new Map<string, string>();
  private readonly byPrincipal = new Map<string, UserInfo>();

  /**
   * @param anonymous Requests without an Authorization header are {@link ANONYMOUS_USER} (as with
   *   the API server's `--anonymous-auth`; RBAC decides what that user may do) instead of 401.
   * @param signerOf Who signed an EKS token (its `X-Amz-Credential` access key id): with it, the
   *   tokens joiner's functions make from their role's credentials authenticate as that role's
   *   access entry, as EKS does through STS. Without it only the entries' own tokens work.
   */
  constructor(
    private readonly anonymous = false,
    private readonly signerOf?: TokenSigner,
  ) {
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
    const user: UserInfo = {
      username: username.replaceAll('{{SessionName}}', 'joiner'),
      groups: [
        ...(entry.clusterAdmin ? [SUPERUSER_GROUP] : []),
        ...entry.kubernetesGroups,
        AUTHENTICATED_GROUP,
      ],
    };
    this.users.set(token, user);
    this.byPrincipal.set(entry.principalArn, user);
    return token;
  }

  /** Who sends `Authorization: <header>`; an unknown token (or a missing one, unless anonymous) is 401. */
  authenticate(header: string | undefined): UserInfo {
    if (header === undefined && this.anonymous) return ANONYMOUS_USER;
    const token = /^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1];
    const user = token === undefined ? undefined : (this.users.get(token) ?? this.eksTokenUser(token));
    if (!user) throw new ApiError(401, 'Unauthorized', 'Unauthorized');
    return user;
  }

  /**
   * The user of an EKS token (aws-iam-authenticator format): its presigned GetCallerIdentity URL
   * names the signer's access key, whose principal's access entry gives the user. A token whose
   * URL is not a presigned STS GetCallerIdentity with the cluster header signed, or whose
   * principal has no access entry, is unknown (401), as EKS answers it.
   */
  private eksTokenUser(token: string): UserInfo | undefined {
    if (!this.signerOf || !token.startsWith(EKS_TOKEN_PREFIX)) return undefined;
    let url: URL;
    try {
      url = new URL(Buffer.from(token.slice(EKS_TOKEN_PREFIX.length), 'base64url').toString('utf8'));
    } catch {
      return undefined;
    }
    const query = url.searchParams;
    if (!/^sts(\.[a-z0-9-]+)?\.amazonaws\.com$/.test(url.hostname)) return undefined;
    if (query.get('Action') !== 'GetCallerIdentity') return undefined;
    if (!(query.get('X-Amz-SignedHeaders') ?? '').split(';').includes('x-k8s-aws-id')) return undefined;
    const key = query.get('X-Amz-Credential')?.split('/')[0];
    const signer = key ? this.signerOf(key) : undefined;
    if (signer === 'cluster-creator') return this.users.get(CLUSTER_CREATOR_TOKEN);
    return signer ? this.byPrincipal.get(signer) : undefined;
  }
}
