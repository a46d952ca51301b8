/**
 * The IAM role of a NodeClass (`spec.role`) and the instance profile joiner makes for it, as
 * Karpenter does: a role named by a NodeClass gets an instance profile created, tagged and owned
 * by joiner; `spec.instanceProfile` is used as given. Pure: names, paths, tags and the check
 * against the node roles the stack lets joiner pass.
 */

import type { NodeClass } from '../model/node-class.js';
import { shortHash } from './hash.js';
import { clusterOwnershipTag, TAG } from './tags.js';

/** The context key of the stack that lists the node roles joiner may pass (named in errors). */
export const NODE_ROLE_ARNS_CONTEXT_KEY = 'joiner:nodeRoleArns';

/** A role as a NodeClass names it: a name, a `path/name`, or an ARN. */
export interface RoleReference {
  /** The role name (the last segment; AddRoleToInstanceProfile takes names without paths). */
  readonly name: string;
  /** The path as IAM writes it (`/` or `/a/b/`), when given. */
  readonly path?: string;
  /** The account, when the role was given as an ARN. */
  readonly account?: string;
}

const ROLE_NAME = /^[\w+=,.@-]{1,64}$/;
const ROLE_PATH_SEGMENT = /^[\x21-\x2e\x30-\x7e]+$/;
const ROLE_ARN = /^arn:aws[a-z-]*:iam::(\d{12}):role\/(.+)$/;

/** Parses a role name, `path/name` or ARN; throws naming `role` and what is wrong with it. */
export function parseRoleReference(role: string): RoleReference {
  const arn = ROLE_ARN.exec(role);
  const rest = arn ? arn[2] : role.replace(/^\//, '');
  const segments = rest.split('/');
  const name = segments.pop() ?? '';
  if (!ROLE_NAME.test(name)) {
    throw new Error(
      `'${role}' is not an IAM role name or ARN: a role name is 1-64 of letters, digits and +=,.@_-`,
    );
  }
  if (segments.some((s) => !ROLE_PATH_SEGMENT.test(s))) {
    throw new Error(`'${role}' has an invalid IAM path: path segments are printable ASCII without spaces`);
  }
  return {
    name,
    ...(segments.length > 0 ? { path: `/${segments.join('/')}/` } : arn ? { path: '/' } : {}),
    ...(arn ? { account: arn[1] } : {}),
  };
}

/**
 * Whether `role` is one of the `allowed` role ARNs. Role names are unique in an account whatever
 * their path, so a name (or `path/name`) matches the allowed ARN of that name; an ARN must also
 * be of the same account.
 */
export function isNodeRoleAllowed(role: RoleReference, allowed: readonly RoleReference[]): boolean {
  return allowed.some(
    (a) =>
      a.name === role.name &&
      (role.account === undefined || a.account === undefined || a.account === role.account),
  );
}

/**
 * Why nodes of `nodeClass` cannot launch with its role, or undefined: its `role` is not a valid
 * role reference, or (when `allowedRoleArns` is given) not one of the roles joiner may pass.
 */
export function nodeRoleProblem(
  nodeClass: Pick<NodeClass, 'name' | 'role'>,
  allowedRoleArns: readonly string[] | undefined,
): string | undefined {
  if (nodeClass.role === undefined) return undefined;
  const where = `EC2NodeClass ${nodeClass.name}`;
  let role: RoleReference;
  try {
    role = parseRoleReference(nodeClass.role);
  } catch (error) {
    return `${where}: role ${(error as Error).message}`;
  }
  if (allowedRoleArns === undefined) return undefined;
  const allowed = allowedRoleArns.flatMap((arn) => {
    try {
      return [parseRoleReference(arn)];
    } catch {
      return [];
    }
  });
  if (isNodeRoleAllowed(role, allowed)) return undefined;
  return `${where}: role ${nodeClass.role} is not in the node roles joiner may pass (${NODE_ROLE_ARNS_CONTEXT_KEY})`;
}

/**
 * The name of the instance profile joiner makes for a NodeClass: `<cluster>_<hash>`, the hash of
 * region and NodeClass name. Karpenter v1.0 derives it the same way (hashstructure of region +
 * name); joiner uses a short sha256 instead. A deterministic name keeps creation idempotent under
 * retries without a NodeClass status to remember it in (later Karpenter versions add a random
 * suffix and record the name in the status).
 */
export function nodeClassInstanceProfileName(clusterName: string, region: string, nodeClass: string): string {
  return `${clusterName}_${shortHash(`${region}${nodeClass}`, 16)}`;
}

/**
 * The IAM path of the instance profiles joiner makes in a region for a cluster; garbage collection
 * lists by it. Karpenter uses `/karpenter/<region>/<cluster>/<nodeclass uid>/`.
 */
export function instanceProfilePath(region: string, clusterName: string): string {
  return `/joiner/${region}/${clusterName}/`;
}

/**
 * Tags of an instance profile joiner makes: the NodeClass's own tags first, then ownership.
 * Karpenter tags `karpenter.sh/managed-by` (here `joiner.sh/cluster`, the key joiner's IAM
 * conditions use) and `karpenter.k8s.aws/ec2nodeclass` (here `joiner.sh/nodeclass`).
 */
export function instanceProfileTags(
  clusterName: string,
  region: string,
  nodeClass: Pick<NodeClass, 'name' | 'tags'>,
): Record<string, string> {
  return {
    ...nodeClass.tags,
    ...clusterOwnershipTag(clusterName),
    [TAG.cluster]: clusterName,
    [TAG.nodeClass]: nodeClass.name,
    'topology.kubernetes.io/region': region,
  };
}

/**
 * Whether an EC2 launch error says the instance profile is not known to EC2 yet: IAM is
 * eventually consistent, and EC2 rejects a profile created moments ago with InvalidParameterValue
 * "Invalid IAM Instance Profile name" (or ARN) for some seconds. Such a launch is retried.
 */
export function isInstanceProfilePropagationError(error: { code: string; message: string }): boolean {
  return error.code === 'InvalidParameterValue' && /invalid iam instance profile/i.test(error.message);
}
