/**
 * Per-call CPU savings for joiner's AWS SDK clients, through the SDK's public configuration only.
 * Nothing here changes what is sent to AWS: the same requests, signed the same way, retried the
 * same way.
 */
import type { AuthScheme, RequestSigner } from '@smithy/types';

/** The part of an SDK client this module touches: its middleware stack. */
interface HasMiddlewareStack {
  readonly middlewareStack: { remove(toRemove: string): boolean };
}

/** The part of an SDK client's resolved configuration the shared signer touches. */
interface HasSigV4Config {
  readonly config: {
    signer: (authScheme?: AuthScheme) => Promise<RequestSigner>;
    readonly credentials?: unknown;
  };
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

/**
 * Makes `client` build its SigV4 signer once and reuse it. The SDK's signer factory (the resolved
 * `signer` of the client's configuration, which every request calls) builds a new signer on every
 * request, from a copy of the whole client configuration; the signer it builds is the same every
 * time: the factory fixes the signing region and service name on its first call, and the signer
 * holds the client's credential provider, not credentials. So the first signer the SDK's own
 * factory builds is kept and handed to every later request:
 * - credentials are still resolved on every request, through the client's memoized provider, so
 *   expiring or rotating credentials are refreshed as before; a new provider set on the client's
 *   configuration builds a new signer;
 * - each request is still signed with the region and service name the SDK resolves for it (the
 *   endpoint's auth scheme when it names them, else the signer's, which are the factory's fixed
 *   ones), at the request's own date;
 * - a factory call that fails (e.g. the region provider failing) is not kept: the next request
 *   builds again.
 */
export function withSharedSigner<T extends HasSigV4Config>(client: T): T {
  const config = client.config;
  const build = config.signer;
  let shared: Promise<RequestSigner> | undefined;
  let builtFor: unknown;
  config.signer = (authScheme) => {
    if (shared === undefined || builtFor !== config.credentials) {
      const building = build(authScheme);
      shared = building;
      builtFor = config.credentials;
      building.catch(() => {
        if (shared === building) shared = undefined;
      });
    }
    return shared;
  };
  return client;
}

/** Reads of an object inheriting from the configuration: more than V8 needs to optimize the lookup. */
const PROTOTYPE_READS = 32;

/** One property read through `probe`'s prototype (a single read site, so V8 tracks it). */
function readThrough(probe: { readonly region?: unknown }): unknown {
  return probe.region;
}

/**
 * Gives `client`'s resolved configuration fast properties again. The SDK builds the configuration
 * by many additions and an accessor redefinition, which leaves it a hash-table ("dictionary")
 * object in V8, and every request copies it whole (`{ ...config }`) three times: for endpoint
 * resolution, serialization and deserialization. Copying a dictionary object costs several times
 * what copying the same properties of a fast object costs (measured: 20-30 against 2-3 us per copy
 * of a 45-51 property SQS, EC2 or DynamoDB configuration). V8 gives an object fast properties once
 * property reads go through it as a prototype, so a throwaway object inheriting from the
 * configuration is read a few times. The configuration keeps its identity, properties, values and
 * accessors: nothing the SDK reads or sends changes; on an engine that does not do this, nothing is
 * gained and nothing else changes.
 */
export function withFastConfig<T extends { readonly config: object }>(client: T): T {
  const probe = Object.create(client.config) as { readonly region?: unknown };
  for (let i = 0; i < PROTOTYPE_READS; i++) readThrough(probe);
  return client;
}

/**
 * `client` with all of this module's per-call savings that suit any client: the SDK logger
 * middleware removed ({@link withoutSdkLogging}), one signer per client ({@link withSharedSigner})
 * and a configuration that is quick to copy ({@link withFastConfig}). Every client factory of
 * joiner's adapters passes its client here.
 */
export function leanSdkClient<T extends HasMiddlewareStack & HasSigV4Config>(client: T): T {
  return withFastConfig(withSharedSigner(withoutSdkLogging(client)));
}
