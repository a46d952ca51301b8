/**
 * What an EventBridge rule target receives: the whole event, or what the target's `Input`,
 * `InputPath` or `InputTransformer` (the CloudFormation `AWS::Events::Rule` target fields) make of
 * it. The shared rule descriptions carry these fields, the CDK stack writes them into the rules, the
 * simulated EventBridge and the sweep schedule apply them the same way, and the infrastructure tests
 * apply the ones found in the synthesized template to check every handler accepts the result.
 */

/** The input settings of one rule target, as CloudFormation spells them. */
export interface TargetInput {
  /** Constant JSON text sent instead of the event. */
  readonly Input?: string;
  /** JSONPath of the part of the event to send, e.g. `$.detail`. */
  readonly InputPath?: string;
  readonly InputTransformer?: {
    /** Placeholder name to JSONPath of the event. */
    readonly InputPathsMap?: Readonly<Record<string, string>>;
    /** Text with `<name>` placeholders (JSON or plain text). */
    readonly InputTemplate: string;
  };
}

/** The rule a delivery comes from (for the `<aws.events.rule-*>` placeholders). */
export interface DeliveringRule {
  readonly name: string;
  readonly arn: string;
}

/**
 * The text a target receives for `event`: an SQS target's message body, or the JSON payload of a
 * Lambda target. Throws when the input settings are contradictory or a path is not one EventBridge
 * accepts, naming the setting.
 */
export function targetPayloadText(event: unknown, input: TargetInput = {}, rule?: DeliveringRule): string {
  const set = (['Input', 'InputPath', 'InputTransformer'] as const).filter((k) => input[k] !== undefined);
  if (set.length > 1) throw new Error(`rule target: only one of ${set.join(', ')} may be set`);
  if (input.Input !== undefined) return input.Input;
  if (input.InputPath !== undefined) return JSON.stringify(readPath(event, input.InputPath) ?? null);
  const transformer = input.InputTransformer;
  if (transformer === undefined) return JSON.stringify(event);
  const values = new Map<string, unknown>();
  for (const [name, path] of Object.entries(transformer.InputPathsMap ?? {})) {
    if (name.startsWith('aws.events.'))
      throw new Error(`rule target: InputPathsMap key '${name}' is reserved`);
    values.set(name, readPath(event, path));
  }
  values.set('aws.events.event', event);
  values.set('aws.events.event.json', event);
  if (rule) {
    values.set('aws.events.rule-name', rule.name);
    values.set('aws.events.rule-arn', rule.arn);
  }
  return transformer.InputTemplate.replace(/<([A-Za-z0-9_.-]+)>/g, (whole, name: string) => {
    if (!values.has(name)) return whole;
    const value = values.get(name);
    if (value === undefined) return 'null';
    // A string goes in as its characters (the template puts the quotes); anything else as JSON.
    return typeof value === 'string' ? JSON.stringify(value).slice(1, -1) : JSON.stringify(value);
  });
}

/** The payload a Lambda target receives: the target text parsed as JSON (a plain text is a JSON string). */
export function targetPayload(event: unknown, input: TargetInput = {}, rule?: DeliveringRule): unknown {
  const text = targetPayloadText(event, input, rule);
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Reads a JSONPath of the forms EventBridge accepts for targets: `$`, `$.a.b`, `$.a[0].b`, `$['a-b']`. */
export function readPath(value: unknown, path: string): unknown {
  if (!path.startsWith('$')) throw new Error(`rule target: JSONPath '${path}' must start with $`);
  const keys: (string | number)[] = [];
  const token = /\.([^.[\]]+)|\[(\d+)\]|\['([^']+)'\]/y;
  let at = 1;
  while (at < path.length) {
    token.lastIndex = at;
    const match = token.exec(path);
    if (!match) throw new Error(`rule target: JSONPath '${path}' is not valid at '${path.slice(at)}'`);
    keys.push(match[2] !== undefined ? Number(match[2]) : (match[1] ?? match[3] ?? ''));
    at = token.lastIndex;
  }
  let current = value;
  for (const key of keys) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}
