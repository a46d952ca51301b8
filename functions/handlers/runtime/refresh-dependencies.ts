import {
  createLiveCatalogClients,
  readSpotPart,
  readTypesPart,
} from '../../adapters/aws/live-catalog-reader.js';
import { CatalogSnapshotStore } from '../../adapters/store/catalog-snapshot-store.js';
import { createDocumentClient } from '../../adapters/store/create-state-store.js';
import type { RefreshDeps } from '../../core/catalog/live/refresh-catalog.js';
import type { Clock } from '../../core/ports/clock.js';
import { systemClock } from '../../core/ports/clock.js';
import type { Log } from '../../core/ports/log.js';
import { logger } from './lambda.js';
import { powertoolsLog } from './log.js';
import { settingsFromEnv } from './settings.js';

const cache = new Map<string, RefreshDeps>();

/**
 * What the catalog refresh needs, read from `env` (region, table, endpoint overrides) and built
 * once per environment: EC2 in the region, Pricing at the region's Pricing endpoint, the table.
 */
export function refreshDependenciesFromEnv(
  env: NodeJS.ProcessEnv,
  overrides: { clock?: Clock; log?: Log } = {},
): RefreshDeps {
  const settings = settingsFromEnv({ ...env });
  const clock = overrides.clock ?? systemClock;
  const log = overrides.log ?? powertoolsLog(logger);
  const key = JSON.stringify([settings.region, settings.tableName, settings.endpoints]);
  const cached = cache.get(key);
  if (cached && !overrides.clock && !overrides.log) return cached;
  const clients = createLiveCatalogClients({
    region: settings.region,
    ec2Endpoint: settings.endpoints.ec2,
    pricingEndpoint: settings.endpoints.pricing,
    credentials: settings.credentials,
  });
  const documents = createDocumentClient({
    region: settings.region,
    endpoint: settings.endpoints.dynamoDb,
    credentials: settings.credentials,
  });
  const deps: RefreshDeps = {
    region: settings.region,
    now: () => clock.now(),
    log,
    reader: {
      readTypes: (now) => readTypesPart(clients, now),
      readSpot: (now) => readSpotPart(clients, now),
    },
    store: new CatalogSnapshotStore(documents, settings.tableName),
  };
  if (!overrides.clock && !overrides.log) cache.set(key, deps);
  return deps;
}
