import type { NodeClass } from '../../core/model/node-class.js';

/**
 * The instance profile nodes launch with: the NodeClass's `instanceProfile`, else the profile
 * joiner's stack created for the node role (JOINER_INSTANCE_PROFILE_NAME).
 */
export class InstanceProfileProvider {
  constructor(private readonly defaultProfile?: string) {}

  resolve(nodeClass: NodeClass): string {
    const profile = nodeClass.instanceProfile ?? this.defaultProfile;
    if (!profile) {
      throw new Error(
        `NodeClass ${nodeClass.name}: no instance profile; set spec.instanceProfile or deploy joiner with its node role (JOINER_INSTANCE_PROFILE_NAME)`,
      );
    }
    return profile;
  }
}
