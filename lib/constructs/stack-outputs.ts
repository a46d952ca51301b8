import { CfnOutput, Stack } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { FUNCTIONS, type FunctionName, type QueueName } from '../../functions/shared/event-sources.js';
import type { Joiner } from '../joiner.js';

/** Properties of {@link StackOutputs}. */
export interface StackOutputsProps {
  /** The deployed joiner whose names and addresses become outputs. */
  readonly joiner: Joiner;
}

const QUEUES: readonly QueueName[] = ['provisioning', 'lifecycle', 'interruption', 'timers'];

const pascal = (name: string): string => name.charAt(0).toUpperCase() + name.slice(1);

/**
 * The CloudFormation outputs of the stack: what a user looks up after `cdk deploy` (and `aws
 * cloudformation describe-stacks` prints): each function's name (for logs and invocations), each
 * work queue's and dead-letter queue's URL, the operations dashboard's console URL, the webhook's
 * function URL (its path secret stays in Secrets Manager: the output names the secret's ARN, not
 * its value), the node role and instance profile, the state table and the event bus.
 */
export class StackOutputs extends Construct {
  /** Output id to output, e.g. `ProvisionerFunctionName`. */
  readonly outputs: Readonly<Record<string, CfnOutput>>;

  constructor(scope: Construct, id: string, props: StackOutputsProps) {
    super(scope, id);
    const { joiner } = props;
    const outputs: Record<string, CfnOutput> = {};
    // Outputs sit at the stack level so their logical ids are the short names users read.
    const stack = Stack.of(this);
    const output = (name: string, value: string, description: string): void => {
      outputs[name] = new CfnOutput(stack, name, { value, description });
    };
    for (const name of Object.keys(FUNCTIONS) as FunctionName[]) {
      output(
        `${pascal(name)}FunctionName`,
        joiner.functions.functions[name].functionName,
        `Lambda function of joiner's ${name} (its logs: /aws/lambda/<name>)`,
      );
    }
    for (const name of QUEUES) {
      output(`${pascal(name)}QueueUrl`, joiner.queues.queue(name).queueUrl, `SQS queue of ${name} work`);
      output(
        `${pascal(name)}DeadLetterQueueUrl`,
        joiner.queues.deadLetterQueue(name).queueUrl,
        `Where ${name} messages go after their retries`,
      );
    }
    const dashboardUrl = (name: string) =>
      `https://console.aws.amazon.com/cloudwatch/home?region=${stack.region}#dashboards/dashboard/${name}`;
    output(
      'DashboardUrl',
      dashboardUrl(joiner.dashboard.dashboard.dashboardName),
      "joiner's CloudWatch operations dashboard",
    );
    output(
      'KarpenterDashboardUrl',
      dashboardUrl(joiner.karpenterDashboard.dashboard.dashboardName),
      "Karpenter's capacity and performance panels over joiner's Karpenter-named metrics",
    );
    output(
      'WebhookFunctionUrl',
      joiner.webhook.functionUrl.url,
      'Function URL of the admission webhook (the path secret is in WebhookSecretArn)',
    );
    output('WebhookSecretArn', joiner.webhook.secret.secretArn, 'Secret holding the webhook path secret');
    output('NodeRoleArn', joiner.nodeRole.role.roleArn, 'IAM role of the nodes joiner launches');
    output('NodeRoleName', joiner.nodeRole.role.roleName, 'Name to put in an EC2NodeClass spec.role');
    output(
      'NodeInstanceProfileName',
      joiner.nodeRole.instanceProfile.instanceProfileName,
      'Instance profile of the nodes joiner launches',
    );
    output('StateTableName', joiner.table.table.tableName, "DynamoDB table of joiner's state");
    output('EventBusName', joiner.events.bus.eventBusName, "EventBridge bus of joiner's events");
    this.outputs = outputs;
  }
}
