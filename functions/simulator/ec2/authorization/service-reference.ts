/**
 * What the service authorization reference says about the calls the simulated EC2 authorizes,
 * viewed from the shared reference (iam/authorization/service-reference.ts, loaded once per
 * process): for each action, the resource types it is authorized against and the condition keys
 * EC2 puts in the request context for each (and for the action as a whole), and each resource
 * type's ARN format. The handlers ask synchronously.
 */
import {
  type ActionReference,
  loadServiceReference,
  type ServiceReference,
} from '../../iam/authorization/service-reference.js';

/** Actions (`service:Action`) the simulated EC2 authorizes, including the ones it asks on the caller's behalf. */
export const AUTHORIZED_ACTIONS = [
  'ec2:CreateFleet',
  'ec2:RunInstances',
  'ec2:CreateLaunchTemplate',
  'ec2:CreateTags',
  'ec2:TerminateInstances',
  'ec2:DeleteLaunchTemplate',
  'ec2:ModifyNetworkInterfaceAttribute',
  'iam:PassRole',
  'iam:CreateServiceLinkedRole',
  'kms:CreateGrant',
  'kms:Decrypt',
  'kms:DescribeKey',
  'kms:GenerateDataKeyWithoutPlaintext',
] as const;

/** The services whose reference the simulated EC2 reads. */
const SERVICES = ['ec2', 'iam', 'kms'] as const;

/** The reference's view of the calls the simulated EC2 serves; build it with {@link loadEc2Reference}. */
export class Ec2Reference {
  private readonly arnFormats = new Map<string, string>();

  constructor(
    private readonly reference: ServiceReference,
    /** Describe* and other actions with no resource-level permissions (authorized on `*`). */
    readonly wildcardOnly: ReadonlySet<string>,
  ) {
    for (const name of AUTHORIZED_ACTIONS) {
      const service = name.split(':')[0];
      for (const type of reference.action(name).resourceTypes) {
        this.arnFormats.set(`${service}:${type.name}`, type.arnFormat);
      }
    }
  }

  /** Whether the reference lists `resourceType` for `action`. */
  hasResourceType(action: string, resourceType: string): boolean {
    return this.entry(action).resourceTypes.some((r) => r.name === resourceType);
  }

  /**
   * The context keys of `context` the reference lists for this action and resource type (or for
   * the action as a whole); the others are not part of what EC2 sends and are dropped.
   */
  filterContext<T>(
    action: string,
    resourceType: string | undefined,
    context: Record<string, T>,
  ): Record<string, T> {
    const entry = this.entry(action);
    const patterns = [
      ...entry.conditionKeys,
      ...(resourceType
        ? (entry.resourceTypes.find((r) => r.name === resourceType)?.conditionKeys ?? [])
        : []),
    ];
    const out: Record<string, T> = {};
    for (const [key, value] of Object.entries(context)) {
      if (patterns.some((pattern) => keyMatches(pattern, key))) out[key] = value;
    }
    return out;
  }

  /** The ARN of a resource of `service`'s `resourceType`, from the reference's format. */
  arn(service: string, resourceType: string, where: { region: string; account: string }, id: string): string {
    const format = this.arnFormats.get(`${service}:${resourceType}`);
    if (!format) throw new Error(`service reference: no ARN format loaded for ${service}:${resourceType}`);
    return format
      .replace(/\$\{Partition\}/, 'aws')
      .replace(/\$\{Region\}/, where.region)
      .replace(/\$\{Account\}/, where.account)
      .replace(/\$\{[A-Za-z]+\}$/, id);
  }

  private entry(action: string): ActionReference {
    if (!(AUTHORIZED_ACTIONS as readonly string[]).includes(action) && !this.wildcardOnly.has(action)) {
      throw new Error(`service reference: action ${action} was not loaded`);
    }
    return this.reference.action(action);
  }
}

function keyMatches(pattern: string, key: string): boolean {
  const variable = pattern.indexOf('${');
  if (variable < 0) return pattern.toLowerCase() === key.toLowerCase();
  const prefix = pattern.slice(0, variable).toLowerCase();
  return key.toLowerCase().startsWith(prefix) && key.length > prefix.length;
}

/**
 * The EC2 view of the shared reference for {@link AUTHORIZED_ACTIONS} and the `wildcardOnly`
 * actions (the Describe* the simulator serves, checked to have no resource types).
 */
export async function loadEc2Reference(describeActions: readonly string[]): Promise<Ec2Reference> {
  const reference = await loadServiceReference(SERVICES);
  for (const name of describeActions) {
    if (reference.action(name).resourceTypes.length > 0) {
      throw new Error(`service reference: ${name} has resource-level permissions; authorize it per resource`);
    }
  }
  return new Ec2Reference(reference, new Set(describeActions));
}
