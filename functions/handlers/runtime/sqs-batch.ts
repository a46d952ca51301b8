import type { SQSBatchItemFailure, SQSEvent } from 'aws-lambda';
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
    const problem = (reason: string) => {
      log.error('dropping malformed message', { messageId: record.messageId, reason });
      failures.push({ itemIdentifier: record.messageId });
    };
    let json: unknown;
    try {
      json = JSON.parse(record.body);
    } catch (error) {
      problem(`body is not JSON: ${(error as Error).message}`);
      continue;
    }
    const parsed = schema.safeParse(json);
    if (parsed.success) items.push({ messageId: record.messageId, body: parsed.data });
    else problem(`body does not match: ${describeIssues(parsed.error.issues)}`);
  }
  return { items, failures };
}

function describeIssues(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): string {
  return issues
    .slice(0, 5)
    .map(
      (issue) => `${issue.path.length > 0 ? issue.path.map(String).join('.') : '(root)'}: ${issue.message}`,
    )
    .join('; ');
}
