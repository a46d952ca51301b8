import { PricingClient } from '@aws-sdk/client-pricing';
import { pricingRegionFor } from '../../core/catalog/live/pricing-endpoint.js';
import { CACHED_MIDDLEWARE, leanSdkClient } from './lean-client.js';

/** Where to reach the Pricing API. */
export interface PricingClientOptions {
  /** The region whose prices are wanted; the client goes to its Pricing endpoint region. */
  readonly region: string;
  /** Endpoint override (the simulated cloud). */
  readonly endpoint?: string;
  readonly credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
}

/**
 * A Pricing client for `region`'s prices: the API lives in a few regions only, so the client is
 * built for the nearest of them ({@link pricingRegionFor}).
 */
export function createPricingClient(options: PricingClientOptions): PricingClient {
  return leanSdkClient(
    new PricingClient({
      ...CACHED_MIDDLEWARE,
      region: pricingRegionFor(options.region),
      maxAttempts: 8,
      retryMode: 'adaptive',
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      ...(options.credentials ? { credentials: options.credentials } : {}),
    }),
  );
}
