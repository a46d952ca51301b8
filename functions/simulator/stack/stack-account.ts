/**
 * A simulated account deployed with joiner's stack: the template's IAM (role policies, queue
 * policies, Lambda permissions) read with the template's resources named as the simulated cloud
 * names them (queues, table, bus, node role and profile, rules), an authorizer over it, and the
 * credentials each simulated function signs with (its template function's role, found by the
 * `POWERTOOLS_SERVICE_NAME=joiner-<function>` every joiner function carries).
 */
import { ENV } from '../../shared/env.js';
import { EVENT_RULES, JOINER_BUS_NAME } from '../../shared/event-rules.js';
import { EVENT_SOURCES, type FunctionName, type QueueName } from '../../shared/event-sources.js';
import { AccountAuthorizer, type ObservedDecision } from '../iam/authorization/account-authorizer.js';
import type { AccessKey, AccountIdentity, DeniedCall } from '../iam/authorization/account-identity.js';
import { readStackIam, type StackIam } from '../iam/authorization/stack-iam.js';
import { stackNamingResolver } from '../iam/authorization/stack-naming-resolver.js';
import type {
  TemplateParts,
  TemplateResolver,
  TemplateResource,
} from '../iam/authorization/template-intrinsics.js';

/** Where the stack is deployed and what the simulated cloud calls its resources. */
export interface StackAccountOptions {
  readonly template: Record<string, unknown>;
  /** The template's file (or `synthesized`), for errors. */
  readonly source: string;
  readonly clusterName: string;
  readonly region: string;
  readonly account: string;
  /** Virtual time (for time conditions). */
  readonly clock: () => number;
  /** Prefix of the simulated queues (`<prefix>-<queue>`, `<prefix>-<queue>-dlq`). Default `joiner`. */
  readonly queuePrefix?: string;
  /** The simulated table's name. Default `joiner`. */
  readonly tableName?: string;
  /** Sees every request the account decides (see AccountAuthorizerOptions). */
  readonly onDecision?: (observed: ObservedDecision) => void;
}

/** The account of a deployed stack. */
export function stackAccount(options: StackAccountOptions): AccountIdentity &
  Required<Pick<AccountIdentity, 'roleArnOf' | 'functionUrlOf'>> & {
    readonly authorizer: AccountAuthorizer;
    readonly iam: StackIam;
  } {
  const template = options.template as unknown as TemplateParts;
  const resolver = simulatedResolver(template, options);
  const iam = readStackIam(template, resolver, options.source);
  const authorizer = AccountAuthorizer.fromStack(iam, {
    account: options.account,
    region: options.region,
    clock: options.clock,
    ...(options.onDecision ? { onDecision: options.onDecision } : {}),
  });
  const keys = new Map<FunctionName, AccessKey>();
  const functionOf = (name: FunctionName) => {
    const fn = iam.functions.find((f) => f.environment.POWERTOOLS_SERVICE_NAME === `joiner-${name}`);
    if (!fn)
      throw new Error(
        `${options.source}: the stack has no function joiner-${name} (POWERTOOLS_SERVICE_NAME)`,
      );
    return fn;
  };
  const webhookSecretArn = iam.functions.find(
    (f) => f.environment.POWERTOOLS_SERVICE_NAME === 'joiner-webhook',
  )?.environment[ENV.webhookSecretArn];
  return {
    authorizer,
    iam,
    credentialsOf(name) {
      const known = keys.get(name);
      if (known) return known;
      const key = authorizer.registerPrincipal(functionOf(name).roleArn, name);
      keys.set(name, key);
      return key;
    },
    roleArnOf: (name) => functionOf(name).roleArn,
    functionUrlOf: (name) => {
      const fn = functionOf(name);
      const url = iam.functionUrls.find((u) => u.functionArn === fn.arn);
      return url && { functionArn: url.functionArn, authType: url.authType };
    },
    ...(webhookSecretArn ? { webhookSecretArn } : {}),
    denials: () => groupDenials(authorizer),
    reservedConcurrency: reservedConcurrencyOf(options.template),
  };
}

/**
 * The `ReservedConcurrentExecutions` of the template's joiner functions (found by their
 * `POWERTOOLS_SERVICE_NAME=joiner-<function>`), by function; functions without one are absent.
 */
export function reservedConcurrencyOf(
  template: Record<string, unknown>,
): Partial<Record<FunctionName, number>> {
  const out: Partial<Record<FunctionName, number>> = {};
  const resources = (template.Resources ?? {}) as Record<string, TemplateResource>;
  for (const resource of Object.values(resources)) {
    if (resource.Type !== 'AWS::Lambda::Function') continue;
    const props = (resource.Properties ?? {}) as {
      ReservedConcurrentExecutions?: unknown;
      Environment?: { Variables?: Record<string, unknown> };
    };
    const service = props.Environment?.Variables?.POWERTOOLS_SERVICE_NAME;
    const reserved = props.ReservedConcurrentExecutions;
    if (typeof service !== 'string' || !service.startsWith('joiner-') || typeof reserved !== 'number')
      continue;
    out[service.slice('joiner-'.length) as FunctionName] = reserved;
  }
  return out;
}

/** Denials grouped by action, resource and principal, in order of first occurrence. */
function groupDenials(authorizer: AccountAuthorizer): DeniedCall[] {
  const groups = new Map<string, DeniedCall>();
  for (const d of authorizer.denials) {
    const key = `${d.action}\u0000${d.resource}\u0000${d.principal}`;
    const seen = groups.get(key);
    groups.set(
      key,
      seen
        ? { ...seen, count: seen.count + 1 }
        : { action: d.action, resource: d.resource, role: d.principal, hint: d.hint, count: 1 },
    );
  }
  return [...groups.values()];
}

type Named = { readonly name: string; readonly arn: string; readonly url?: string };

/**
 * Names the template's resources as the simulated cloud created them; any other resource gets
 * the name CloudFormation would give it.
 */
function simulatedResolver(template: TemplateParts, o: StackAccountOptions): TemplateResolver {
  const base = stackNamingResolver(template, { account: o.account, region: o.region });
  const named = new Map<string, Named>();
  const resources = template.Resources as Record<string, TemplateResource>;
  const prefix = o.queuePrefix ?? 'joiner';
  const queue = (name: string): Named => ({
    name,
    arn: `arn:aws:sqs:${o.region}:${o.account}:${name}`,
    url: `https://sqs.${o.region}.amazonaws.com/${o.account}/${name}`,
  });
  const idOf = (value: unknown): string | undefined => {
    const v = value as { Ref?: unknown; 'Fn::GetAtt'?: unknown } | undefined;
    if (typeof v?.Ref === 'string') return v.Ref;
    const att = v?.['Fn::GetAtt'];
    return Array.isArray(att) && typeof att[0] === 'string' ? att[0] : undefined;
  };
  const functionOf = new Map<string, string>();
  for (const [id, r] of Object.entries(resources)) {
    const props = (r.Properties ?? {}) as Record<string, unknown>;
    if (r.Type === 'AWS::Lambda::Function') {
      const env = ((props.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ??
        {}) as Record<string, unknown>;
      const service = typeof env.POWERTOOLS_SERVICE_NAME === 'string' ? env.POWERTOOLS_SERVICE_NAME : '';
      if (service.startsWith('joiner-')) functionOf.set(id, service.slice('joiner-'.length));
      const roleId = idOf(env.JOINER_NODE_ROLE_NAME) ?? idOf(env.JOINER_NODE_ROLE_ARNS);
      const node = `${o.clusterName}-node`;
      if (roleId) named.set(roleId, { name: node, arn: `arn:aws:iam::${o.account}:role/${node}` });
      const profileId = idOf(env.JOINER_INSTANCE_PROFILE_NAME);
      if (profileId)
        named.set(profileId, { name: node, arn: `arn:aws:iam::${o.account}:instance-profile/${node}` });
    }
    if (r.Type === 'AWS::DynamoDB::Table') {
      const name = o.tableName ?? 'joiner';
      named.set(id, { name, arn: `arn:aws:dynamodb:${o.region}:${o.account}:table/${name}` });
    }
    if (r.Type === 'AWS::Events::EventBus' && !props.Name) {
      named.set(id, {
        name: JOINER_BUS_NAME,
        arn: `arn:aws:events:${o.region}:${o.account}:event-bus/${JOINER_BUS_NAME}`,
      });
    }
    if (r.Type === 'AWS::Events::Rule') {
      const spec = EVENT_RULES.find((s) => stable(s.pattern) === stable(props.EventPattern));
      if (spec) {
        const bus = spec.bus === 'default' ? '' : `${spec.bus}/`;
        named.set(id, {
          name: spec.id,
          arn: `arn:aws:events:${o.region}:${o.account}:rule/${bus}${spec.id}`,
        });
      }
    }
  }
  // Queues: each event source mapping's queue is its function's, and its DLQ the redrive target.
  for (const r of Object.values(resources)) {
    if (r.Type !== 'AWS::Lambda::EventSourceMapping') continue;
    const props = (r.Properties ?? {}) as Record<string, unknown>;
    const fn = functionOf.get(idOf(props.FunctionName) ?? '');
    const source = EVENT_SOURCES.find((s) => s.function === fn);
    const queueId = idOf(props.EventSourceArn);
    if (!source || !queueId) continue;
    const q: QueueName = source.queue;
    named.set(queueId, queue(`${prefix}-${q}`));
    const redrive = (
      resources[queueId]?.Properties as { RedrivePolicy?: { deadLetterTargetArn?: unknown } } | undefined
    )?.RedrivePolicy;
    const dlqId = idOf(redrive?.deadLetterTargetArn);
    if (dlqId) named.set(dlqId, queue(`${prefix}-${q}-dlq`));
  }
  return {
    ...base,
    ref(logicalId, resource) {
      const n = named.get(logicalId);
      if (!n) return base.ref(logicalId, resource);
      if (resource.Type === 'AWS::SQS::Queue') return n.url;
      if (resource.Type === 'AWS::Events::Rule') return n.name;
      return n.name;
    },
    getAtt(logicalId, attribute, resource) {
      const n = named.get(logicalId);
      if (!n) return base.getAtt(logicalId, attribute, resource);
      if (attribute === 'Arn') return n.arn;
      if (attribute === 'QueueName' || attribute === 'Name') return n.name;
      if (attribute === 'QueueUrl') return n.url;
      return base.getAtt(logicalId, attribute, resource);
    },
  };
}

/** JSON with sorted keys (event patterns compared by content). */
function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stable((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}
