import { describe, expect, it } from 'vitest';
import { loadEc2Reference } from '../../../../functions/simulator/ec2/authorization/service-reference.js';
import { WILDCARD_ACTIONS } from '../../../../functions/simulator/ec2/ec2-server.js';

describe('the service authorization reference as the simulated EC2 reads it', () => {
  it('lists the resource types each launch action is authorized against', async () => {
    const reference = await loadEc2Reference(WILDCARD_ACTIONS);
    for (const type of ['fleet', 'instance', 'volume', 'launch-template', 'subnet', 'image']) {
      expect(reference.hasResourceType('ec2:CreateFleet', type)).toBe(true);
    }
    // The spot request and interfaces are authorized for the launches, not for CreateFleet itself.
    expect(reference.hasResourceType('ec2:CreateFleet', 'spot-instances-request')).toBe(false);
    for (const type of [
      'spot-instances-request',
      'network-interface',
      'security-group',
      'snapshot',
      'key-pair',
    ]) {
      expect(reference.hasResourceType('ec2:RunInstances', type)).toBe(true);
    }
    expect(reference.hasResourceType('ec2:CreateTags', 'volume')).toBe(true);
  });

  it('authorizes every Describe* the simulator serves on *', async () => {
    const reference = await loadEc2Reference(WILDCARD_ACTIONS);
    expect(WILDCARD_ACTIONS).toContain('ec2:DescribeInstances');
    expect(WILDCARD_ACTIONS.every((a) => reference.wildcardOnly.has(a))).toBe(true);
    await expect(loadEc2Reference(['ec2:TerminateInstances'])).rejects.toThrow(/resource-level permissions/);
  });

  it('keeps only the condition keys listed for the action and resource type', async () => {
    const reference = await loadEc2Reference(WILDCARD_ACTIONS);
    const context = {
      'ec2:Region': 'us-west-2',
      'aws:RequestTag/joiner.sh/cluster': 'demo',
      'aws:TagKeys': ['joiner.sh/cluster'],
      'aws:ResourceTag/joiner.sh/cluster': 'demo',
      'ec2:CreateAction': 'RunInstances',
    };
    // A standalone CreateTags on a volume: resource and request tags, and ec2:CreateAction is an action-level key.
    expect(reference.filterContext('ec2:CreateTags', 'volume', context)).toEqual(context);
    // A created spot request has no existing tags and no CreateAction key.
    expect(reference.filterContext('ec2:RunInstances', 'spot-instances-request', context)).toEqual({
      'ec2:Region': 'us-west-2',
      'aws:RequestTag/joiner.sh/cluster': 'demo',
      'aws:TagKeys': ['joiner.sh/cluster'],
    });
    expect(() => reference.filterContext('ec2:AttachVolume', 'volume', context)).toThrow(/not loaded/);
  });

  it('builds ARNs from the reference formats', async () => {
    const reference = await loadEc2Reference(WILDCARD_ACTIONS);
    const where = { region: 'us-west-2', account: '111122223333' };
    expect(reference.arn('ec2', 'instance', where, 'i-1')).toBe(
      'arn:aws:ec2:us-west-2:111122223333:instance/i-1',
    );
    expect(reference.arn('ec2', 'image', where, 'ami-1')).toBe('arn:aws:ec2:us-west-2::image/ami-1');
    expect(reference.arn('kms', 'key', where, 'k')).toBe('arn:aws:kms:us-west-2:111122223333:key/k');
    expect(() => reference.arn('ec2', 'no-such-type', where, 'x')).toThrow(/no ARN format/);
  });
});
