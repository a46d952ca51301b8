/**
 * Resolving CloudFormation intrinsic functions in a synthesized template to the values the
 * deployed stack would have: Ref (pseudo parameters, parameters, resources), Fn::GetAtt, Fn::Join,
 * Fn::Sub (both forms), Fn::Select, Fn::Split, Fn::If with the template's Conditions, Fn::Base64,
 * Fn::FindInMap. Physical names and ARNs of resources come from a resolver the caller supplies.
 * Anything that cannot be resolved is a {@link TemplateError} naming the template path.
 */

/** A resource of the template, as the resolver sees it. */
export interface TemplateResource {
  readonly Type: string;
  readonly Properties?: Record<string, unknown>;
  readonly Metadata?: Record<string, unknown>;
  readonly Condition?: string;
}

/** The physical values of a deployed stack's resources: the caller's mapping. */
export interface TemplateResolver {
  readonly account: string;
  readonly region: string;
  /** @default aws */
  readonly partition?: string;
  /** @default Joiner */
  readonly stackName?: string;
  /** What `Ref` of a resource returns (a name, URL or ARN by type); undefined if unknown. */
  ref(logicalId: string, resource: TemplateResource): string | undefined;
  /** What `Fn::GetAtt` of a resource attribute returns; undefined if unknown. */
  getAtt(logicalId: string, attribute: string, resource: TemplateResource): string | undefined;
  /** A parameter's value when it has no default; undefined if unknown. */
  parameter?(name: string): string | undefined;
}

/** A template the simulated IAM cannot read, with the file (or source) and path at fault. */
export class TemplateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TemplateError';
  }
}

/** The template parts intrinsics refer to. */
export interface TemplateParts {
  readonly Resources: Readonly<Record<string, TemplateResource>>;
  readonly Parameters?: Readonly<Record<string, { Default?: unknown }>>;
  readonly Conditions?: Readonly<Record<string, unknown>>;
  readonly Mappings?: Readonly<Record<string, Record<string, Record<string, unknown>>>>;
}

/** `AWS::NoValue`: removes the property or list element that holds it. */
const NO_VALUE = Symbol('AWS::NoValue');

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Resolves intrinsics in template values for one template and resolver. */
export class IntrinsicResolver {
  private readonly conditions = new Map<string, boolean>();

  constructor(
    private readonly template: TemplateParts,
    private readonly resolver: TemplateResolver,
    /** The template's file or name, for errors. */
    private readonly source: string,
  ) {}

  /** Fails naming the source and template path. */
  fail(path: string, detail: string): never {
    throw new TemplateError(`${this.source}: ${path}: ${detail}`);
  }

  /** Resolves every intrinsic in `value` (found at `path`, e.g. `Resources.Role.Properties`). */
  resolve(value: unknown, path: string): unknown {
    const resolved = this.walk(value, path);
    return resolved === NO_VALUE ? undefined : resolved;
  }

  /** Resolves `value` and requires a string. */
  resolveString(value: unknown, path: string): string {
    const resolved = this.resolve(value, path);
    if (typeof resolved !== 'string') this.fail(path, `expected a string, got ${JSON.stringify(resolved)}`);
    return resolved as string;
  }

  /** Whether a template condition holds. */
  condition(name: string, path: string): boolean {
    const cached = this.conditions.get(name);
    if (cached !== undefined) return cached;
    const definition = this.template.Conditions?.[name];
    if (definition === undefined) this.fail(path, `unknown condition ${name}`);
    const holds = this.truth(definition, `Conditions.${name}`);
    this.conditions.set(name, holds);
    return holds;
  }

  private truth(value: unknown, path: string): boolean {
    if (isObject(value)) {
      const [fn, arg] = Object.entries(value)[0] ?? [];
      const args = Array.isArray(arg) ? arg : [];
      if (fn === 'Condition') return this.condition(String(arg), path);
      if (fn === 'Fn::Equals') return this.resolve(args[0], path) === this.resolve(args[1], path);
      if (fn === 'Fn::Not') return !this.truth(args[0], `${path}.Fn::Not`);
      if (fn === 'Fn::And') return args.every((a, i) => this.truth(a, `${path}.Fn::And[${i}]`));
      if (fn === 'Fn::Or') return args.some((a, i) => this.truth(a, `${path}.Fn::Or[${i}]`));
    }
    return this.fail(path, `not a condition: ${JSON.stringify(value)}`);
  }

  private walk(value: unknown, path: string): unknown {
    if (Array.isArray(value)) {
      return value.map((v, i) => this.walk(v, `${path}[${i}]`)).filter((v) => v !== NO_VALUE);
    }
    if (!isObject(value)) return value;
    const keys = Object.keys(value);
    if (keys.length === 1 && (keys[0] === 'Ref' || keys[0].startsWith('Fn::'))) {
      return this.intrinsic(keys[0], value[keys[0]], `${path}.${keys[0]}`);
    }
    const out: Record<string, unknown> = {};
    for (const key of keys) {
      const v = this.walk(value[key], `${path}.${key}`);
      if (v !== NO_VALUE) out[key] = v;
    }
    return out;
  }

  private intrinsic(fn: string, arg: unknown, path: string): unknown {
    switch (fn) {
      case 'Ref':
        return this.ref(String(arg), path);
      case 'Fn::GetAtt': {
        const [id, ...attribute] = Array.isArray(arg) ? arg.map(String) : String(arg).split('.');
        return this.getAtt(id, attribute.join('.'), path);
      }
      case 'Fn::Join': {
        if (!Array.isArray(arg) || arg.length !== 2) this.fail(path, 'takes [delimiter, [values]]');
        const [delimiter, list] = arg as [unknown, unknown];
        const values = this.walk(list, `${path}[1]`);
        if (!Array.isArray(values)) this.fail(path, 'the values to join must be a list');
        return (values as unknown[]).map((v) => this.scalar(v, path)).join(String(delimiter));
      }
      case 'Fn::Sub':
        return this.sub(arg, path);
      case 'Fn::Select': {
        if (!Array.isArray(arg) || arg.length !== 2) this.fail(path, 'takes [index, list]');
        const index = Number(this.walk((arg as unknown[])[0], `${path}[0]`));
        const list = this.walk((arg as unknown[])[1], `${path}[1]`);
        if (!Array.isArray(list) || !Number.isInteger(index) || index < 0 || index >= list.length) {
          this.fail(path, `index ${index} is outside the list ${JSON.stringify(list)}`);
        }
        return (list as unknown[])[index];
      }
      case 'Fn::Split': {
        if (!Array.isArray(arg) || arg.length !== 2) this.fail(path, 'takes [delimiter, string]');
        const source = this.scalar(this.walk((arg as unknown[])[1], `${path}[1]`), path);
        return source.split(String((arg as unknown[])[0]));
      }
      case 'Fn::If': {
        if (!Array.isArray(arg) || arg.length !== 3) this.fail(path, 'takes [condition, then, else]');
        const [name, then, otherwise] = arg as [unknown, unknown, unknown];
        return this.condition(String(name), path)
          ? this.walk(then, `${path}[1]`)
          : this.walk(otherwise, `${path}[2]`);
      }
      case 'Fn::Base64':
        return Buffer.from(this.scalar(this.walk(arg, path), path)).toString('base64');
      case 'Fn::FindInMap': {
        const [map, top, second] = (Array.isArray(arg) ? arg : []).map((a, i) =>
          this.scalar(this.walk(a, `${path}[${i}]`), path),
        );
        const found = this.template.Mappings?.[map]?.[top]?.[second];
        if (found === undefined) this.fail(path, `no mapping ${map}.${top}.${second}`);
        return found;
      }
      default:
        return this.fail(path, `cannot resolve ${fn} in the simulated account`);
    }
  }

  private scalar(value: unknown, path: string): string {
    if (typeof value === 'string') return value;
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    return this.fail(path, `expected a string, got ${JSON.stringify(value)}`);
  }

  private ref(name: string, path: string): unknown {
    const r = this.resolver;
    switch (name) {
      case 'AWS::AccountId':
        return r.account;
      case 'AWS::Region':
        return r.region;
      case 'AWS::Partition':
        return r.partition ?? 'aws';
      case 'AWS::URLSuffix':
        return 'amazonaws.com';
      case 'AWS::StackName':
        return r.stackName ?? 'Joiner';
      case 'AWS::StackId':
        return `arn:${r.partition ?? 'aws'}:cloudformation:${r.region}:${r.account}:stack/${r.stackName ?? 'Joiner'}/00000000-0000-0000-0000-000000000000`;
      case 'AWS::NoValue':
        return NO_VALUE;
    }
    const parameter = this.template.Parameters?.[name];
    if (parameter) {
      const value = r.parameter?.(name) ?? parameter.Default;
      if (value === undefined) this.fail(path, `parameter ${name} has no value`);
      return value;
    }
    const resource = this.template.Resources[name];
    if (!resource)
      this.fail(path, `Ref to ${name}, which is neither a resource, a parameter nor a pseudo parameter`);
    const value = r.ref(name, resource);
    if (value === undefined)
      this.fail(path, `the resolver has no physical id for ${name} (${resource.Type})`);
    return value;
  }

  private getAtt(id: string, attribute: string, path: string): unknown {
    const resource = this.template.Resources[id];
    if (!resource) this.fail(path, `Fn::GetAtt of ${id}, which is not a resource`);
    const value = this.resolver.getAtt(id, attribute, resource);
    if (value === undefined) this.fail(path, `the resolver has no ${attribute} for ${id} (${resource.Type})`);
    return value;
  }

  private sub(arg: unknown, path: string): string {
    const [text, variables] = Array.isArray(arg) ? (arg as [unknown, unknown]) : [arg, {}];
    if (typeof text !== 'string' || !isObject(variables))
      this.fail(path, 'takes a string or [string, {variables}]');
    const locals = new Map<string, string>();
    for (const [k, v] of Object.entries(variables as Record<string, unknown>)) {
      locals.set(k, this.scalar(this.walk(v, `${path}[1].${k}`), `${path}[1].${k}`));
    }
    return (text as string).replace(/\$\{([^}]*)\}/g, (whole, name: string) => {
      if (name.startsWith('!')) return `\${${name.slice(1)}}`;
      const local = locals.get(name);
      if (local !== undefined) return local;
      const dot = name.indexOf('.');
      const value =
        dot > 0 && !name.startsWith('AWS::')
          ? this.getAtt(name.slice(0, dot), name.slice(dot + 1), path)
          : this.ref(name, path);
      if (value === NO_VALUE) this.fail(path, `${whole} is AWS::NoValue`);
      return this.scalar(value, path);
    });
  }
}
