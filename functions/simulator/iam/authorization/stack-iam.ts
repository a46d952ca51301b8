/**
 * The IAM of a deployed stack, read from its synthesized template: every role (trust policy,
 * inline policies, AWS::IAM::Policy / ManagedPolicy attachments, AWS managed policies), the
 * resource policies (SQS queue policies, Lambda permissions, Secrets Manager and KMS key
 * policies), function URLs, instance profiles, and which role each function runs as (with its
 * environment, so the caller can map functions, queues and tables to simulated ones).
 */
import {
  type PolicyDocument,
  PolicyDocumentError,
  type PolicyKind,
  parsePolicyDocument,
} from '../policy/policy-document.js';
import { awsManagedPolicy } from './aws-managed-policies.js';
import {
  IntrinsicResolver,
  type TemplateParts,
  type TemplateResolver,
  type TemplateResource,
} from './template-intrinsics.js';

/** A role of the stack. */
export interface StackRole {
  readonly logicalId: string;
  readonly name: string;
  readonly arn: string;
  readonly trustPolicy?: PolicyDocument;
  /** Identity policies: inline, attached AWS::IAM::Policy / ManagedPolicy, and carried AWS managed ones. */
  readonly policies: readonly PolicyDocument[];
  readonly managedPolicyArns: readonly string[];
  /** AWS managed policies whose documents the simulator does not carry (their grants are absent). */
  readonly unknownManagedPolicies: readonly string[];
}

/** A Lambda function of the stack. */
export interface StackFunction {
  readonly logicalId: string;
  readonly name: string;
  readonly arn: string;
  readonly roleArn: string;
  /** The role's logical id when the template refers to a role of the stack. */
  readonly roleLogicalId?: string;
  readonly environment: Readonly<Record<string, string>>;
  /** The construct path (`aws:cdk:path` metadata), when the template carries it. */
  readonly cdkPath?: string;
}

/** A resource-based policy and the resources (ARNs) it governs. */
export interface StackResourcePolicy {
  readonly logicalId: string;
  readonly type: string;
  readonly resourceArns: readonly string[];
  readonly policy: PolicyDocument;
}

/** A Lambda function URL. */
export interface StackFunctionUrl {
  readonly logicalId: string;
  readonly functionArn: string;
  readonly authType: 'NONE' | 'AWS_IAM';
}

/** An instance profile and the role names it holds. */
export interface StackInstanceProfile {
  readonly logicalId: string;
  readonly name: string;
  readonly arn: string;
  readonly roleNames: readonly string[];
}

/** Everything IAM-related the stack deploys. */
export interface StackIam {
  readonly source: string;
  readonly roles: readonly StackRole[];
  readonly functions: readonly StackFunction[];
  readonly resourcePolicies: readonly StackResourcePolicy[];
  readonly functionUrls: readonly StackFunctionUrl[];
  readonly instanceProfiles: readonly StackInstanceProfile[];
}

const list = (v: unknown): unknown[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** The logical id a `{Ref: X}` or `{Fn::GetAtt: [X, …]}` names, before resolution. */
function referencedId(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v.Ref === 'string') return v.Ref;
  const getAtt = v['Fn::GetAtt'];
  if (Array.isArray(getAtt)) return String(getAtt[0]);
  if (typeof getAtt === 'string') return getAtt.split('.')[0];
  return undefined;
}

/**
 * Reads the IAM of a template whose resources `resolver` names.
 * @throws TemplateError naming `source` and the template path of an unresolvable intrinsic or a
 * malformed policy.
 */
export function readStackIam(template: TemplateParts, resolver: TemplateResolver, source: string): StackIam {
  const intrinsics = new IntrinsicResolver(template, resolver, source);
  const partition = resolver.partition ?? 'aws';
  const active = Object.entries(template.Resources).filter(
    ([id, r]) => r.Condition === undefined || intrinsics.condition(r.Condition, `Resources.${id}.Condition`),
  );
  const of = (type: string): [string, TemplateResource][] => active.filter(([, r]) => r.Type === type);
  const props = (_id: string, r: TemplateResource) => (r.Properties ?? {}) as Record<string, unknown>;
  const policy = (document: unknown, name: string, kind: PolicyKind, path: string): PolicyDocument => {
    const resolved = intrinsics.resolve(document, path);
    try {
      return parsePolicyDocument(resolved, name, kind);
    } catch (error) {
      if (error instanceof PolicyDocumentError) intrinsics.fail(path, error.message);
      throw error;
    }
  };

  const attached = new Map<string, PolicyDocument[]>();
  for (const type of ['AWS::IAM::Policy', 'AWS::IAM::ManagedPolicy']) {
    for (const [id, r] of of(type)) {
      const p = props(id, r);
      const path = `Resources.${id}.Properties.PolicyDocument`;
      const name =
        type === 'AWS::IAM::Policy'
          ? intrinsics.resolveString(p.PolicyName ?? id, `Resources.${id}.Properties.PolicyName`)
          : id;
      const document = policy(p.PolicyDocument, name, 'identity', path);
      for (const [i, role] of list(p.Roles).entries()) {
        const target =
          referencedId(role) ?? intrinsics.resolveString(role, `Resources.${id}.Properties.Roles[${i}]`);
        attached.set(target, [...(attached.get(target) ?? []), document]);
      }
    }
  }
  const managedById = new Map(
    of('AWS::IAM::ManagedPolicy').map(([id]) => [resolver.ref(id, template.Resources[id]), id]),
  );

  const roles: StackRole[] = of('AWS::IAM::Role').map(([id, r]) => {
    const p = props(id, r);
    const name = intrinsics.resolveString({ Ref: id }, `Resources.${id}`);
    const arn = intrinsics.resolveString({ 'Fn::GetAtt': [id, 'Arn'] }, `Resources.${id}`);
    const policies: PolicyDocument[] = list(p.Policies).map((inline, i) => {
      const path = `Resources.${id}.Properties.Policies[${i}]`;
      const entry = inline as { PolicyName?: unknown; PolicyDocument?: unknown };
      return policy(
        entry.PolicyDocument,
        `${name}/${intrinsics.resolveString(entry.PolicyName, `${path}.PolicyName`)}`,
        'identity',
        `${path}.PolicyDocument`,
      );
    });
    const managedPolicyArns: string[] = [];
    const unknownManagedPolicies: string[] = [];
    for (const [i, m] of list(p.ManagedPolicyArns).entries()) {
      const managedId = referencedId(m);
      if (managedId && template.Resources[managedId]?.Type === 'AWS::IAM::ManagedPolicy') {
        managedPolicyArns.push(
          intrinsics.resolveString(m, `Resources.${id}.Properties.ManagedPolicyArns[${i}]`),
        );
        const p2 = props(managedId, template.Resources[managedId]);
        policies.push(
          policy(
            p2.PolicyDocument,
            managedId,
            'identity',
            `Resources.${managedId}.Properties.PolicyDocument`,
          ),
        );
        continue;
      }
      const arn = intrinsics.resolveString(m, `Resources.${id}.Properties.ManagedPolicyArns[${i}]`);
      managedPolicyArns.push(arn);
      const stackManaged = managedById.get(arn);
      const aws = awsManagedPolicy(arn);
      if (aws) policies.push(parsePolicyDocument(aws.document, aws.name, 'identity'));
      else if (!stackManaged) unknownManagedPolicies.push(arn);
    }
    policies.push(...(attached.get(id) ?? []), ...(attached.get(name) ?? []));
    const trust = p.AssumeRolePolicyDocument;
    return {
      logicalId: id,
      name,
      arn,
      ...(trust
        ? {
            trustPolicy: policy(
              trust,
              `${name}/trust`,
              'trust',
              `Resources.${id}.Properties.AssumeRolePolicyDocument`,
            ),
          }
        : {}),
      policies,
      managedPolicyArns,
      unknownManagedPolicies,
    };
  });

  const functionArnOf = (value: string): string =>
    value.startsWith('arn:')
      ? value
      : `arn:${partition}:lambda:${resolver.region}:${resolver.account}:function:${value}`;

  const functions: StackFunction[] = of('AWS::Lambda::Function').map(([id, r]) => {
    const p = props(id, r);
    const environment = intrinsics.resolve(
      (p.Environment as { Variables?: unknown } | undefined)?.Variables ?? {},
      `Resources.${id}.Properties.Environment.Variables`,
    );
    const roleLogicalId = referencedId(p.Role);
    const cdkPath = r.Metadata?.['aws:cdk:path'];
    return {
      logicalId: id,
      name: intrinsics.resolveString({ Ref: id }, `Resources.${id}`),
      arn: intrinsics.resolveString({ 'Fn::GetAtt': [id, 'Arn'] }, `Resources.${id}`),
      roleArn: intrinsics.resolveString(p.Role, `Resources.${id}.Properties.Role`),
      ...(roleLogicalId && template.Resources[roleLogicalId] ? { roleLogicalId } : {}),
      environment: Object.fromEntries(
        Object.entries(environment as Record<string, unknown>).map(([k, v]) => [k, String(v)]),
      ),
      ...(typeof cdkPath === 'string' ? { cdkPath } : {}),
    };
  });

  const resourcePolicies: StackResourcePolicy[] = [];
  for (const [id, r] of of('AWS::SQS::QueuePolicy')) {
    const p = props(id, r);
    const resourceArns = list(p.Queues).map((q, i) => {
      const path = `Resources.${id}.Properties.Queues[${i}]`;
      const queueId = referencedId(q);
      if (queueId && template.Resources[queueId]?.Type === 'AWS::SQS::Queue') {
        return intrinsics.resolveString({ 'Fn::GetAtt': [queueId, 'Arn'] }, path);
      }
      const url = intrinsics.resolveString(q, path);
      const match = /^https?:\/\/[^/]+\/(\d{12})\/([^/]+)$/.exec(url);
      if (!match) intrinsics.fail(path, `not a queue URL: ${url}`);
      return `arn:${partition}:sqs:${resolver.region}:${match![1]}:${match![2]}`;
    });
    resourcePolicies.push({
      logicalId: id,
      type: r.Type,
      resourceArns,
      policy: policy(p.PolicyDocument, id, 'resource', `Resources.${id}.Properties.PolicyDocument`),
    });
  }
  for (const [id, r] of of('AWS::SecretsManager::ResourcePolicy')) {
    const p = props(id, r);
    const secret = intrinsics.resolveString(p.SecretId, `Resources.${id}.Properties.SecretId`);
    resourcePolicies.push({
      logicalId: id,
      type: r.Type,
      resourceArns: [secret],
      policy: policy(p.ResourcePolicy, id, 'resource', `Resources.${id}.Properties.ResourcePolicy`),
    });
  }
  for (const [id, r] of of('AWS::KMS::Key')) {
    const p = props(id, r);
    if (p.KeyPolicy === undefined) continue;
    const arn = intrinsics.resolveString({ 'Fn::GetAtt': [id, 'Arn'] }, `Resources.${id}`);
    resourcePolicies.push({
      logicalId: id,
      type: r.Type,
      resourceArns: [arn],
      policy: policy(p.KeyPolicy, id, 'resource', `Resources.${id}.Properties.KeyPolicy`),
    });
  }
  for (const [id, r] of of('AWS::Lambda::Permission')) {
    const path = `Resources.${id}.Properties`;
    const p = intrinsics.resolve(props(id, r), path) as Record<string, unknown>;
    const functionArn = functionArnOf(String(p.FunctionName));
    const principal = String(p.Principal);
    const principalElement =
      principal === '*'
        ? '*'
        : /\.amazonaws\.com(\.cn)?$/.test(principal)
          ? { Service: principal }
          : { AWS: principal };
    const condition: Record<string, Record<string, string>> = {};
    const add = (operator: string, key: string, value: unknown) => {
      if (value !== undefined) condition[operator] = { ...condition[operator], [key]: String(value) };
    };
    add('ArnLike', 'aws:SourceArn', p.SourceArn);
    add('StringEquals', 'aws:SourceAccount', p.SourceAccount);
    add('StringEquals', 'aws:PrincipalOrgID', p.PrincipalOrgID);
    add('StringEquals', 'lambda:FunctionUrlAuthType', p.FunctionUrlAuthType);
    if (p.InvokedViaFunctionUrl === true || p.InvokedViaFunctionUrl === 'true')
      add('Bool', 'lambda:InvokedViaFunctionUrl', 'true');
    const statement = {
      Sid: id,
      Effect: 'Allow',
      Principal: principalElement,
      Action: String(p.Action),
      Resource: functionArn,
      ...(Object.keys(condition).length ? { Condition: condition } : {}),
    };
    resourcePolicies.push({
      logicalId: id,
      type: r.Type,
      resourceArns: [functionArn],
      policy: policy({ Version: '2012-10-17', Statement: [statement] }, `${id}`, 'resource', path),
    });
  }

  const functionUrls: StackFunctionUrl[] = of('AWS::Lambda::Url').map(([id, r]) => {
    const p = intrinsics.resolve(props(id, r), `Resources.${id}.Properties`) as Record<string, unknown>;
    if (p.AuthType !== 'NONE' && p.AuthType !== 'AWS_IAM')
      intrinsics.fail(
        `Resources.${id}.Properties.AuthType`,
        `must be NONE or AWS_IAM, got ${String(p.AuthType)}`,
      );
    return {
      logicalId: id,
      functionArn: functionArnOf(String(p.TargetFunctionArn)),
      authType: p.AuthType as 'NONE' | 'AWS_IAM',
    };
  });

  const instanceProfiles: StackInstanceProfile[] = of('AWS::IAM::InstanceProfile').map(([id, r]) => ({
    logicalId: id,
    name: intrinsics.resolveString({ Ref: id }, `Resources.${id}`),
    arn: intrinsics.resolveString({ 'Fn::GetAtt': [id, 'Arn'] }, `Resources.${id}`),
    roleNames: list(props(id, r).Roles).map((role, i) =>
      intrinsics.resolveString(role, `Resources.${id}.Properties.Roles[${i}]`),
    ),
  }));

  return { source, roles, functions, resourcePolicies, functionUrls, instanceProfiles };
}
