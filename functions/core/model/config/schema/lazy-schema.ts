/**
 * A schema built on its first use, then reused. zod schemas take time to construct, so each
 * configuration kind's schema is built when a document of that kind is first validated: a
 * function never builds the schemas of the kinds (and versions) it does not read. (The small
 * shared pieces in common.ts and requirement.ts are still built at import.)
 */
export function lazySchema<T>(build: () => T): () => T {
  let built: T | undefined;
  return () => {
    built ??= build();
    return built;
  };
}
