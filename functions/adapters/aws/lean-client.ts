/**
 * Per-call CPU savings for joiner's AWS SDK clients, through the SDK's public configuration only.
 * Nothing here changes what is sent to AWS: the same requests, signed the same way, retried the
 * same way.
 */

/** The part of an SDK client this module touches: its middleware stack. */
interface HasMiddlewareStack {
  readonly middlewareStack: { remove(toRemove: string): boolean };
}

/**
 * Client configuration for a plain (not document) SDK client: `cacheMiddleware` resolves the
 * middleware stack once per command class instead of on every `send`. joiner adds no per-command
 * middleware, so the cached handler is the one every call would have built.
 *
 * Not for a DynamoDB client wrapped by `DynamoDBDocumentClient`: its commands bind the first
 * command's input into the handler they return, so a cached handler would resend that input.
 */
export const CACHED_MIDDLEWARE = { cacheMiddleware: true } as const;

/**
 * Removes the SDK's logger middleware from `client`. joiner never gives its clients a logger, so
 * the middleware only computed the sensitive-data-filtered copy of every input and output (a walk
 * of both through the operation's schema) to hand it to the SDK's no-op logger. Errors still reach
 * the caller unchanged; only that discarded log record is no longer built.
 */
export function withoutSdkLogging<T extends HasMiddlewareStack>(client: T): T {
  client.middlewareStack.remove('loggerMiddleware');
  return client;
}
