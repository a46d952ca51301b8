/**
 * What the provisioner function receives from its queue: SQS records (as the Lambda event source
 * mapping builds them) whose bodies are joiner's PodUnschedulable events, and a Lambda context.
 */
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { DETAIL_TYPES, JOINER_EVENT_SOURCE } from '../../functions/shared/event-rules.js';
import { createLambdaContext } from '../../functions/simulator/runner/lambda-context.js';

/** One record of the provisioning queue carrying `body`. */
export function provisioningRecord(messageId: string, body: string): SQSRecord {
  return {
    messageId,
    receiptHandle: `rh-${messageId}`,
    body,
    attributes: {
      ApproximateReceiveCount: '1',
      SentTimestamp: '0',
      SenderId: 'events',
      ApproximateFirstReceiveTimestamp: '0',
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-west-2:123456789012:joiner-provisioning',
    awsRegion: 'us-west-2',
  };
}

/** The EventBridge envelope of a PodUnschedulable hint for pod `default/name`. */
export function podUnschedulableEnvelope(name: string, uid = `uid-${name}`): string {
  return JSON.stringify({
    id: `evt-${uid}`,
    'detail-type': DETAIL_TYPES.podUnschedulable,
    source: JOINER_EVENT_SOURCE,
    time: '2025-01-01T00:00:00Z',
    detail: { namespace: 'default', name, uid },
  });
}

/** One PodUnschedulable record per pod name. */
export function podUnschedulableEvent(names: readonly string[]): SQSEvent {
  return { Records: names.map((name, i) => provisioningRecord(`m${i}`, podUnschedulableEnvelope(name))) };
}

/** The Lambda context of a provisioner invocation. */
export function provisionerContext(): Context {
  return createLambdaContext(
    { region: 'us-west-2', account: '123456789012', functionPrefix: 'joiner' },
    'provisioner',
    60_000,
  );
}
