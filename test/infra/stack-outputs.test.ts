import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { createJoinerApp } from '../../lib/app.js';
import { stubCode } from './stack-fixture.js';

describe('the stack outputs', () => {
  const { stack } = createJoinerApp({
    context: { 'joiner:clusterName': 'prod', 'joiner:account': '123456789012', 'joiner:region': 'eu-west-1' },
    overrides: { code: stubCode },
  });
  const outputs = Template.fromStack(stack).toJSON().Outputs as Record<
    string,
    { Value: unknown; Description: string }
  >;

  it('name every function, queue and dead-letter queue, the dashboard, the webhook and the node role', () => {
    expect(Object.keys(outputs).sort()).toEqual(
      [
        ...['Webhook', 'Provisioner', 'Lifecycle', 'Interruption', 'Disruption', 'Installer', 'Catalog'].map(
          (f) => `${f}FunctionName`,
        ),
        ...['Provisioning', 'Lifecycle', 'Interruption', 'Timers'].flatMap((q) => [
          `${q}QueueUrl`,
          `${q}DeadLetterQueueUrl`,
        ]),
        'DashboardUrl',
        'KarpenterDashboardUrl',
        'WebhookFunctionUrl',
        'WebhookSecretArn',
        'NodeRoleArn',
        'NodeRoleName',
        'NodeInstanceProfileName',
        'StateTableName',
        'EventBusName',
      ].sort(),
    );
    for (const [id, output] of Object.entries(outputs)) expect(output.Description, id).toBeTruthy();
  });

  it('refer to the resources they name, and link the dashboard in the stack’s region', () => {
    const json = (id: string) => JSON.stringify(outputs[id].Value);
    expect(json('ProvisionerFunctionName')).toMatch(/"Ref":"JoinerFunctionsProvisioner/);
    expect(json('ProvisioningQueueUrl')).toMatch(/"Ref":"JoinerQueuesProvisioning[0-9A-F]{8}"/);
    expect(json('NodeRoleArn')).toMatch(/"Fn::GetAtt":\["JoinerNodeRole\w+","Arn"\]/);
    expect(json('WebhookFunctionUrl')).toMatch(/"Fn::GetAtt":\["JoinerWebhookUrl\w+","FunctionUrl"\]/);
    expect(json('DashboardUrl')).toContain(
      'https://console.aws.amazon.com/cloudwatch/home?region=eu-west-1#dashboards/dashboard/',
    );
    expect(json('DashboardUrl')).toMatch(/"Ref":"JoinerDashboard\w+"/);
    expect(json('KarpenterDashboardUrl')).toMatch(/"Ref":"JoinerKarpenterDashboard\w+"/);
    // The webhook's path secret is never an output, only where it is kept.
    expect(json('WebhookSecretArn')).toMatch(/"Ref":"JoinerWebhookSecret\w+"/);
  });
});
