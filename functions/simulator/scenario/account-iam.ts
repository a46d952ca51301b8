/**
 * The IAM side of the account a scenario plays in: the node roles and instance profiles its
 * NodeClasses name exist, and the roles are among those joiner may pass, as a user who deploys
 * joiner for these NodeClasses sets them up (`joiner:nodeRoleArns`).
 */
import { parseRoleReference } from '../../core/launch/node-role.js';
import type { Manifest } from './load-scenario.js';

/** Role names and instance profile names the manifests' NodeClasses (and Provisioners) name. */
export interface ManifestIam {
  readonly nodeRoles: string[];
  readonly instanceProfiles: string[];
}

const PROFILE_NAME = /^[\w+=,.@-]{1,128}$/;

/** The roles and profiles `manifests` name; names IAM would not accept are left out. */
export function iamOfManifests(manifests: readonly Manifest[]): ManifestIam {
  const roles = new Set<string>();
  const profiles = new Set<string>();
  for (const m of manifests) {
    const spec = (m.spec ?? {}) as { role?: unknown; instanceProfile?: unknown; provider?: unknown };
    const provider = (spec.provider ?? {}) as { instanceProfile?: unknown };
    for (const profile of [spec.instanceProfile, provider.instanceProfile]) {
      if (typeof profile === 'string' && PROFILE_NAME.test(profile)) profiles.add(profile);
    }
    if (typeof spec.role === 'string') {
      try {
        roles.add(parseRoleReference(spec.role).name);
      } catch {
        // Not a role name: the plan reports it.
      }
    }
  }
  return { nodeRoles: [...roles].sort(), instanceProfiles: [...profiles].sort() };
}
