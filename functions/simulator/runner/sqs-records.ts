/**
 * Converts messages received with the SQS API into the records of the `SQSEvent` Lambda passes to
 * a function consuming a queue (lower-camel keys, string attributes, `eventSource: aws:sqs`).
 */
import type { Message, MessageAttributeValue } from '@aws-sdk/client-sqs';
import type { SQSMessageAttribute, SQSRecord, SQSRecordAttributes } from 'aws-lambda';

/** The queue a record came from. */
export interface RecordSource {
  readonly queueArn: string;
  readonly region: string;
}

/** The Lambda record of one received message (received with all system and message attributes). */
export function toSqsRecord(message: Message, source: RecordSource): SQSRecord {
  const attrs = message.Attributes ?? {};
  const attributes: SQSRecordAttributes = {
    ApproximateReceiveCount: attrs.ApproximateReceiveCount ?? '1',
    SentTimestamp: attrs.SentTimestamp ?? String(Date.now()),
    SenderId: attrs.SenderId ?? 'AIDAJOINERSIMULATOR',
    ApproximateFirstReceiveTimestamp: attrs.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
    ...optional('SequenceNumber', attrs.SequenceNumber),
    ...optional('MessageGroupId', attrs.MessageGroupId),
    ...optional('MessageDeduplicationId', attrs.MessageDeduplicationId),
    ...optional('AWSTraceHeader', attrs.AWSTraceHeader),
  };
  return {
    messageId: required(message.MessageId, 'MessageId'),
    receiptHandle: required(message.ReceiptHandle, 'ReceiptHandle'),
    body: message.Body ?? '',
    attributes,
    messageAttributes: Object.fromEntries(
      Object.entries(message.MessageAttributes ?? {}).map(([name, value]) => [
        name,
        toRecordAttribute(value),
      ]),
    ),
    md5OfBody: message.MD5OfBody ?? '',
    ...optional('md5OfMessageAttributes', message.MD5OfMessageAttributes),
    eventSource: 'aws:sqs',
    eventSourceARN: source.queueArn,
    awsRegion: source.region,
  };
}

function toRecordAttribute(value: MessageAttributeValue): SQSMessageAttribute {
  return {
    ...optional('stringValue', value.StringValue),
    ...optional(
      'binaryValue',
      value.BinaryValue ? Buffer.from(value.BinaryValue).toString('base64') : undefined,
    ),
    stringListValues: value.StringListValues ?? [],
    binaryListValues: (value.BinaryListValues ?? []).map((b) => Buffer.from(b).toString('base64')),
    dataType: value.DataType ?? 'String',
  };
}

function optional<K extends string>(key: K, value: string | undefined): { [P in K]?: string } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: string };
}

function required(value: string | undefined, field: string): string {
  if (value === undefined) throw new Error(`received SQS message without ${field}`);
  return value;
}
