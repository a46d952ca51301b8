// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${…} is CloudFormation Fn::Sub syntax, not a template.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readStackIam, type StackIam } from '../../../../functions/simulator/iam/authorization/stack-iam.js';
import { stackNamingResolver } from '../../../../functions/simulator/iam/authorization/stack-naming-resolver.js';
import { loadStackTemplate } from '../../../../functions/simulator/iam/authorization/stack-template-file.js';
import type { TemplateParts } from '../../../../functions/simulator/iam/authorization/template-intrinsics.js';
import { ACCOUNT, REGION, synthesizeStack } from './synthesized-stack.js';

let dir: string;
let iam: StackIam;
const read = (template: object, source = 'test.template.json') =>
  readStackIam(
    template as TemplateParts,
    stackNamingResolver(template as TemplateParts, { account: ACCOUNT, region: REGION }),
    source,
  );

beforeAll(() => {
  dir = synthesizeStack();
  const { file, template } = loadStackTemplate(dir);
  iam = read(template, file);
}, 120_000);

describe('the synthesized joiner stack, read by the simulated IAM', () => {
  it('finds every role with its trust policy and identity policies', () => {
    const controller = iam.roles.find((r) => r.logicalId.startsWith('JoinerFunctionsControllerRole'))!;
    expect(controller.arn).toMatch(/^arn:aws:iam::111111111111:role\/Joiner-JoinerFunctionsControllerRole/);
    expect(controller.trustPolicy?.statements[0].principal).toEqual({ Service: ['lambda.amazonaws.com'] });
    const sids = controller.policies.flatMap((p) => p.statements.map((s) => s.sid)).filter(Boolean);
    expect(sids).toContain('LaunchTaggedResources');
    // Every function role gets its policies; the node role's EKS managed policies are listed as unknown.
    const node = iam.roles.find((r) => r.logicalId.startsWith('JoinerNodeRole'))!;
    expect(node.unknownManagedPolicies).toContain('arn:aws:iam::aws:policy/AmazonEKSWorkerNodePolicy');
    const provider = iam.roles.find((r) => r.logicalId.includes('ProviderframeworkonEventServiceRole'))!;
    expect(provider.policies.map((p) => p.name)).toContain('service-role/AWSLambdaBasicExecutionRole');
  });

  it('maps each function to its role and resolves its environment', () => {
    const provisioner = iam.functions.find((f) =>
      f.logicalId.startsWith('JoinerFunctionsProvisionerFunction'),
    )!;
    expect(provisioner.roleLogicalId).toMatch(/^JoinerFunctionsControllerRole/);
    expect(provisioner.roleArn).toBe(iam.roles.find((r) => r.logicalId === provisioner.roleLogicalId)!.arn);
    expect(provisioner.environment.JOINER_CLUSTER_NAME).toBe('prod');
    expect(provisioner.environment.JOINER_TIMERS_QUEUE_URL).toMatch(
      /^https:\/\/sqs\.us-west-2\.amazonaws\.com\/111111111111\//,
    );
    expect(provisioner.arn).toMatch(/^arn:aws:lambda:us-west-2:111111111111:function:/);
  });

  it('reads queue policies by queue ARN, Lambda permissions as function policies, and the function URL', () => {
    const queuePolicies = iam.resourcePolicies.filter((p) => p.type === 'AWS::SQS::QueuePolicy');
    expect(queuePolicies.length).toBeGreaterThan(0);
    for (const p of queuePolicies) expect(p.resourceArns[0]).toMatch(/^arn:aws:sqs:us-west-2:111111111111:/);
    const permissions = iam.resourcePolicies.filter((p) => p.type === 'AWS::Lambda::Permission');
    const fromRule = permissions.find((p) => p.policy.statements[0].principal !== '*')!;
    expect(fromRule.policy.statements[0].conditions[0]).toMatchObject({
      operator: 'ArnLike',
      key: 'aws:SourceArn',
    });
    expect(iam.functionUrls).toEqual([expect.objectContaining({ authType: 'NONE' })]);
    expect(iam.instanceProfiles[0].roleNames[0]).toMatch(/JoinerNodeRole/);
  });

  it('accepts the template file itself as well as the directory', () => {
    const { file } = loadStackTemplate(dir);
    expect(loadStackTemplate(file).file).toBe(file);
  });
});

describe('template intrinsics', () => {
  const base = {
    Parameters: { Env: { Type: 'String', Default: 'prod' } },
    Conditions: {
      IsProd: { 'Fn::Equals': [{ Ref: 'Env' }, 'prod'] },
      NotProd: { 'Fn::Not': [{ Condition: 'IsProd' }] },
    },
    Resources: {
      Queue: { Type: 'AWS::SQS::Queue', Properties: { QueueName: { 'Fn::Sub': '${Env}-work' } } },
      Role: {
        Type: 'AWS::IAM::Role',
        Properties: {
          AssumeRolePolicyDocument: {
            Statement: {
              Effect: 'Allow',
              Action: 'sts:AssumeRole',
              Principal: { Service: 'lambda.amazonaws.com' },
            },
          },
          Policies: [
            {
              PolicyName: 'inline',
              PolicyDocument: {
                Version: '2012-10-17',
                Statement: [
                  {
                    Sid: 'Sub',
                    Effect: 'Allow',
                    Action: 'sqs:SendMessage',
                    Resource: {
                      'Fn::Sub': [
                        'arn:${AWS::Partition}:sqs:${AWS::Region}:${AWS::AccountId}:${Name}',
                        { Name: { 'Fn::GetAtt': ['Queue', 'QueueName'] } },
                      ],
                    },
                  },
                  {
                    Sid: 'Select',
                    Effect: 'Allow',
                    Action: 'sqs:ReceiveMessage',
                    Resource: {
                      'Fn::Select': [
                        1,
                        {
                          'Fn::Split': [
                            '|',
                            { 'Fn::Join': ['|', ['x', { 'Fn::GetAtt': ['Queue', 'Arn'] }]] },
                          ],
                        },
                      ],
                    },
                  },
                  {
                    Sid: 'If',
                    Effect: 'Allow',
                    Action: { 'Fn::If': ['IsProd', 'sqs:DeleteMessage', { Ref: 'AWS::NoValue' }] },
                    Resource: '*',
                  },
                  {
                    Sid: 'Literal',
                    Effect: 'Allow',
                    Action: 'sqs:GetQueueUrl',
                    Resource: { 'Fn::Sub': 'arn:aws:sqs:*:*:${!Literal}' },
                  },
                ],
              },
            },
          ],
        },
      },
      Skipped: { Type: 'AWS::IAM::Role', Condition: 'NotProd', Properties: {} },
    },
  };

  it('resolves Ref, GetAtt, Join, Sub (both forms, ${!x}), Select, Split, If and conditions', () => {
    const result = read(base);
    expect(result.roles).toHaveLength(1);
    const [s1, s2, s3, s4] = result.roles[0].policies[0].statements;
    expect(s1.resources).toEqual(['arn:aws:sqs:us-west-2:111111111111:prod-work']);
    expect(s2.resources).toEqual(['arn:aws:sqs:us-west-2:111111111111:prod-work']);
    expect(s3.actions).toEqual(['sqs:DeleteMessage']);
    expect(s4.resources).toEqual(['arn:aws:sqs:*:*:${Literal}']);
  });

  it('names the template path of what it cannot resolve', () => {
    const bad = structuredClone(base) as typeof base & { Resources: Record<string, unknown> };
    (
      bad.Resources.Role as {
        Properties: { Policies: { PolicyDocument: { Statement: { Resource: unknown }[] } }[] };
      }
    ).Properties.Policies[0].PolicyDocument.Statement[0].Resource = { 'Fn::ImportValue': 'x' };
    expect(() => read(bad)).toThrow(
      /test\.template\.json: Resources\.Role\.Properties\.Policies\[0\]\.PolicyDocument\.Statement\[0\]\.Resource\.Fn::ImportValue: cannot resolve Fn::ImportValue/,
    );
    const missing = {
      Resources: {
        R: {
          Type: 'AWS::IAM::Role',
          Properties: {
            Policies: [
              {
                PolicyName: 'p',
                PolicyDocument: { Statement: { Effect: 'Allow', Action: 's:A', Resource: { Ref: 'Nope' } } },
              },
            ],
          },
        },
      },
    };
    expect(() => read(missing)).toThrow(
      /Resource\.Ref: Ref to Nope, which is neither a resource, a parameter nor a pseudo parameter/,
    );
    const malformed = {
      Resources: {
        R: {
          Type: 'AWS::IAM::Role',
          Properties: {
            Policies: [
              {
                PolicyName: 'p',
                PolicyDocument: { Statement: { Effect: 'Permit', Action: 's:A', Resource: '*' } },
              },
            ],
          },
        },
      },
    };
    expect(() => read(malformed)).toThrow(
      /Resources\.R\.Properties\.Policies\[0\]\.PolicyDocument: policy Joiner-R\/p: Statement\[0\]\.Effect/,
    );
  });
});

describe('loadStackTemplate bad input', () => {
  const write = (name: string, text: string) => {
    const file = join(dir, name);
    writeFileSync(file, text);
    return file;
  };

  it.each([
    ['missing.json', null, /missing\.json: no such file or directory/],
    ['garbage.json', '{ not: [json', /garbage\.json: neither JSON nor YAML/],
    ['list.json', '[1, 2]', /list\.json: not a CloudFormation template/],
    [
      'no-resources.json',
      '{"Description": "x"}',
      /no-resources\.json: not a CloudFormation template \(no Resources section\)/,
    ],
    ['untyped.json', '{"Resources": {"A": {}}}', /untyped\.json: Resources\.A has no Type/],
    [
      'other.json',
      '{"Resources": {"B": {"Type": "AWS::S3::Bucket"}}}',
      /other\.json: not a joiner stack template \(it defines no AWS::IAM::Role\)/,
    ],
    [
      'roles-only.yaml',
      'Resources:\n  R:\n    Type: AWS::IAM::Role\n    Properties:\n      RoleName: !Ref AWS::StackName\n',
      /roles-only\.yaml: not a joiner stack template \(no AWS::Lambda::Function with JOINER_\* environment\)/,
    ],
  ])('%s', (name, text, message) => {
    const file = text === null ? join(dir, name) : write(name, text);
    expect(() => loadStackTemplate(file)).toThrow(message);
  });

  it('reads YAML with short-form tags', () => {
    const file = write(
      'short.yaml',
      [
        'Resources:',
        '  R:',
        '    Type: AWS::IAM::Role',
        '    Properties:',
        '      Policies:',
        '        - PolicyName: p',
        '          PolicyDocument:',
        '            Statement:',
        '              Effect: Allow',
        '              Action: sqs:SendMessage',
        '              Resource: !GetAtt Q.Arn',
        '  Q:',
        '    Type: AWS::SQS::Queue',
        '  F:',
        '    Type: AWS::Lambda::Function',
        '    Properties:',
        '      Role: !GetAtt R.Arn',
        '      Environment: { Variables: { JOINER_TABLE_NAME: !Sub "${AWS::StackName}-t" } }',
      ].join('\n'),
    );
    const { template } = loadStackTemplate(file);
    const result = read(template, file);
    expect(result.roles[0].policies[0].statements[0].resources).toEqual([
      'arn:aws:sqs:us-west-2:111111111111:Joiner-Q',
    ]);
    expect(result.functions[0].environment.JOINER_TABLE_NAME).toBe('Joiner-t');
  });

  it('a directory without templates is refused', () => {
    expect(() => loadStackTemplate(join(dir, '..'))).toThrow(
      /no CloudFormation stack template in this directory/,
    );
  });
});
