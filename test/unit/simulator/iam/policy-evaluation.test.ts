import { describe, expect, it } from 'vitest';
import { decide, ROLE } from './policy-test-helpers.js';

const QUEUE = 'arn:aws:sqs:us-west-2:111111111111:joiner-provisioning';
const RULE = 'arn:aws:events:us-west-2:111111111111:rule/joiner-pods';

describe('policy evaluation (AWS evaluation logic)', () => {
  it('denies implicitly when no statement grants the action', () => {
    const e = decide({ action: 'ec2:TerminateInstances' }, [
      { Effect: 'Allow', Action: 'ec2:Describe*', Resource: '*' },
    ]);
    expect(e.decision).toEqual({ allowed: false, outcome: 'implicit-deny' });
  });

  it('allows through an identity policy and names the statement', () => {
    const e = decide({ action: 'ec2:DescribeInstances' }, [
      { Sid: 'Read', Effect: 'Allow', Action: 'ec2:Describe*', Resource: '*' },
    ]);
    expect(e.decision).toEqual({ allowed: true, outcome: 'allowed', statement: 'identity/Read' });
  });

  it('lets an explicit Deny win over any Allow, in either policy', () => {
    const allow = { Effect: 'Allow', Action: '*', Resource: '*' };
    const deny = { Sid: 'NoTerminate', Effect: 'Deny', Action: 'ec2:TerminateInstances', Resource: '*' };
    expect(decide({ action: 'ec2:TerminateInstances' }, [allow, deny]).decision).toEqual({
      allowed: false,
      outcome: 'explicit-deny',
      statement: 'identity/NoTerminate',
    });
    const fromResource = decide(
      { action: 'sqs:SendMessage', resource: QUEUE },
      [allow],
      [
        {
          Sid: 'TlsOnly',
          Effect: 'Deny',
          Principal: { AWS: '*' },
          Action: 'sqs:*',
          Resource: QUEUE,
          Condition: { Bool: { 'aws:SecureTransport': 'false' } },
        },
      ],
    );
    expect(fromResource.decision.allowed).toBe(true);
    const plain = decide(
      { action: 'sqs:SendMessage', resource: QUEUE, context: { 'aws:SecureTransport': 'false' } },
      [allow],
      [
        {
          Sid: 'TlsOnly',
          Effect: 'Deny',
          Principal: { AWS: '*' },
          Action: 'sqs:*',
          Resource: QUEUE,
          Condition: { Bool: { 'aws:SecureTransport': 'false' } },
        },
      ],
    );
    expect(plain.decision).toMatchObject({ outcome: 'explicit-deny', statement: 'resource/TlsOnly' });
  });

  it('matches actions case-insensitively with * and ?', () => {
    const s = [{ Effect: 'Allow', Action: ['EC2:describeinstance?', 'sqs:*Message'], Resource: '*' }];
    expect(decide({ action: 'ec2:DescribeInstances' }, s).decision.allowed).toBe(true);
    expect(decide({ action: 'ec2:DescribeInstanceTypes' }, s).decision.allowed).toBe(false);
    expect(decide({ action: 'sqs:ReceiveMessage' }, s).decision.allowed).toBe(true);
    expect(decide({ action: 'sqs:ReceiveMessageBatch' }, s).decision.allowed).toBe(false);
  });

  it('NotAction allows everything but the listed actions (AWS example: all but IAM)', () => {
    const s = [{ Effect: 'Allow', NotAction: 'iam:*', Resource: '*' }];
    expect(decide({ action: 'ec2:RunInstances' }, s).decision.allowed).toBe(true);
    expect(decide({ action: 'iam:PassRole' }, s).decision.allowed).toBe(false);
  });

  it('NotResource with Deny denies everywhere but the listed resources', () => {
    const s = [
      { Effect: 'Allow', Action: 'sqs:*', Resource: '*' },
      { Effect: 'Deny', Action: 'sqs:*', NotResource: 'arn:aws:sqs:us-west-2:111111111111:joiner-*' },
    ];
    expect(decide({ action: 'sqs:SendMessage', resource: QUEUE }, s).decision.allowed).toBe(true);
    expect(
      decide({ action: 'sqs:SendMessage', resource: 'arn:aws:sqs:us-west-2:111111111111:other' }, s).decision
        .outcome,
    ).toBe('explicit-deny');
  });

  it('matches ARNs component by component: * in a component, colons in the resource part', () => {
    const s = [{ Effect: 'Allow', Action: 'ec2:*', Resource: 'arn:aws:ec2:*:111111111111:instance/*' }];
    const instance = 'arn:aws:ec2:eu-west-1:111111111111:instance/i-0abc';
    expect(decide({ action: 'ec2:StartInstances', resource: instance }, s).decision.allowed).toBe(true);
    expect(
      decide(
        { action: 'ec2:StartInstances', resource: 'arn:aws:ec2:eu-west-1:222222222222:instance/i-0abc' },
        s,
      ).decision.allowed,
    ).toBe(false);
    // A statement on instance ARNs does not grant an action whose resource is `*`.
    expect(decide({ action: 'ec2:DescribeInstances', resource: '*' }, s).decision.allowed).toBe(false);
    const logs = [
      {
        Effect: 'Allow',
        Action: 'logs:PutLogEvents',
        Resource: 'arn:aws:logs:*:*:log-group:/aws/lambda/*:*',
      },
    ];
    expect(
      decide(
        {
          action: 'logs:PutLogEvents',
          resource: 'arn:aws:logs:us-west-2:111111111111:log-group:/aws/lambda/f:log-stream:x',
        },
        logs,
      ).decision.allowed,
    ).toBe(true);
  });

  it('resource policies allow a service principal only under their conditions', () => {
    const queuePolicy = [
      {
        Effect: 'Allow',
        Principal: { Service: 'events.amazonaws.com' },
        Action: 'sqs:SendMessage',
        Resource: QUEUE,
        Condition: { ArnEquals: { 'aws:SourceArn': RULE } },
      },
    ];
    const asEvents = { principal: 'events.amazonaws.com', action: 'sqs:SendMessage', resource: QUEUE };
    expect(
      decide({ ...asEvents, context: { 'aws:SourceArn': RULE } }, [], queuePolicy).decision.allowed,
    ).toBe(true);
    const other = decide({ ...asEvents, context: { 'aws:SourceArn': `${RULE}-other` } }, [], queuePolicy);
    expect(other.decision.allowed).toBe(false);
    expect(other.nearMisses[0].failure?.condition.key).toBe('aws:SourceArn');
    expect(
      decide(
        { ...asEvents, principal: 'sns.amazonaws.com', context: { 'aws:SourceArn': RULE } },
        [],
        queuePolicy,
      ).decision.allowed,
    ).toBe(false);
  });

  it('a resource policy naming the role allows it without an identity policy; naming the account delegates', () => {
    const named = [{ Effect: 'Allow', Principal: { AWS: ROLE }, Action: 'sqs:SendMessage', Resource: QUEUE }];
    expect(decide({ action: 'sqs:SendMessage', resource: QUEUE }, [], named).decision.allowed).toBe(true);
    const account = [
      {
        Effect: 'Allow',
        Principal: { AWS: 'arn:aws:iam::111111111111:root' },
        Action: 'sqs:SendMessage',
        Resource: QUEUE,
      },
    ];
    expect(decide({ action: 'sqs:SendMessage', resource: QUEUE }, [], account).decision.allowed).toBe(false);
    expect(
      decide(
        { action: 'sqs:SendMessage', resource: QUEUE },
        [{ Effect: 'Allow', Action: 'sqs:*', Resource: '*' }],
        account,
      ).decision.allowed,
    ).toBe(true);
    const anyone = [{ Effect: 'Allow', Principal: '*', Action: 'lambda:InvokeFunctionUrl', Resource: '*' }];
    expect(decide({ action: 'lambda:InvokeFunctionUrl' }, [], anyone).decision.allowed).toBe(true);
  });

  it('a resource policy naming the role also names its sessions', () => {
    const named = [{ Effect: 'Allow', Principal: { AWS: ROLE }, Action: 'sqs:SendMessage', Resource: QUEUE }];
    const session = 'arn:aws:sts::111111111111:assumed-role/joiner-controller/fn-session';
    expect(
      decide({ principal: session, action: 'sqs:SendMessage', resource: QUEUE }, [], named).decision.allowed,
    ).toBe(true);
  });

  it('across accounts both the identity policy and the resource policy must allow', () => {
    const other = 'arn:aws:sqs:us-west-2:222222222222:q';
    const identity = [{ Effect: 'Allow', Action: 'sqs:SendMessage', Resource: '*' }];
    expect(decide({ action: 'sqs:SendMessage', resource: other }, identity).decision.allowed).toBe(false);
    const resource = [
      { Effect: 'Allow', Principal: { AWS: '111111111111' }, Action: 'sqs:SendMessage', Resource: other },
    ];
    expect(decide({ action: 'sqs:SendMessage', resource: other }, identity, resource).decision.allowed).toBe(
      true,
    );
  });

  it('NotPrincipal with Deny denies everyone but the named principal', () => {
    const resource = [
      { Effect: 'Allow', Principal: '*', Action: 'sqs:*', Resource: QUEUE },
      { Effect: 'Deny', NotPrincipal: { AWS: ROLE }, Action: 'sqs:*', Resource: QUEUE },
    ];
    expect(decide({ action: 'sqs:SendMessage', resource: QUEUE }, [], resource).decision.allowed).toBe(true);
    expect(
      decide(
        { principal: 'arn:aws:iam::111111111111:role/other', action: 'sqs:SendMessage', resource: QUEUE },
        [],
        resource,
      ).decision.outcome,
    ).toBe('explicit-deny');
  });

  it('reports the Allow statements that failed only on a condition, with the key and the value carried', () => {
    const e = decide(
      {
        action: 'ec2:CreateFleet',
        resource: 'arn:aws:ec2:us-west-2:111111111111:spot-instances-request/*',
        context: { 'aws:RequestTag/owner': 'other' },
      },
      [
        {
          Sid: 'LaunchTagged',
          Effect: 'Allow',
          Action: 'ec2:CreateFleet',
          Resource: 'arn:aws:ec2:us-west-2:111111111111:*',
          Condition: { StringEquals: { 'aws:RequestTag/joiner.sh/cluster': 'prod' } },
        },
      ],
    );
    expect(e.decision.outcome).toBe('implicit-deny');
    expect(e.nearMisses).toHaveLength(1);
    expect(e.nearMisses[0].statement.id).toBe('identity/LaunchTagged');
    expect(e.nearMisses[0].failure).toMatchObject({
      condition: { key: 'aws:RequestTag/joiner.sh/cluster' },
      actual: undefined,
    });
  });
});
