import type { SQSBatchItemFailure, SQSEvent, SQSRecord } from 'aws-lambda';
import type { ZodType } from 'zod';
import type { Log } from '../../core/ports/log.js';

/** A batch split into the messages that parsed and the ones reported back as failures. */
export interface ParsedSqsBatch<T> {
  readonly items: Array<{ messageId: string; body: T }>;
  readonly failures: SQSBatchItemFailure[];
}

/**
 * Parses each message body as JSON and validates it with `schema`. A body that is not JSON or
 * does not match is logged with its messageId and what was wrong and reported as a batch item
 * failure (after the queue's receive limit it lands in the DLQ); the rest of the batch goes on.
 */
export function parseSqsBatch<T>(event: SQSEvent, schema: ZodType<T>, log: Log): ParsedSqsBatch<T> {
  const items: Array<{ messageId: string; body: T }> = [];
  const failures: SQSBatchItemFailure[] = [];
  for (const record of event.Records ?? []) {
    const body = parseSqsRecord(record, schema, log);
    if (body === undefined) failures.push({ itemIdentifier: record.messageId });
    else items.push({ messageId: record.messageId, body });
  }
  return { items, failures };
}

/**
 * One message of a batch, parsed and validated as {@link parseSqsBatch} does; `undefined` (logged
 * with its messageId and what was wrong) when it is not JSON or does not match.
 */
export function parseSqsRecord<T>(record: SQSRecord, schema: ZodType<T>, log: Log): T | undefined {
  const problem = (reason: string) => {
    log.error('dropping malformed message', { messageId: record.messageId, reason });
    return undefined;
  };
  let json: unknown;
  try {
    json = JSON.parse(record.body);
  } catch (error) {
    return problem(`body is not JSON: ${(error as Error).message}`);
  }
  const parsed = schema.safeParse(json);
  return parsed.success
    ? parsed.data
    : problem(`body does not match: ${describeIssues(parsed.error.issues)}`);
}

function describeIssues(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): string {
  return issues
    .slice(0, 5)
    .map(
      (issue) => `${issue.path.length > 0 ? issue.path.map(String).join('.') : '(root)'}: ${issue.message}`,
    )
    .join('; ');
}
