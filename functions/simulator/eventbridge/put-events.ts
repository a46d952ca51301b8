/**
 * PutEvents as EventBridge answers it: at most 10 entries and 256 KB per request (else a
 * ValidationException for the whole call), then per-entry results with `ErrorCode` /
 * `ErrorMessage` for bad entries and a `FailedEntryCount`.
 */
import { type BusEvent, busName, type EventBusRegistry } from './event-bus.js';

/** A PutEvents request entry as the SDK sends it (JSON 1.1; `Time` in epoch seconds). */
export interface PutEventsRequestEntry {
  Source?: string;
  DetailType?: string;
  Detail?: string;
  Resources?: string[];
  Time?: number;
  EventBusName?: string;
}

/** One PutEvents result entry. */
export interface PutEventsResultEntry {
  EventId?: string;
  ErrorCode?: string;
  ErrorMessage?: string;
}

/** A request-level error (`__type` of the JSON error body). */
export class RequestError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

/** Maximum entries per PutEvents call. */
export const MAX_ENTRIES = 10;
/** Maximum total entry size per PutEvents call, in bytes. */
export const MAX_REQUEST_BYTES = 256 * 1024;

/** Runs a PutEvents request against the registry. */
export async function putEvents(
  registry: EventBusRegistry,
  body: { Entries?: unknown },
): Promise<{ FailedEntryCount: number; Entries: PutEventsResultEntry[] }> {
  const entries = body.Entries;
  if (!Array.isArray(entries) || entries.length < 1 || entries.length > MAX_ENTRIES) {
    const count = Array.isArray(entries) ? entries.length : 0;
    throw new RequestError(
      'ValidationException',
      `1 validation error detected: Value at 'entries' failed to satisfy constraint: Member must have length between 1 and ${MAX_ENTRIES} (got ${count})`,
    );
  }
  const size = entries.reduce((sum: number, entry: PutEventsRequestEntry) => sum + entrySize(entry), 0);
  if (size > MAX_REQUEST_BYTES) {
    throw new RequestError(
      'ValidationException',
      `Total size of the entries in the request is over the limit (${size} > ${MAX_REQUEST_BYTES} bytes).`,
    );
  }
  const results = await Promise.all(entries.map((entry) => putEntry(registry, entry)));
  return { FailedEntryCount: results.filter((r) => r.ErrorCode).length, Entries: results };
}

async function putEntry(
  registry: EventBusRegistry,
  entry: PutEventsRequestEntry,
): Promise<PutEventsResultEntry> {
  for (const field of ['Source', 'DetailType', 'Detail'] as const) {
    if (typeof entry[field] !== 'string' || entry[field] === '') {
      return failure(
        'InvalidArgument',
        `Parameter ${field} is not valid. Reason: ${field} is a required argument.`,
      );
    }
  }
  let detail: unknown;
  try {
    detail = JSON.parse(entry.Detail as string);
  } catch {
    return failure('MalformedDetail', 'Detail is malformed.');
  }
  if (typeof detail !== 'object' || detail === null || Array.isArray(detail)) {
    return failure('MalformedDetail', 'Detail is malformed: it must be a JSON object.');
  }
  const bus = busName(entry.EventBusName);
  if (!registry.hasBus(bus)) return failure('ResourceNotFoundException', `Event bus ${bus} does not exist.`);
  const event: BusEvent = {
    source: entry.Source as string,
    detailType: entry.DetailType as string,
    detail,
    resources: entry.Resources ?? [],
    time: typeof entry.Time === 'number' ? Math.round(entry.Time * 1000) : undefined,
  };
  return { EventId: await registry.putEvent(bus, event) };
}

function failure(ErrorCode: string, ErrorMessage: string): PutEventsResultEntry {
  return { ErrorCode, ErrorMessage };
}

/** Entry size as EventBridge counts it: time, source, detail-type, detail and resources. */
function entrySize(entry: PutEventsRequestEntry): number {
  const bytes = (s: unknown) => (typeof s === 'string' ? Buffer.byteLength(s, 'utf8') : 0);
  return (
    (entry.Time !== undefined ? 14 : 0) +
    bytes(entry.Source) +
    bytes(entry.DetailType) +
    bytes(entry.Detail) +
    (entry.Resources ?? []).reduce((sum, r) => sum + bytes(r), 0)
  );
}
