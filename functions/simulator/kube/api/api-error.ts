/**
 * Kubernetes API errors as the real API server reports them: an HTTP code plus a `Status` body
 * (`kind: Status, status: Failure, reason, message, details, code`).
 */

/** Reasons the simulated API server uses (the real `metav1.StatusReason` values). */
export type StatusReason =
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Invalid'
  | 'BadRequest'
  | 'TooManyRequests'
  | 'Expired'
  | 'Gone'
  | 'MethodNotAllowed'
  | 'UnsupportedMediaType'
  | 'InternalError'
  | 'Forbidden'
  | 'Unauthorized'
  | 'ServiceUnavailable';

/** One cause in `Status.details.causes`. */
export interface StatusCause {
  readonly reason?: string;
  readonly message?: string;
  readonly field?: string;
}

/** An error answered to the client as a Kubernetes `Status` with an HTTP status code. */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly reason: StatusReason,
    message: string,
    readonly details: { name?: string; group?: string; kind?: string; causes?: StatusCause[] } = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The `Status` object sent as the response body. */
  toStatus(): Record<string, unknown> {
    return {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: this.message,
      reason: this.reason,
      details: this.details,
      code: this.code,
    };
  }
}

/** A `Status` reporting success (what eviction and binding answer). */
export function successStatus(code = 201): Record<string, unknown> {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code };
}

/** 404: `<plural>.<group> "<name>" not found`, worded like the real server. */
export function notFound(plural: string, group: string, name: string): ApiError {
  const what = group ? `${plural}.${group}` : plural;
  return new ApiError(404, 'NotFound', `${what} "${name}" not found`, { name, group, kind: plural });
}

/** 409: `<plural> "<name>" already exists`. */
export function alreadyExists(plural: string, group: string, name: string): ApiError {
  const what = group ? `${plural}.${group}` : plural;
  return new ApiError(409, 'AlreadyExists', `${what} "${name}" already exists`, {
    name,
    group,
    kind: plural,
  });
}

/** 409 on a stale resourceVersion. */
export function conflict(plural: string, group: string, name: string, why?: string): ApiError {
  const what = group ? `${plural}.${group}` : plural;
  const message =
    why ?? 'the object has been modified; please apply your changes to the latest version and try again';
  return new ApiError(409, 'Conflict', `Operation cannot be fulfilled on ${what} "${name}": ${message}`, {
    name,
    group,
    kind: plural,
  });
}

/** 422: the object is invalid; `field` names the offending field path. */
export function invalid(kind: string, name: string, field: string, message: string): ApiError {
  return new ApiError(422, 'Invalid', `${kind} "${name}" is invalid: ${field}: ${message}`, {
    name,
    kind,
    causes: [{ reason: 'FieldValueInvalid', message, field }],
  });
}

/** 403: `<plural> "<name>" is forbidden: <why>` (an admission plugin's refusal). */
export function forbidden(plural: string, group: string, name: string, why: string): ApiError {
  const what = group ? `${plural}.${group}` : plural;
  return new ApiError(403, 'Forbidden', `${what} "${name}" is forbidden: ${why}`, {
    name,
    group,
    kind: plural,
  });
}

/** 400 with a message naming what was wrong. */
export function badRequest(message: string): ApiError {
  return new ApiError(400, 'BadRequest', message);
}
