/**
 * The wire pieces of AWS's JSON 1.1 protocol shared by the simulated services that speak it
 * (EventBridge, Pricing): the response envelope, a size-capped body reader and the body parser.
 * Each service passes its own error constructor, so the errors keep its exception names.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Builds a service error: exception name, message and HTTP status. */
export type ServiceErrorFactory = (code: string, message: string, status?: number) => Error;

/** Sends `body` as an `application/x-amz-json-1.1` response with a request id. */
export function sendAwsJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body ?? {});
  res.writeHead(status, {
    'content-type': 'application/x-amz-json-1.1',
    'content-length': Buffer.byteLength(text),
    'x-amzn-requestid': randomUUID(),
  });
  res.end(text);
}

/** Reads a request body of at most `maxBytes` (a larger one is a 413 ValidationException). */
export async function readAwsJsonBody(
  req: IncomingMessage,
  maxBytes: number,
  error: ServiceErrorFactory,
): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw error('ValidationException', `request body is over ${maxBytes} bytes`, 413);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The request's JSON object (an empty body is `{}`); anything else is a SerializationException. */
export function parseAwsJsonBody(raw: string, error: ServiceErrorFactory): Record<string, unknown> {
  if (raw.length === 0) return {};
  try {
    const parsed = JSON.parse(raw);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed;
  } catch {
    // reported below
  }
  throw error('SerializationException', 'request body is not a JSON object');
}
