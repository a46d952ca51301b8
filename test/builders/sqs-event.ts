/**
 * An SQS batch as the Lambda event source mapping hands it to a function: one record per body
 * (objects are sent as JSON, strings as they are, so a test can deliver a malformed message).
 */
import type { SQSEvent } from 'aws-lambda';

/** A batch of records from queue `queue` (its name in the ARN) carrying `bodies` in order. */
export function sqsEvent(bodies: readonly unknown[], queue = 'q'): SQSEvent {
  return {
    Records: bodies.map((body, i) => ({
      messageId: `m-${i}`,
      receiptHandle: `r-${i}`,
      body: typeof body === 'string' ? body : JSON.stringify(body),
      attributes: {} as SQSEvent['Records'][number]['attributes'],
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: `arn:aws:sqs:us-west-2:123456789012:${queue}`,
      awsRegion: 'us-west-2',
    })),
  };
}
