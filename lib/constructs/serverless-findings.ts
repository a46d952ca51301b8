import { Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/**
 * The cdk-nag Serverless pack's findings joiner acknowledges, each with the reason it does not
 * apply or is a deliberate choice. Every other Serverless finding fails the synth.
 */
const REASONS: Readonly<Record<string, string>> = {
  'Serverless-LambdaDLQ':
    'No function is invoked asynchronously with work to lose: the queue consumers fail messages back to their queue (redrive to a DLQ), the webhook and the installer are synchronous, and a lost sweep is replaced by the next one a minute later.',
  'Serverless-LambdaEventSourceMappingDestination':
    "Failed SQS messages reach each queue's DLQ through its redrive policy (partial batch failures); on-failure destinations on a mapping add nothing for SQS sources.",
  'Serverless-SQSRedrivePolicy':
    'These are the dead-letter queues themselves; a DLQ has no DLQ (their depth has an alarm).',
  'Serverless-EventBusDLQ':
    'Events are hints: a lost PodUnschedulable or node event is found again by the one-minute sweep (it re-lists pending pods and reconciles instances and claims), and a lost schedule tick by the next one; a lost interruption warning loses the early drain of that node, and the sweep retires its claim once the instance is gone.',
  'Serverless-LambdaTracing':
    'Each invocation logs one structured summary line and EMF metrics (the dashboard and alarms read them); X-Ray tracing would bill every invocation for no answer those do not give.',
  'Serverless-LambdaLatestVersion':
    'The runtime is pinned to nodejs22.x, the newest one joiner is built and tested for (the code also runs on Node 20); a runtime upgrade is a tested change, not an automatic one.',
  'Serverless-SNSRedrivePolicy':
    "The alarm topic's email subscription (joiner:alarmEmail): SNS retries email deliveries, and a notification that still fails leaves the alarm's state in CloudWatch, where the dashboard shows it.",
  'Serverless-LambdaDefaultMemorySize':
    "The CDK provider framework's own onEvent function (it forwards the custom resource event to the installer) keeps CDK's default.",
};

/** Acknowledges the Serverless findings of {@link REASONS} on `scope` and everything under it. */
export function acknowledgeServerlessFindings(scope: IConstruct): void {
  for (const [id, reason] of Object.entries(REASONS)) Validations.of(scope).acknowledge({ id, reason });
}
