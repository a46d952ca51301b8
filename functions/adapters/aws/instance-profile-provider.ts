import {
  instanceProfilePath,
  instanceProfileTags,
  nodeClassInstanceProfileName,
  nodeRoleProblem,
  parseRoleReference,
} from '../../core/launch/node-role.js';
import type { NodeClass } from '../../core/model/node-class.js';
import { CACHE_TTLS, TtlCache } from './caches.js';
import type { IamInstanceProfiles } from './iam-instance-profiles.js';

/** What the provider is built from. */
export interface InstanceProfileProviderOptions {
  readonly clusterName: string;
  readonly region: string;
  /** The profile of the stack's node role (JOINER_INSTANCE_PROFILE_NAME). */
  readonly defaultProfile?: string;
  /** IAM, for the profiles of NodeClass roles; without it a NodeClass `role` cannot launch. */
  readonly profiles?: IamInstanceProfiles;
  /** Node role ARNs joiner may pass (JOINER_NODE_ROLE_ARNS); undefined: not checked here. */
  readonly allowedRoles?: readonly string[];
  readonly now?: () => number;
}

/**
 * The instance profile nodes launch with: the NodeClass's `instanceProfile` as given; for a
 * NodeClass `role`, the profile joiner makes for it (created, tagged, the role attached, as
 * Karpenter does; ensured once per cache lifetime); else the profile of the stack's node role.
 */
export class InstanceProfileProvider {
  private readonly ensured: TtlCache<string>;

  constructor(private readonly options: InstanceProfileProviderOptions) {
    this.ensured = new TtlCache(CACHE_TTLS.instanceProfilesMs, options.now);
  }

  async resolve(nodeClass: NodeClass): Promise<string> {
    if (nodeClass.instanceProfile) return nodeClass.instanceProfile;
    if (nodeClass.role !== undefined) return this.ensureForRole(nodeClass, nodeClass.role);
    const profile = this.options.defaultProfile;
    if (!profile) {
      throw new Error(
        `NodeClass ${nodeClass.name}: no instance profile; set spec.role or spec.instanceProfile, or deploy joiner with its node role (JOINER_INSTANCE_PROFILE_NAME)`,
      );
    }
    return profile;
  }

  /** The name of the profile joiner makes for a NodeClass of this name. */
  profileName(nodeClassName: string): string {
    return nodeClassInstanceProfileName(this.options.clusterName, this.options.region, nodeClassName);
  }

  /**
   * Forgets what was ensured (EC2 did not know a profile joiner made): the next launch reads IAM
   * again and re-creates a profile that was deleted meanwhile.
   */
  invalidate(): void {
    this.ensured.clear();
  }

  /**
   * Deletes the profiles joiner made for NodeClasses that no longer exist (none of `nodeClassNames`)
   * and that no instance in `inUse` (profile names) still runs with. Returns the deleted names.
   */
  async collect(nodeClassNames: ReadonlySet<string>, inUse: ReadonlySet<string>): Promise<string[]> {
    const { profiles, clusterName, region } = this.options;
    if (!profiles) return [];
    const wanted = new Set([...nodeClassNames].map((n) => this.profileName(n)));
    const owned = await profiles.list(instanceProfilePath(region, clusterName));
    const deleted: string[] = [];
    for (const profile of owned) {
      if (wanted.has(profile.name) || inUse.has(profile.name)) continue;
      if (await profiles.delete(profile.name)) deleted.push(profile.name);
    }
    if (deleted.length > 0) this.ensured.clear();
    return deleted;
  }

  private async ensureForRole(nodeClass: NodeClass, role: string): Promise<string> {
    const { profiles, clusterName, region, allowedRoles } = this.options;
    const problem = nodeRoleProblem(nodeClass, allowedRoles);
    if (problem) throw new Error(problem);
    if (!profiles) {
      throw new Error(`EC2NodeClass ${nodeClass.name}: role ${role} needs IAM to make its instance profile`);
    }
    const name = this.profileName(nodeClass.name);
    const desired = {
      name,
      path: instanceProfilePath(region, clusterName),
      roleName: parseRoleReference(role).name,
      tags: instanceProfileTags(clusterName, region, nodeClass),
    };
    const key = JSON.stringify([desired.roleName, Object.entries(desired.tags).sort()]);
    const cacheKey = `${name}\u0000${key}`;
    return this.ensured.getOrLoad(cacheKey, async () => {
      try {
        await profiles.ensure(desired);
      } catch (error) {
        throw new Error(
          `EC2NodeClass ${nodeClass.name}: making instance profile ${name} for role ${role}: ${(error as Error).message}`,
        );
      }
      return name;
    });
  }
}
