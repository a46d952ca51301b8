import type { FaultInjector } from '../faults.js';
import { closeServer } from '../loopback-server.js';
import type { ServiceAuthorizer } from './authorization/authorization-request.js';
import { startIamServer } from './iam-server.js';
import { IamState } from './iam-state.js';

export interface IamSimulatorOptions {
  readonly accountId: string;
  /** Creation dates (virtual clock). Default: Date.now. */
  readonly now?: () => number;
  /** Roles that exist: names, or `path/name` for a role with a path. */
  readonly roles?: readonly string[];
  /** Profiles that exist, each with its role (e.g. the stack's node role profile). */
  readonly instanceProfiles?: readonly { readonly name: string; readonly role: string }[];
  /** The account's IAM: every call is authorized first (none: all allowed). */
  readonly iam?: ServiceAuthorizer;
  readonly faults?: FaultInjector;
}

export interface IamSimulator {
  /** Endpoint for `new IAMClient({ endpoint })`. */
  readonly url: string;
  /** The roles and profiles, for setup and inspection in tests. */
  readonly state: IamState;
  close(): Promise<void>;
}

/** Starts the simulated IAM on 127.0.0.1 and a free port. */
export async function startIamSimulator(options: IamSimulatorOptions): Promise<IamSimulator> {
  const state = new IamState(options.accountId, options.now ?? Date.now);
  for (const role of options.roles ?? []) {
    const segments = role.split('/');
    const name = segments.pop() ?? role;
    state.addRole(name, segments.length > 0 ? `/${segments.join('/')}/` : '/');
  }
  for (const { name, role } of options.instanceProfiles ?? []) {
    const profile = state.profiles.get(name) ?? state.setupInstanceProfile(name);
    profile.roles = [state.addRole(role)];
  }
  const { server, url } = await startIamServer(state, options.faults, options.iam);
  return { url, state, close: () => closeServer(server) };
}
