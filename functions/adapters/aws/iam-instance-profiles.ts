/**
 * IAM instance profiles joiner makes for NodeClass roles: create (tagged), attach the role
 * (replacing another one), read, list by path and delete. Every call is idempotent: a profile
 * that already exists, a role already attached and a profile or role already gone are what was
 * asked for, not errors, so a retried or repeated invocation converges.
 */
import {
  AddRoleToInstanceProfileCommand,
  CreateInstanceProfileCommand,
  DeleteInstanceProfileCommand,
  GetInstanceProfileCommand,
  type IAMClient,
  type InstanceProfile,
  ListInstanceProfilesCommand,
  RemoveRoleFromInstanceProfileCommand,
  TagInstanceProfileCommand,
} from '@aws-sdk/client-iam';

/** An instance profile as joiner reads it. */
export interface ProfileState {
  readonly name: string;
  readonly arn: string;
  readonly path: string;
  /** The role attached (a profile holds at most one). */
  readonly roleName?: string;
  readonly tags: Readonly<Record<string, string>>;
}

/** What a profile should be. */
export interface DesiredProfile {
  readonly name: string;
  readonly path: string;
  /** Role name, without path (AddRoleToInstanceProfile takes names only). */
  readonly roleName: string;
  readonly tags: Readonly<Record<string, string>>;
}

/** What {@link IamInstanceProfiles.ensure} changed. */
export interface EnsureOutcome {
  readonly profile: ProfileState;
  readonly created: boolean;
  /** The role that was attached before and was replaced. */
  readonly replacedRole?: string;
  readonly tagged: boolean;
}

/** Whether `error` is the IAM error `code` (the SDK names its exception `<code>Exception`). */
export function isIamError(error: unknown, code: string): boolean {
  const name = (error as { name?: string; Code?: string } | undefined)?.name;
  return name === code || name === `${code}Exception` || (error as { Code?: string })?.Code === code;
}

/** The instance-profile calls of IAM. */
export class IamInstanceProfiles {
  constructor(private readonly iam: IAMClient) {}

  /** The profile, or undefined when there is none of that name. */
  async get(name: string): Promise<ProfileState | undefined> {
    try {
      const out = await this.iam.send(new GetInstanceProfileCommand({ InstanceProfileName: name }));
      return out.InstanceProfile ? toState(out.InstanceProfile) : undefined;
    } catch (error) {
      if (isIamError(error, 'NoSuchEntity')) return undefined;
      throw error;
    }
  }

  /**
   * Makes the profile exist with `desired`'s role and tags: creates it (tagged) when missing,
   * replaces a different role, adds tags that are missing or differ. Another writer creating the
   * profile or attaching the same role at the same time is not an error.
   */
  async ensure(desired: DesiredProfile): Promise<EnsureOutcome> {
    let profile = await this.get(desired.name);
    let created = false;
    if (!profile) ({ profile, created } = await this.create(desired));
    let replacedRole: string | undefined;
    if (profile.roleName !== desired.roleName) {
      if (profile.roleName !== undefined) {
        await this.removeRole(desired.name, profile.roleName);
        replacedRole = profile.roleName;
      }
      await this.addRole(desired.name, desired.roleName);
      profile = { ...profile, roleName: desired.roleName };
    }
    const current = profile.tags;
    const missing = Object.entries(desired.tags).filter(([k, v]) => current[k] !== v);
    if (missing.length > 0) {
      // Every desired tag, not only the missing ones: the policy conditions TagInstanceProfile on
      // the cluster tag being in the request (aws:RequestTag), as Karpenter's policy does.
      await this.iam.send(
        new TagInstanceProfileCommand({
          InstanceProfileName: desired.name,
          Tags: Object.entries(desired.tags).map(([Key, Value]) => ({ Key, Value })),
        }),
      );
      profile = { ...profile, tags: { ...profile.tags, ...desired.tags } };
    }
    return { profile, created, ...(replacedRole ? { replacedRole } : {}), tagged: missing.length > 0 };
  }

  /** Removes the profile's role and deletes it; false when it was gone already. */
  async delete(name: string): Promise<boolean> {
    const profile = await this.get(name);
    if (!profile) return false;
    if (profile.roleName !== undefined) await this.removeRole(name, profile.roleName);
    try {
      await this.iam.send(new DeleteInstanceProfileCommand({ InstanceProfileName: name }));
      return true;
    } catch (error) {
      if (isIamError(error, 'NoSuchEntity')) return false;
      throw error;
    }
  }

  /** Every profile whose path starts with `pathPrefix`, all pages. */
  async list(pathPrefix: string): Promise<ProfileState[]> {
    const out: ProfileState[] = [];
    let marker: string | undefined;
    do {
      const page = await this.iam.send(
        new ListInstanceProfilesCommand({ PathPrefix: pathPrefix, ...(marker ? { Marker: marker } : {}) }),
      );
      out.push(...(page.InstanceProfiles ?? []).map(toState));
      marker = page.IsTruncated ? page.Marker : undefined;
    } while (marker);
    return out;
  }

  private async create(desired: DesiredProfile): Promise<{ profile: ProfileState; created: boolean }> {
    try {
      const out = await this.iam.send(
        new CreateInstanceProfileCommand({
          InstanceProfileName: desired.name,
          Path: desired.path,
          Tags: Object.entries(desired.tags).map(([Key, Value]) => ({ Key, Value })),
        }),
      );
      if (out.InstanceProfile) return { profile: toState(out.InstanceProfile), created: true };
    } catch (error) {
      if (!isIamError(error, 'EntityAlreadyExists')) throw error;
    }
    // Created by a concurrent invocation (or the answer was lost): read what is there.
    const existing = await this.get(desired.name);
    if (!existing) throw new Error(`instance profile ${desired.name}: created but not found`);
    return { profile: existing, created: false };
  }

  private async addRole(name: string, roleName: string): Promise<void> {
    try {
      await this.iam.send(
        new AddRoleToInstanceProfileCommand({ InstanceProfileName: name, RoleName: roleName }),
      );
    } catch (error) {
      // LimitExceeded: the profile already holds a role. Fine when it is this one (a concurrent
      // or repeated call attached it); otherwise another writer attached a different role.
      if (!isIamError(error, 'LimitExceeded')) throw error;
      const now = await this.get(name);
      if (now?.roleName !== roleName) {
        throw new Error(
          `instance profile ${name}: cannot attach role ${roleName}, it holds ${now?.roleName ?? 'no role'} (${(error as Error).message})`,
        );
      }
    }
  }

  private async removeRole(name: string, roleName: string): Promise<void> {
    try {
      await this.iam.send(
        new RemoveRoleFromInstanceProfileCommand({ InstanceProfileName: name, RoleName: roleName }),
      );
    } catch (error) {
      if (!isIamError(error, 'NoSuchEntity')) throw error;
    }
  }
}

function toState(p: InstanceProfile): ProfileState {
  const role = p.Roles?.[0]?.RoleName;
  return {
    name: p.InstanceProfileName ?? '',
    arn: p.Arn ?? '',
    path: p.Path ?? '/',
    ...(role ? { roleName: role } : {}),
    tags: Object.fromEntries((p.Tags ?? []).map((t) => [t.Key ?? '', t.Value ?? ''])),
  };
}
