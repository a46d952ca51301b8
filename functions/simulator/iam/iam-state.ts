/**
 * What the simulated IAM holds: roles and instance profiles of one account, with IAM's rules
 * (one role per profile, names unique, a profile holding a role cannot be deleted). Who may call
 * what is the account's IAM's business: the server asks it before it calls these.
 */
import { IamError } from './iam-error.js';

export interface IamRole {
  readonly name: string;
  readonly path: string;
  readonly id: string;
  readonly arn: string;
  readonly createDate: Date;
}

export interface IamInstanceProfile {
  readonly name: string;
  readonly path: string;
  readonly id: string;
  readonly arn: string;
  readonly createDate: Date;
  /** At most one. */
  roles: IamRole[];
  tags: Record<string, string>;
}

const NAME = /^[\w+=,.@-]{1,128}$/;
const ROLE_NAME = /^[\w+=,.@-]{1,64}$/;
const PATH = /^\/([\x21-\x7e]*\/)?$/;

export class IamState {
  readonly roles = new Map<string, IamRole>();
  readonly profiles = new Map<string, IamInstanceProfile>();
  private nextId = 1;

  constructor(
    readonly accountId: string,
    private readonly now: () => number,
  ) {}

  /** Adds a role (setup; IAM's CreateRole is not served). */
  addRole(name: string, path = '/'): IamRole {
    if (!ROLE_NAME.test(name)) throw new Error(`simulated IAM: invalid role name '${name}'`);
    const existing = this.roles.get(name);
    if (existing) return existing;
    const role: IamRole = {
      name,
      path,
      id: this.id('AROA'),
      arn: `arn:aws:iam::${this.accountId}:role${path}${name}`,
      createDate: new Date(this.now()),
    };
    this.roles.set(name, role);
    return role;
  }

  /** Adds a profile outside the API (setup, e.g. the stack's own profile), unauthorized and untagged. */
  setupInstanceProfile(name: string, path = '/'): IamInstanceProfile {
    const profile: IamInstanceProfile = {
      name,
      path,
      id: this.id('AIPA'),
      arn: profileArn(this.accountId, path, name),
      createDate: new Date(this.now()),
      roles: [],
      tags: {},
    };
    this.profiles.set(name, profile);
    return profile;
  }

  createInstanceProfile(name: string, path: string, tags: Record<string, string>): IamInstanceProfile {
    validateName(name, 'instanceProfileName', NAME);
    if (!PATH.test(path) || path.length > 512)
      throw new IamError('ValidationError', `The specified value for path is invalid: '${path}'`);
    if (this.profiles.has(name))
      throw new IamError('EntityAlreadyExists', `Instance Profile ${name} already exists.`);
    if (Object.keys(tags).length > 50)
      throw new IamError('LimitExceeded', 'Cannot exceed quota for TagsPerInstanceProfile: 50');
    const profile: IamInstanceProfile = {
      name,
      path,
      id: this.id('AIPA'),
      arn: profileArn(this.accountId, path, name),
      createDate: new Date(this.now()),
      roles: [],
      tags: { ...tags },
    };
    this.profiles.set(name, profile);
    return profile;
  }

  getInstanceProfile(name: string): IamInstanceProfile {
    validateName(name, 'instanceProfileName', NAME);
    const profile = this.profiles.get(name);
    if (!profile) throw new IamError('NoSuchEntity', `Instance Profile ${name} cannot be found.`);
    return profile;
  }

  getRole(name: string): IamRole {
    validateName(name, 'roleName', ROLE_NAME);
    const role = this.roles.get(name);
    if (!role) throw new IamError('NoSuchEntity', `The role with name ${name} cannot be found.`);
    return role;
  }

  addRoleToInstanceProfile(profileName: string, roleName: string): void {
    const profile = this.getInstanceProfile(profileName);
    const role = this.getRole(roleName);
    if (profile.roles.length >= 1)
      throw new IamError('LimitExceeded', 'Cannot exceed quota for InstanceSessionsPerInstanceProfile: 1');
    profile.roles = [role];
  }

  removeRoleFromInstanceProfile(profileName: string, roleName: string): void {
    const profile = this.getInstanceProfile(profileName);
    if (!profile.roles.some((r) => r.name === roleName)) {
      throw new IamError(
        'NoSuchEntity',
        `The role with name ${roleName} cannot be found in instance profile ${profileName}.`,
      );
    }
    profile.roles = profile.roles.filter((r) => r.name !== roleName);
  }

  deleteInstanceProfile(name: string): void {
    const profile = this.getInstanceProfile(name);
    if (profile.roles.length > 0)
      throw new IamError(
        'DeleteConflict',
        'Cannot delete entity, must remove roles from instance profile first.',
      );
    this.profiles.delete(name);
  }

  tagInstanceProfile(name: string, tags: Record<string, string>): void {
    const profile = this.getInstanceProfile(name);
    const merged = { ...profile.tags, ...tags };
    if (Object.keys(merged).length > 50)
      throw new IamError('LimitExceeded', 'Cannot exceed quota for TagsPerInstanceProfile: 50');
    profile.tags = merged;
  }

  listInstanceProfiles(pathPrefix = '/'): IamInstanceProfile[] {
    return [...this.profiles.values()]
      .filter((p) => p.path.startsWith(pathPrefix))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /** The profile a launch names by name or ARN, if it exists. */
  findProfile(ref: { name?: string; arn?: string }): IamInstanceProfile | undefined {
    if (ref.arn) return [...this.profiles.values()].find((p) => p.arn === ref.arn);
    return ref.name ? this.profiles.get(ref.name) : undefined;
  }

  private id(prefix: string): string {
    return `${prefix}${String(this.nextId++).padStart(17, '0')}`;
  }
}

/** The ARN of an instance profile. */
export function profileArn(accountId: string, path: string, name: string): string {
  return `arn:aws:iam::${accountId}:instance-profile${path}${name}`;
}

function validateName(value: string, member: string, pattern: RegExp): void {
  if (!pattern.test(value)) {
    throw new IamError(
      'ValidationError',
      `1 validation error detected: Value '${value}' at '${member}' failed to satisfy constraint: Member must satisfy regular expression pattern: [\\w+=,.@-]+`,
    );
  }
}
