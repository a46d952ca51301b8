/**
 * Where an interruption event comes from, checked before anything is done about it: EventBridge
 * stamps every event with the account and region it was published in, and the EC2 events name
 * their instances by ARN. The interruption queue's policy only lets the account's own rules send,
 * but a queue policy widened by hand, a cross-account bus rule or a copied message could still
 * bring another account's or region's events; acting on them would drain joiner's nodes for an
 * instance id that merely looks the same. Such an event is refused, never acted on.
 */

/** The account and region the stack runs in. */
export interface StackOrigin {
  readonly account: string;
  readonly region: string;
}

/** The envelope fields the check reads. */
export interface EventOriginFields {
  readonly account?: unknown;
  readonly region?: unknown;
  readonly resources?: unknown;
}

/**
 * The stack's account and region from the ARN the function was invoked with
 * (`arn:aws:lambda:<region>:<account>:function:<name>[:alias]`); undefined when it is not one.
 */
export function stackOriginOf(invokedFunctionArn: string | undefined): StackOrigin | undefined {
  const match = invokedFunctionArn?.match(/^arn:aws[a-z-]*:lambda:([a-z0-9-]+):(\d{12}):function:/);
  if (!match) return undefined;
  return { region: match[1] as string, account: match[2] as string };
}

/**
 * Why the event does not belong to `stack` (its account, its region, or an ARN among its
 * resources naming another account or region), or undefined when it does.
 */
export function originMismatch(event: EventOriginFields, stack: StackOrigin): string | undefined {
  if (typeof event.account !== 'string' || event.account === '')
    return 'the event names no account (EventBridge events always do)';
  if (event.account !== stack.account)
    return `the event is from account ${truncate(event.account)}, not this stack's account ${stack.account}`;
  if (typeof event.region !== 'string' || event.region === '')
    return 'the event names no region (EventBridge events always do)';
  if (event.region !== stack.region)
    return `the event is from region ${truncate(event.region)}, not this stack's region ${stack.region}`;
  const resources = Array.isArray(event.resources) ? event.resources : [];
  for (const resource of resources) {
    if (typeof resource !== 'string' || !resource.startsWith('arn:')) continue;
    const [, , , region, account] = resource.split(':');
    if (account && account !== stack.account)
      return `resource ${truncate(resource)} is in account ${account}, not ${stack.account}`;
    if (region && region !== stack.region)
      return `resource ${truncate(resource)} is in region ${region}, not ${stack.region}`;
  }
  return undefined;
}

/** `value` cut to `max` characters (with an ellipsis) for a log line. */
export function truncate(value: string, max = 120): string {
  return value.length <= max ? value : `${value.slice(0, max)}…`;
}
