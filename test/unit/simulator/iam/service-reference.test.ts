// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${TagKey} is the reference's own notation.
import { describe, expect, it } from 'vitest';
import {
  loadServiceReference,
  SIMULATED_SERVICES,
  UnknownActionError,
} from '../../../../functions/simulator/iam/authorization/service-reference.js';

describe('service authorization reference', () => {
  it('lists the resource types an action authorizes, required or not, with ARN formats and keys', async () => {
    const reference = await loadServiceReference();
    expect(reference.services).toEqual(SIMULATED_SERVICES);
    const fleet = reference.action('EC2:createfleet');
    expect(fleet.action).toBe('ec2:CreateFleet');
    const instance = fleet.resourceTypes.find((r) => r.name === 'instance')!;
    expect(instance.required).toBe(true);
    expect(instance.arnFormat).toMatch(/^arn:\$\{Partition\}:ec2:\$\{Region\}:\$\{Account\}:instance\//);
    expect(instance.conditionKeys).toContain('aws:RequestTag/${TagKey}');
    expect(reference.action('ec2:CreateTags').conditionKeys).toContain('ec2:CreateAction');
    expect(reference.action('iam:PassRole').conditionKeys).toContain('iam:PassedToService');
    expect(reference.action('ec2:DescribeInstances').resourceTypes).toEqual([]);
    expect(reference.hasAction('sqs:SendMessage')).toBe(true);
  });

  it('refuses misspelt actions, actions of services not loaded, and names without a service', async () => {
    const reference = await loadServiceReference(['sqs']);
    expect(() => reference.action('sqs:SendMesage')).toThrow(UnknownActionError);
    expect(() => reference.action('sqs:SendMesage')).toThrow(
      /sqs:SendMesage is not an action .*: sqs has no such action/,
    );
    expect(() => reference.action('ec2:CreateFleet')).toThrow(/service ec2 is not loaded \(loaded: sqs\)/);
    expect(() => reference.action('SendMessage')).toThrow(/expected service:Action/);
  });

  it('refuses a service the reference does not have', async () => {
    await expect(loadServiceReference(['nosuchservice'])).rejects.toThrow(
      /service authorization reference of nosuchservice/,
    );
  });
});
