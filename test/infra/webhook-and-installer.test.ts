import { Template } from 'aws-cdk-lib/assertions';
import { Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { describe, expect, it } from 'vitest';
import { joinerManifests, WEBHOOK_SECRET_PLACEHOLDER } from '../../functions/core/install/index.js';
import { createDisruptionHandler } from '../../functions/handlers/disruption.js';
import { ENV } from '../../functions/shared/env.js';
import { createLambdaContext } from '../../functions/simulator/runner/lambda-context.js';
import { scheduledEvent } from '../../functions/simulator/runner/schedules.js';
import { ClusterInstaller } from '../../lib/constructs/cluster-installer.js';
import { SweepSchedule } from '../../lib/constructs/sweep-schedule.js';
import { WebhookEndpoint } from '../../lib/constructs/webhook-endpoint.js';
import { bareStack, resourcesOf, stubCode } from './stack-fixture.js';

const fn = (stack: ReturnType<typeof bareStack>, id: string) =>
  new LambdaFunction(stack, id, { runtime: Runtime.NODEJS_22_X, handler: 'index.handler', code: stubCode() });

describe('WebhookEndpoint', () => {
  const stack = bareStack();
  const webhook = fn(stack, 'Webhook');
  const endpoint = new WebhookEndpoint(stack, 'Endpoint', { function: webhook });
  const template = Template.fromStack(stack);

  it('is a function URL without IAM auth (the secret path is checked in the function)', () => {
    template.hasResourceProperties('AWS::Lambda::Url', { AuthType: 'NONE' });
    expect(endpoint.webhookUrl).toContain(WEBHOOK_SECRET_PLACEHOLDER);
  });

  it('generates a URL-safe secret the function can read by ARN', () => {
    template.hasResourceProperties('AWS::SecretsManager::Secret', {
      GenerateSecretString: { ExcludePunctuation: true, IncludeSpace: false, PasswordLength: 40 },
    });
    const [[, lambda]] = resourcesOf(template, 'AWS::Lambda::Function');
    expect(lambda.Properties.Environment).toEqual({
      Variables: {
        [ENV.webhookSecretArn]: { Ref: stack.getLogicalId(endpoint.secret.node.defaultChild as never) },
      },
    });
    const policy = JSON.stringify(resourcesOf(template, 'AWS::IAM::Policy'));
    expect(policy).toContain('secretsmanager:GetSecretValue');
  });
});

describe('ClusterInstaller', () => {
  const stack = bareStack();
  const manifests = joinerManifests({ webhookUrl: `https://hook.example/${WEBHOOK_SECRET_PLACEHOLDER}` });
  const documents = [{ file: 'nodepool.yaml', content: 'apiVersion: karpenter.sh/v1\nkind: NodePool\n' }];
  const installer = fn(stack, 'Installer');
  const dependency = fn(stack, 'MustExistFirst');
  new ClusterInstaller(stack, 'Install', {
    function: installer,
    clusterName: 'prod',
    manifests,
    documents,
    webhookSecretArn: 'arn:aws:secretsmanager:us-west-2:111111111111:secret:hook',
    dependsOn: [dependency],
  });
  const template = Template.fromStack(stack);
  const [[, resource]] = resourcesOf(template, 'Custom::JoinerClusterInstall') as [
    string,
    Record<string, any>,
  ][];

  it('hands the manifests and the NodePool documents to the installer as JSON', () => {
    expect(resource.Properties.ClusterName).toBe('prod');
    expect(JSON.parse(resource.Properties.Manifests)).toEqual(manifests);
    expect(JSON.parse(resource.Properties.Documents)).toEqual(documents);
    expect(resource.Properties.WebhookSecretArn).toContain(':secret:hook');
  });

  it('runs after what it depends on, through a Provider backed by the installer function', () => {
    expect(resource.DependsOn).toEqual(
      expect.arrayContaining([stack.getLogicalId(dependency.node.defaultChild as never)]),
    );
    const providerFunctions = resourcesOf(template, 'AWS::Lambda::Function').filter(([, f]) =>
      JSON.stringify(f.Properties.Environment ?? {}).includes('USER_ON_EVENT_FUNCTION_ARN'),
    );
    expect(providerFunctions).toHaveLength(1);
  });
});

const LAMBDA_ENV = { region: 'us-west-2', account: '123456789012', functionPrefix: 'joiner' };

describe('SweepSchedule', () => {
  it('invokes the function every minute', () => {
    const stack = bareStack();
    const disruption = fn(stack, 'Disruption');
    new SweepSchedule(stack, 'Sweep', { function: disruption });
    const template = Template.fromStack(stack);
    const [[, rule]] = resourcesOf(template, 'AWS::Events::Rule') as [string, Record<string, any>][];
    expect(rule.Properties.ScheduleExpression).toBe('rate(1 minute)');
    expect(rule.Properties.Targets[0].Arn).toEqual({
      'Fn::GetAtt': [stack.getLogicalId(disruption.node.defaultChild as never), 'Arn'],
    });
    template.hasResourceProperties('AWS::Lambda::Permission', { Principal: 'events.amazonaws.com' });
  });

  it('delivers the Scheduled Event the disruption handler runs the sweep for (no input of its own)', async () => {
    const stack = bareStack();
    new SweepSchedule(stack, 'Sweep', { function: fn(stack, 'Disruption') });
    const [[, rule]] = resourcesOf(Template.fromStack(stack), 'AWS::Events::Rule') as unknown as [
      string,
      { Properties: { Targets: Record<string, unknown>[] } },
    ][];
    const target = rule.Properties.Targets[0];
    expect(target.Input ?? target.InputPath ?? target.InputTransformer).toBeUndefined();
    // What EventBridge then sends, as the simulator's runner builds it, is a sweep for the handler.
    const sweepStarted = new Error('sweep started');
    const ports = {
      log: { debug() {}, info() {}, warn() {}, error() {} },
      clock: { now: () => 0 },
      store: {
        listDueNodeClaims: async () => {
          throw sweepStarted;
        },
      },
    };
    const handler = createDisruptionHandler(() => ports as never);
    const context = createLambdaContext(LAMBDA_ENV, 'disruption', 5_000);
    const event = scheduledEvent(
      'arn:aws:events:us-west-2:123456789012:rule/r',
      'us-west-2',
      '123456789012',
      0,
    );
    await expect(handler(event as never, context)).rejects.toBe(sweepStarted);
    // A custom input in its place would not be taken for a sweep.
    const custom = { source: 'joiner.schedule', 'detail-type': 'Sweep' };
    await expect(handler(custom as never, context)).rejects.toThrow(/expected a Scheduled Event/);
  });
});
