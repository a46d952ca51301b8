/**
 * `load`, run once and its result shared by every call (concurrent ones included); a failed load
 * is not kept, so the next call runs it again.
 */
export function cachedUntilFailure<T>(load: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined;
  return () => {
    value ??= load().catch((error: unknown) => {
      value = undefined;
      throw error;
    });
    return value;
  };
}
