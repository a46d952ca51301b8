import { describe, expect, it } from 'vitest';
import {
  formatIam,
  isExpected,
  unexpectedDenials,
} from '../../../../functions/simulator/scenario/iam-denials.js';

const denial = {
  action: 'ec2:CreateFleet',
  resource: 'arn:aws:ec2:us-west-2:111122223333:spot-instances-request/*',
  role: 'arn:aws:iam::111122223333:role/Joiner-Controller',
  hint: 'no statement grants ec2:CreateFleet',
  count: 3,
};

describe('scenario IAM denials', () => {
  it('matches expectDenials by action and optional resource pattern', () => {
    expect(isExpected(denial, [{ action: 'ec2:CreateFleet' }])).toBe(true);
    expect(isExpected(denial, [{ action: 'ec2:CreateFleet', resource: '*:spot-instances-request/*' }])).toBe(
      true,
    );
    expect(isExpected(denial, [{ action: 'ec2:CreateFleet', resource: '*:instance/*' }])).toBe(false);
    expect(isExpected(denial, [{ action: 'ec2:RunInstances' }])).toBe(false);
  });

  it('fails a scenario on each denial it does not expect', () => {
    const iam = { enforced: true, denied: [denial], spotServiceLinkedRole: 'present' as const };
    expect(unexpectedDenials(iam, [])).toEqual([
      `IAM denied ec2:CreateFleet on ${denial.resource} to ${denial.role} 3 times; ${denial.hint} (not in expectDenials)`,
    ]);
    expect(unexpectedDenials(iam, [{ action: 'ec2:*' }])).toEqual([]);
  });

  it('prints IAM off clearly, and the denials when on', () => {
    const slr = 'absent' as const;
    expect(formatIam({ enforced: false, denied: [], spotServiceLinkedRole: slr })[0]).toContain('IAM: OFF');
    expect(formatIam({ enforced: true, denied: [], spotServiceLinkedRole: slr })).toEqual([
      'IAM: enforced, 0 denials',
    ]);
    expect(formatIam({ enforced: true, denied: [denial], spotServiceLinkedRole: slr })[0]).toBe(
      'IAM: enforced, 3 denied call(s):',
    );
  });

  it('says when a spot launch created the spot service-linked role (a fresh account)', () => {
    expect(formatIam({ enforced: true, denied: [], spotServiceLinkedRole: 'created' })).toEqual([
      'IAM: enforced, 0 denials',
      'spot service-linked role: created by the first spot launch (a fresh account)',
    ]);
  });
});
