/**
 * The security review, as CDK assertions: the webhook's reserved concurrency (when asked for), cdk-nag's
 * AwsSolutions and Serverless packs clean (acknowledged findings carry a reason), and every EC2
 * write of the controller role bounded by the cluster tag.
 */
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { FUNCTIONS } from '../../functions/shared/event-sources.js';
import { createJoinerApp } from '../../lib/app.js';
import { actionsOf, findingsOf, resourcesOf, statementsOf, stubCode } from './stack-fixture.js';

const context = {
  'joiner:clusterName': 'prod',
  'joiner:account': '111111111111',
  'joiner:region': 'us-west-2',
};

describe('security review of the stack', () => {
  const { app, stack } = createJoinerApp({ context, overrides: { code: stubCode } });
  const assembly = app.synth();
  const template = Template.fromStack(stack);

  it('synthesizes with no unacknowledged AwsSolutions or Serverless finding', () => {
    const messages = findingsOf(assembly, stack);
    expect(messages).toEqual([]);
  });

  it("reserves the webhook a bounded concurrency when asked, so a flood cannot take the controllers' capacity", () => {
    expect(FUNCTIONS.webhook.reservedConcurrency).toBeGreaterThan(0);
    const recommended = createJoinerApp({
      context: { ...context, 'joiner:reservedConcurrency': 'recommended' },
      overrides: { code: stubCode },
    });
    const webhook = resourcesOf(Template.fromStack(recommended.stack), 'AWS::Lambda::Function').filter(
      ([, f]) =>
        (f.Properties.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables
          ?.JOINER_WEBHOOK_SECRET_ARN !== undefined,
    );
    expect(webhook).toHaveLength(1);
    expect(webhook[0]?.[1].Properties.ReservedConcurrentExecutions).toBe(
      FUNCTIONS.webhook.reservedConcurrency,
    );
  });

  it('bounds every EC2 write on instances, volumes, interfaces, fleets and templates by the cluster tag', () => {
    const writes =
      /^ec2:(RunInstances|CreateFleet|TerminateInstances|CreateTags|CreateLaunchTemplate|ModifyNetworkInterfaceAttribute)$/;
    const statements = statementsOf(template).filter((s) => actionsOf(s).some((a) => writes.test(a)));
    expect(statements.length).toBeGreaterThan(0);
    for (const s of statements) {
      const conditions = JSON.stringify(s.Condition ?? {});
      const tagged = /aws:(ResourceTag|RequestTag)\/joiner\.sh\/cluster/.test(conditions);
      // What a write may touch without the tag is only what it references in the same call
      // (subnets, security groups, images, capacity reservations it launches into): the statement
      // then names those resource types.
      const untaggedTypes = JSON.stringify(s.Resource ?? '');
      expect(
        tagged ||
          /(subnet|security-group|image|key-pair|launch-template|capacity-reservation)/.test(untaggedTypes),
        JSON.stringify(s),
      ).toBe(true);
    }
  });

  it("lets the functions terminate only instances carrying this stack's owner tag (its table's name)", () => {
    const terminates = statementsOf(template).filter((s) => actionsOf(s).includes('ec2:TerminateInstances'));
    expect(terminates).toHaveLength(1);
    const table = resourcesOf(template, 'AWS::DynamoDB::Table').map(([id]) => id);
    expect(table).toHaveLength(1);
    expect(terminates[0]?.Condition).toEqual({
      StringEquals: {
        'aws:ResourceTag/joiner.sh/cluster': 'prod',
        'aws:ResourceTag/joiner.sh/owner': { Ref: table[0] },
      },
    });
  });
});
