/**
 * A non-2xx answer of the API server: the HTTP status, and the reason and message of the `Status`
 * object it sent (or the start of the body when that was not a `Status`).
 */
export class KubeApiError extends Error {
  constructor(
    /** What failed: the request (`PATCH /api/v1/nodes/n1`) or the operation (`patching node n1`). */
    readonly what: string,
    /** The HTTP status code. */
    readonly code: number,
    /** The API server's own message (`Status.message`). */
    readonly serverMessage: string,
    /** `Status.reason`, e.g. `NotFound`, `Conflict`, `TooManyRequests`. */
    readonly reason?: string,
  ) {
    super(`${what} failed (HTTP ${code}): ${serverMessage}`);
    this.name = 'KubeApiError';
  }
}

/** The HTTP status of an error the API server answered, if it is one. */
export function statusOf(error: unknown): number | undefined {
  return error instanceof KubeApiError ? error.code : undefined;
}

/** True for a 404 (object, or the whole resource type / API group, not found). */
export function isNotFound(error: unknown): boolean {
  return statusOf(error) === 404;
}

/** Runs `call`; a 404 gives `undefined`, other errors are rethrown. */
export async function orUndefined<T>(call: () => Promise<T>): Promise<T | undefined> {
  try {
    return await call();
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

/** An error that says which operation failed and why, keeping the API server's status and message. */
export function kubeError(what: string, error: unknown): Error {
  if (error instanceof KubeApiError)
    return new KubeApiError(what, error.code, error.serverMessage, error.reason);
  return new Error(`${what} failed: ${error instanceof Error ? error.message : String(error)}`, {
    cause: error,
  });
}
