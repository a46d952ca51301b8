// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${…} is IAM policy-variable syntax, not a template.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ContextValue } from '../../../../functions/simulator/iam/authorization/authorization-request.js';
import { parseConditionBlock } from '../../../../functions/simulator/iam/policy/condition-block.js';
import {
  conditionHolds,
  normalizeContext,
} from '../../../../functions/simulator/iam/policy/condition-evaluation.js';

/** Whether a one-pair Condition block holds for a context (variables enabled). */
function holds(
  operator: string,
  key: string,
  values: unknown,
  context: Record<string, ContextValue> = {},
): boolean {
  const [condition] = parseConditionBlock({ [operator]: { [key]: values } });
  const normalized = normalizeContext(context);
  return conditionHolds(condition, normalized, (k) => normalized.get(k));
}

describe('condition operators', () => {
  it('String operators: exact, ignore-case, wildcards; negations', () => {
    const ctx = { 'aws:RequestTag/team': 'Platform' };
    expect(holds('StringEquals', 'aws:RequestTag/team', 'Platform', ctx)).toBe(true);
    expect(holds('StringEquals', 'aws:RequestTag/team', 'platform', ctx)).toBe(false);
    expect(holds('StringEqualsIgnoreCase', 'aws:RequestTag/team', 'platform', ctx)).toBe(true);
    expect(holds('StringNotEqualsIgnoreCase', 'aws:RequestTag/team', 'PLATFORM', ctx)).toBe(false);
    expect(holds('StringLike', 'aws:RequestTag/team', 'Plat*', ctx)).toBe(true);
    expect(holds('StringLike', 'aws:RequestTag/team', 'Platfor?', ctx)).toBe(true);
    expect(holds('StringNotLike', 'aws:RequestTag/team', ['x*', 'P*'], ctx)).toBe(false);
    expect(holds('StringNotEquals', 'aws:RequestTag/team', 'Other', ctx)).toBe(true);
  });

  it('condition key names are case-insensitive; values are not', () => {
    expect(
      holds('StringEquals', 'AWS:requesttag/Team', 'Platform', { 'aws:RequestTag/team': 'Platform' }),
    ).toBe(true);
  });

  it('multiple values of one key are ORed', () => {
    expect(
      holds('StringEquals', 'ec2:InstanceType', ['m5.large', 't3.small'], { 'ec2:InstanceType': 't3.small' }),
    ).toBe(true);
  });

  it('a missing key fails positive operators and satisfies negated ones', () => {
    expect(holds('StringEquals', 'aws:RequestTag/team', 'a')).toBe(false);
    expect(holds('StringNotEquals', 'aws:RequestTag/team', 'a')).toBe(true);
    expect(holds('ArnNotLike', 'aws:SourceArn', 'arn:aws:events:*:*:rule/*')).toBe(true);
    expect(holds('NotIpAddress', 'aws:SourceIp', '10.0.0.0/8')).toBe(true);
    expect(holds('NumericLessThan', 'ec2:VolumeSize', '100')).toBe(false);
  });

  it('...IfExists holds when the key is missing and compares when present', () => {
    expect(holds('StringEqualsIfExists', 'ec2:InstanceType', 't3.small')).toBe(true);
    expect(
      holds('StringEqualsIfExists', 'ec2:InstanceType', 't3.small', { 'ec2:InstanceType': 'm5.large' }),
    ).toBe(false);
    expect(
      holds('StringEqualsIfExists', 'ec2:InstanceType', 't3.small', { 'ec2:InstanceType': 't3.small' }),
    ).toBe(true);
  });

  it('Numeric operators parse numbers and refuse text', () => {
    const ctx = { 'ec2:VolumeSize': '100' };
    expect(holds('NumericEquals', 'ec2:VolumeSize', '100.0', ctx)).toBe(true);
    expect(holds('NumericNotEquals', 'ec2:VolumeSize', 100, ctx)).toBe(false);
    expect(holds('NumericLessThan', 'ec2:VolumeSize', '101', ctx)).toBe(true);
    expect(holds('NumericLessThanEquals', 'ec2:VolumeSize', '100', ctx)).toBe(true);
    expect(holds('NumericGreaterThan', 'ec2:VolumeSize', '100', ctx)).toBe(false);
    expect(holds('NumericGreaterThanEquals', 'ec2:VolumeSize', '99', ctx)).toBe(true);
    expect(holds('NumericEquals', 'ec2:VolumeSize', '100', { 'ec2:VolumeSize': 'big' })).toBe(false);
  });

  it('Date operators take ISO 8601 and epoch seconds (AWS example: before a date)', () => {
    const ctx = { 'aws:CurrentTime': '2026-11-27T06:00:00Z', 'aws:EpochTime': '1795759200' };
    expect(holds('DateLessThan', 'aws:CurrentTime', '2026-12-31T23:59:59Z', ctx)).toBe(true);
    expect(holds('DateGreaterThan', 'aws:CurrentTime', '2026-12-31T23:59:59Z', ctx)).toBe(false);
    expect(holds('DateEquals', 'aws:CurrentTime', '1795759200', ctx)).toBe(true);
    expect(holds('DateNotEquals', 'aws:EpochTime', '2026-11-27T06:00:00Z', ctx)).toBe(false);
    expect(holds('DateLessThanEquals', 'aws:EpochTime', '2026-11-27T06:00:00Z', ctx)).toBe(true);
    expect(holds('DateGreaterThanEquals', 'aws:CurrentTime', '2026-11-27', ctx)).toBe(true);
  });

  it('Bool, BinaryEquals, IpAddress (v4 and v6)', () => {
    expect(holds('Bool', 'aws:SecureTransport', 'true', { 'aws:SecureTransport': 'TRUE' })).toBe(true);
    expect(holds('Bool', 'aws:SecureTransport', false, { 'aws:SecureTransport': 'true' })).toBe(false);
    expect(holds('BinaryEquals', 'k', 'QmluYXJ5VmFsdWU=', { k: 'QmluYXJ5VmFsdWU=' })).toBe(true);
    expect(holds('BinaryEquals', 'k', 'QmluYXJ5VmFsdWU=', { k: 'b3RoZXI=' })).toBe(false);
    expect(holds('IpAddress', 'aws:SourceIp', '203.0.113.0/24', { 'aws:SourceIp': '203.0.113.7' })).toBe(
      true,
    );
    expect(holds('IpAddress', 'aws:SourceIp', '203.0.113.0/24', { 'aws:SourceIp': '203.0.114.7' })).toBe(
      false,
    );
    expect(
      holds('IpAddress', 'aws:SourceIp', '2001:DB8:1234:5678::/64', {
        'aws:SourceIp': '2001:db8:1234:5678::1',
      }),
    ).toBe(true);
    expect(holds('IpAddress', 'aws:SourceIp', '10.0.0.1', { 'aws:SourceIp': '10.0.0.1' })).toBe(true);
    expect(holds('NotIpAddress', 'aws:SourceIp', '10.0.0.0/8', { 'aws:SourceIp': '192.168.0.1' })).toBe(true);
  });

  it('Arn operators compare component by component with wildcards', () => {
    const ctx = { 'aws:SourceArn': 'arn:aws:events:us-west-2:111111111111:rule/joiner-pods' };
    expect(
      holds('ArnEquals', 'aws:SourceArn', 'arn:aws:events:us-west-2:111111111111:rule/joiner-pods', ctx),
    ).toBe(true);
    expect(holds('ArnLike', 'aws:SourceArn', 'arn:aws:events:*:111111111111:rule/*', ctx)).toBe(true);
    expect(holds('ArnLike', 'aws:SourceArn', 'arn:aws:events:*:222222222222:rule/*', ctx)).toBe(false);
    expect(
      holds('ArnNotEquals', 'aws:SourceArn', 'arn:aws:events:us-west-2:111111111111:rule/other', ctx),
    ).toBe(true);
    expect(holds('ArnLike', 'aws:SourceArn', 'arn:aws:events:*', { 'aws:SourceArn': 'not-an-arn' })).toBe(
      false,
    );
  });

  it('Null tests presence: true means absent', () => {
    expect(holds('Null', 'aws:RequestTag/team', 'true')).toBe(true);
    expect(holds('Null', 'aws:RequestTag/team', 'false')).toBe(false);
    expect(holds('Null', 'aws:RequestTag/team', 'false', { 'aws:RequestTag/team': 'x' })).toBe(true);
    expect(holds('Null', 'aws:TagKeys', 'true', { 'aws:TagKeys': [] })).toBe(true);
  });

  it('ForAllValues: every request value must match some policy value; no values holds', () => {
    const op = 'ForAllValues:StringLike';
    expect(
      holds(op, 'aws:TagKeys', ['joiner.sh/*', 'Name'], { 'aws:TagKeys': ['joiner.sh/cluster', 'Name'] }),
    ).toBe(true);
    expect(holds(op, 'aws:TagKeys', ['joiner.sh/*'], { 'aws:TagKeys': ['joiner.sh/cluster', 'Name'] })).toBe(
      false,
    );
    expect(holds(op, 'aws:TagKeys', ['joiner.sh/*'])).toBe(true);
    expect(
      holds('ForAllValues:StringEquals', 'dynamodb:LeadingKeys', 'catalog', {
        'dynamodb:LeadingKeys': ['catalog'],
      }),
    ).toBe(true);
    expect(
      holds('ForAllValues:StringEquals', 'dynamodb:LeadingKeys', 'catalog', {
        'dynamodb:LeadingKeys': ['claim#1'],
      }),
    ).toBe(false);
    expect(
      holds('ForAllValues:StringNotEquals', 'aws:TagKeys', ['secret'], { 'aws:TagKeys': ['a', 'b'] }),
    ).toBe(true);
    expect(
      holds('ForAllValues:StringNotEquals', 'aws:TagKeys', ['secret'], { 'aws:TagKeys': ['a', 'secret'] }),
    ).toBe(false);
  });

  it('ForAnyValue: at least one request value must match; no values fails', () => {
    const op = 'ForAnyValue:StringEquals';
    expect(holds(op, 'aws:TagKeys', ['owner'], { 'aws:TagKeys': ['Name', 'owner'] })).toBe(true);
    expect(holds(op, 'aws:TagKeys', ['owner'], { 'aws:TagKeys': ['Name'] })).toBe(false);
    expect(holds(op, 'aws:TagKeys', ['owner'])).toBe(false);
    expect(holds('ForAnyValue:StringEqualsIfExists', 'aws:TagKeys', ['owner'])).toBe(true);
    expect(
      holds('ForAnyValue:StringNotEquals', 'aws:TagKeys', ['owner'], { 'aws:TagKeys': ['owner', 'x'] }),
    ).toBe(true);
  });

  it('policy variables in values, with defaults and the escapes ${*} ${?} ${$}', () => {
    const ctx = { 'aws:PrincipalTag/team': 'platform', 'aws:RequestTag/team': 'platform' };
    expect(holds('StringEquals', 'aws:RequestTag/team', '${aws:PrincipalTag/team}', ctx)).toBe(true);
    expect(holds('StringEquals', 'aws:RequestTag/team', '${aws:PrincipalTag/missing}', ctx)).toBe(false);
    expect(holds('StringEquals', 'aws:RequestTag/team', "${aws:PrincipalTag/missing, 'platform'}", ctx)).toBe(
      true,
    );
    expect(holds('StringLike', 'k', 'a${*}b', { k: 'a*b' })).toBe(true);
    expect(holds('StringLike', 'k', 'a${*}b', { k: 'axxb' })).toBe(false);
    expect(holds('StringEquals', 'k', 'cost${$}', { k: 'cost$' })).toBe(true);
    expect(holds('StringLike', 'k', 'x${?}', { k: 'x?' })).toBe(true);
    expect(holds('StringEquals', 'k', "${aws:none, 'it''s'}", { k: "it's" })).toBe(true);
  });

  it('rejects unknown operators, set prefixes and non-boolean Bool / Null values', () => {
    expect(() => parseConditionBlock({ StringEqualz: { k: 'v' } })).toThrow(
      /unknown condition operator StringEqualz/,
    );
    expect(() => parseConditionBlock({ 'ForSomeValues:StringEquals': { k: 'v' } })).toThrow(
      /unknown set operator/,
    );
    expect(() => parseConditionBlock({ Bool: { k: 'yes' } })).toThrow(/Bool takes true or false/);
    expect(() => parseConditionBlock({ StringEquals: { k: [] } })).toThrow(/has no values/);
    expect(() => parseConditionBlock({ StringEquals: { k: { nested: 1 } } })).toThrow(
      /values must be strings/,
    );
    expect(() => parseConditionBlock({ NullIfExists: { k: 'true' } })).toThrow(/Null takes no IfExists/);
  });

  it('property: a negated operator is the negation of its positive form when the key is present', () => {
    const pairs: [string, string][] = [
      ['StringEquals', 'StringNotEquals'],
      ['StringLike', 'StringNotLike'],
      ['StringEqualsIgnoreCase', 'StringNotEqualsIgnoreCase'],
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...pairs),
        fc.string(),
        fc.array(fc.string({ minLength: 1 }), { minLength: 1 }),
        ([pos, neg], value, policyValues) => {
          const ctx = { k: value };
          const safe = policyValues.map((v) => v.replaceAll('$', ''));
          expect(holds(neg, 'k', safe, ctx)).toBe(!holds(pos, 'k', safe, ctx));
        },
      ),
    );
  });

  it('property: StringLike with no wildcard is StringEquals; * matches every string', () => {
    fc.assert(
      fc.property(
        fc.string().filter((s) => !/[*?$]/.test(s)),
        fc.string(),
        (pattern, value) => {
          expect(holds('StringLike', 'k', pattern, { k: value })).toBe(pattern === value);
          expect(holds('StringLike', 'k', '*', { k: value })).toBe(true);
        },
      ),
    );
  });

  it('property: ForAllValues over a set equals every value matching alone; ForAnyValue equals some', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a', 'b', 'c', 'd')),
        fc.array(fc.constantFrom<string>('a', 'b', 'c'), { minLength: 1 }),
        (request, policyValues) => {
          const all = holds('ForAllValues:StringEquals', 'k', policyValues, { k: request });
          const any = holds('ForAnyValue:StringEquals', 'k', policyValues, { k: request });
          expect(all).toBe(request.every((v) => policyValues.includes(v)));
          expect(any).toBe(request.some((v) => policyValues.includes(v)));
        },
      ),
    );
  });
});
