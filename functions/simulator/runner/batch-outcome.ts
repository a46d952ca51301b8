/**
 * How Lambda reads a function's answer to an SQS batch with ReportBatchItemFailures: nothing, an
 * empty object or an empty / null `batchItemFailures` list is complete success; a list of valid
 * message ids fails exactly those; an item with a missing, empty or unknown `itemIdentifier`, or a
 * `batchItemFailures` that is not a list, fails the whole batch.
 */
import type { SQSRecord } from 'aws-lambda';
import type { BatchOutcome } from './queue-poller.js';

/** The outcome of `response` for the batch `records`. */
export function batchOutcome(response: unknown, records: readonly SQSRecord[]): BatchOutcome {
  if (response === undefined || response === null) return { failed: new Set() };
  if (typeof response !== 'object') return 'all';
  const items = (response as { batchItemFailures?: unknown }).batchItemFailures;
  if (items === undefined || items === null) return { failed: new Set() };
  if (!Array.isArray(items)) return 'all';
  const ids = new Set(records.map((record) => record.messageId));
  const failed = new Set<string>();
  for (const item of items) {
    const id = (item as { itemIdentifier?: unknown } | null)?.itemIdentifier;
    if (typeof id !== 'string' || !ids.has(id)) return 'all';
    failed.add(id);
  }
  return { failed };
}
