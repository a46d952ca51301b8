import { describe, expect, it } from 'vitest';
import { matchesFilters } from '../../../../functions/simulator/ec2/filters.js';

const tags = { 'karpenter.sh/nodepool': 'default', Name: 'node-1' };

describe('EC2 Describe filters', () => {
  it('builds the fields of a resource only when its tag filters pass and another filter needs them', () => {
    let built = 0;
    const fields = () => {
      built++;
      return { 'instance-state-name': ['running'] };
    };
    const byTag = [{ name: 'tag:karpenter.sh/nodepool', values: ['other'] }];
    const both = [
      { name: 'instance-state-name', values: ['running', 'pending'] },
      { name: 'tag:karpenter.sh/nodepool', values: ['def*'] },
    ];
    expect(matchesFilters(byTag, fields, tags)).toBe(false);
    expect(matchesFilters([{ name: 'tag-key', values: ['Name'] }], fields, tags)).toBe(true);
    expect(built).toBe(0);
    expect(matchesFilters(both, fields, tags)).toBe(true);
    expect(
      matchesFilters([...both, { name: 'instance-state-name', values: ['stopped'] }], fields, tags),
    ).toBe(false);
    expect(built).toBe(2);
  });

  it('still refuses a filter name the resource does not have', () => {
    expect(() => matchesFilters([{ name: 'no-such-filter', values: ['x'] }], () => ({}), tags)).toThrow(
      "The filter 'no-such-filter' is invalid",
    );
  });
});
