// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${…} is IAM policy-variable syntax, not a template.
import { describe, expect, it } from 'vitest';
import { normalizeContext } from '../../../../functions/simulator/iam/policy/condition-evaluation.js';
import { parsePolicyDocument } from '../../../../functions/simulator/iam/policy/policy-document.js';
import { evaluatePolicies } from '../../../../functions/simulator/iam/policy/policy-evaluation.js';
import { decide } from './policy-test-helpers.js';

const allow = { Effect: 'Allow', Action: 'sqs:SendMessage', Resource: '*' };

describe('policy documents', () => {
  it('accepts a single Statement object or an array, and numbers statements without Sid', () => {
    const one = parsePolicyDocument({ Version: '2012-10-17', Statement: allow }, 'p', 'identity');
    expect(one.statements.map((s) => s.id)).toEqual(['p/#0']);
    const two = parsePolicyDocument(
      { Version: '2012-10-17', Statement: [allow, { ...allow, Sid: 'Send' }] },
      'p',
      'identity',
    );
    expect(two.statements.map((s) => s.id)).toEqual(['p/#0', 'p/Send']);
    expect(parsePolicyDocument(JSON.stringify({ Statement: allow }), 'p', 'identity').version).toBe(
      '2008-10-17',
    );
  });

  it.each([
    ['not JSON', '{', /policy p: document: not JSON/],
    ['not an object', '[1]', /document: must be a JSON object/],
    ['no Statement', { Version: '2012-10-17' }, /document: has no Statement/],
    ['bad Version', { Version: '2020-01-01', Statement: allow }, /Version: must be 2012-10-17 or 2008-10-17/],
    ['unknown top field', { Version: '2012-10-17', Statment: [] }, /unknown field Statment/],
    [
      'bad Effect',
      { Statement: { ...allow, Effect: 'allow' } },
      /Statement\[0\]\.Effect: must be Allow or Deny/,
    ],
    [
      'no Action',
      { Statement: { Effect: 'Allow', Resource: '*' } },
      /Statement\[0\]\.Action: exactly one of Action or NotAction/,
    ],
    [
      'both Action and NotAction',
      { Statement: { ...allow, NotAction: 'x:y' } },
      /exactly one of Action or NotAction/,
    ],
    [
      'malformed action',
      { Statement: { ...allow, Action: 'sqs SendMessage' } },
      /Action: malformed action sqs SendMessage/,
    ],
    [
      'no Resource',
      { Statement: { Effect: 'Allow', Action: 'sqs:*' } },
      /Resource: one of Resource or NotResource is required/,
    ],
    [
      'Resource not an ARN',
      { Statement: { ...allow, Resource: 'my-queue' } },
      /Resource: not an ARN or \*: my-queue/,
    ],
    ['empty Resource list', { Statement: { ...allow, Resource: [] } }, /Resource: must not be empty/],
    [
      'non-string Resource',
      { Statement: { ...allow, Resource: [{ Ref: 'Queue' }] } },
      /Resource: must be a string or a list of strings/,
    ],
    [
      'Principal in identity policy',
      { Statement: { ...allow, Principal: '*' } },
      /Principal: not allowed in an identity policy/,
    ],
    [
      'unknown statement field',
      { Statement: { ...allow, Sid: 'S', Actions: 'x' } },
      /Statement\[0\] \(S\)\.Actions: unknown field/,
    ],
    [
      'bad condition',
      { Statement: { ...allow, Sid: 'C', Condition: { StringEqualz: { k: 'v' } } } },
      /Statement\[0\] \(C\)\.Condition: unknown condition operator StringEqualz/,
    ],
    [
      'duplicate Sid',
      {
        Statement: [
          { ...allow, Sid: 'A' },
          { ...allow, Sid: 'A' },
        ],
      },
      /Statement\[1\]: duplicate Sid A/,
    ],
  ])('rejects %s naming the policy, statement and field', (_, doc, message) => {
    expect(() => parsePolicyDocument(doc, 'p', 'identity')).toThrow(message);
  });

  it('requires a Principal in resource and trust policies and lets trust policies omit Resource', () => {
    expect(() => parsePolicyDocument({ Statement: allow }, 'q', 'resource')).toThrow(
      /Principal: exactly one of Principal or NotPrincipal/,
    );
    expect(() =>
      parsePolicyDocument({ Statement: { ...allow, Principal: { Robot: 'x' } } }, 'q', 'resource'),
    ).toThrow(/unknown principal type Robot/);
    const trust = parsePolicyDocument(
      {
        Statement: {
          Effect: 'Allow',
          Action: 'sts:AssumeRole',
          Principal: { Service: 'lambda.amazonaws.com' },
        },
      },
      't',
      'trust',
    );
    expect(trust.statements[0].principal).toEqual({ Service: ['lambda.amazonaws.com'] });
  });
});

describe('policy variables in Resource', () => {
  const perUser = [{ Effect: 'Allow', Action: 'sqs:*', Resource: 'arn:aws:sqs:*:*:${aws:username}-*' }];

  it('substitutes the request value (AWS example: a queue per user name)', () => {
    const ok = decide(
      {
        action: 'sqs:SendMessage',
        resource: 'arn:aws:sqs:us-west-2:111111111111:alice-q',
        context: { 'aws:username': 'alice' },
      },
      perUser,
    );
    expect(ok.decision.allowed).toBe(true);
    const other = decide(
      {
        action: 'sqs:SendMessage',
        resource: 'arn:aws:sqs:us-west-2:111111111111:bob-q',
        context: { 'aws:username': 'alice' },
      },
      perUser,
    );
    expect(other.decision.allowed).toBe(false);
  });

  it('a variable without a value matches nothing; its default applies', () => {
    const q = 'arn:aws:sqs:us-west-2:111111111111:shared-q';
    expect(decide({ action: 'sqs:SendMessage', resource: q }, perUser).decision.allowed).toBe(false);
    const withDefault = [
      { Effect: 'Allow', Action: 'sqs:*', Resource: "arn:aws:sqs:*:*:${aws:username, 'shared'}-*" },
    ];
    expect(decide({ action: 'sqs:SendMessage', resource: q }, withDefault).decision.allowed).toBe(true);
  });

  it('substituted text is literal: a * in the value is not a wildcard', () => {
    const q = 'arn:aws:sqs:us-west-2:111111111111:alice-q';
    expect(
      decide({ action: 'sqs:SendMessage', resource: q, context: { 'aws:username': '*' } }, perUser).decision
        .allowed,
    ).toBe(false);
  });

  it('a multi-valued key is never substituted', () => {
    const byTag = [{ Effect: 'Allow', Action: 'sqs:*', Resource: 'arn:aws:sqs:*:*:${aws:TagKeys}' }];
    const q = 'arn:aws:sqs:us-west-2:111111111111:a';
    expect(
      decide({ action: 'sqs:SendMessage', resource: q, context: { 'aws:TagKeys': ['a'] } }, byTag).decision
        .allowed,
    ).toBe(false);
  });

  it('Version 2008-10-17 takes ${...} literally', () => {
    const doc = parsePolicyDocument({ Version: '2008-10-17', Statement: perUser }, 'old', 'identity');
    const request = (resource: string) => ({
      principal: 'arn:aws:iam::111111111111:role/r',
      action: 'sqs:SendMessage',
      resource,
      context: normalizeContext({ 'aws:username': 'alice' }),
    });
    const literal = 'arn:aws:sqs:us-west-2:111111111111:${aws:username}-q';
    expect(evaluatePolicies(request(literal), { identity: [doc] }).decision.allowed).toBe(true);
    const alice = 'arn:aws:sqs:us-west-2:111111111111:alice-q';
    expect(evaluatePolicies(request(alice), { identity: [doc] }).decision.allowed).toBe(false);
  });
});
