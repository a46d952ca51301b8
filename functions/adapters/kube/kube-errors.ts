/** The HTTP status of an error thrown by the Kubernetes client, if it carries one. */
export function statusOf(error: unknown): number | undefined {
  if (error && typeof error === 'object' && 'code' in error) {
    const code = (error as { code: unknown }).code;
    if (typeof code === 'number') return code;
  }
  return undefined;
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

/** An error that says which call failed and why, keeping the API server's message. */
export function kubeError(what: string, error: unknown): Error {
  const status = statusOf(error);
  const body = (error as { body?: unknown }).body;
  let reason = (error as Error).message ?? String(error);
  if (typeof body === 'string') {
    try {
      reason = (JSON.parse(body) as { message?: string }).message ?? reason;
    } catch {
      reason = body || reason;
    }
  }
  const wrapped = new Error(`${what} failed${status ? ` (HTTP ${status})` : ''}: ${reason}`);
  (wrapped as Error & { code?: number }).code = status;
  return wrapped;
}
