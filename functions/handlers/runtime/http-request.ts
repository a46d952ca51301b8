import type { APIGatewayProxyEvent, APIGatewayProxyEventV2, APIGatewayProxyResult } from 'aws-lambda';

/** An HTTP request as any of Lambda's HTTPS front doors deliver it. */
export type HttpEvent = APIGatewayProxyEvent | APIGatewayProxyEventV2;

/** The parts of an HTTP request a handler reads, whatever delivered it. */
export interface HttpRequest {
  readonly method: string;
  readonly path: string;
  /** The raw body bytes (base64 bodies decoded). */
  readonly body: Buffer;
}

/** An HTTP response in the shape every front door accepts. */
export type HttpResponse = APIGatewayProxyResult;

/**
 * Normalises a Lambda function URL / HTTP API event (payload 2.0) or a REST API event (payload
 * 1.0) into method, path and body bytes.
 */
export function httpRequestOf(event: HttpEvent): HttpRequest {
  const raw = event.body ?? '';
  const body = event.isBase64Encoded ? Buffer.from(raw, 'base64') : Buffer.from(raw, 'utf8');
  if ('rawPath' in event) {
    return { method: event.requestContext?.http?.method ?? 'POST', path: event.rawPath ?? '/', body };
  }
  return { method: event.httpMethod ?? 'POST', path: event.path ?? '/', body };
}

/** Upper bound of the body size (bytes) of an event, before decoding it. */
export function encodedBodyBytes(event: HttpEvent): number {
  const raw = event.body ?? '';
  return event.isBase64Encoded ? Math.floor((raw.length * 3) / 4) : Buffer.byteLength(raw, 'utf8');
}

/** A JSON response. */
export function jsonResponse(statusCode: number, body: unknown): HttpResponse {
  return { statusCode, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}

/** A JSON error response `{ "message": ... }`. */
export function errorResponse(statusCode: number, message: string): HttpResponse {
  return jsonResponse(statusCode, { message });
}

/** The last non-empty segment of a URL path (`/prod/abc/` -> `abc`), or undefined. */
export function lastPathSegment(path: string): string | undefined {
  const segments = path.split('/').filter((s) => s.length > 0);
  const last = segments[segments.length - 1];
  if (last === undefined) return undefined;
  try {
    return decodeURIComponent(last);
  } catch {
    // A malformed %-escape is no secret joiner generated: compared as is, it is rejected.
    return last;
  }
}
