import { bundledCatalog } from '../../core/catalog/bundled.js';
import type { CatalogSnapshot } from '../../core/catalog/live/catalog-snapshot.js';
import type { Catalog } from '../../core/model/instance-type.js';
import type { Clock } from '../../core/ports/clock.js';
import type { Log } from '../../core/ports/log.js';
import { METRIC_NAMES } from '../../shared/metrics.js';
import { type CatalogSource, fixedCatalogSource, SnapshotCatalogSource } from './catalog-source.js';
import { recordMetrics } from './lambda.js';
import { type PortDependencies, portDependenciesFromEnv } from './port-dependencies.js';
import type { Settings } from './settings.js';

export type { Settings } from './settings.js';

/** Everything a handler may need: the {@link PortDependencies} and the instance catalog. */
export interface Dependencies extends PortDependencies {
  /** The bundled catalog, or the `catalog` override (what plans use when no `catalogSource` is given). */
  catalog: Catalog;
  /**
   * The catalog to plan with: the live snapshot of the region (re-loaded after its TTL), the
   * bundled catalog as a logged fallback; or the `catalog` override, when one is given.
   */
  catalogSource: CatalogSource;
}

/** The module of the snapshot store, imported on the first load (a chunk of its own). */
export const SNAPSHOT_STORE_MODULE = () => import('./snapshot-loader.js');

/**
 * The dependencies of a handler, read from `env`. The catalog is joiner's bundled one (or the
 * `catalog` override); the catalog source reads the live snapshot from the state table (one per
 * environment, clock and log, so a warm function keeps its loaded snapshot). See
 * {@link portDependenciesFromEnv} for how the other members are built, cached and overridden.
 */
export function dependenciesFromEnv(
  env: NodeJS.ProcessEnv,
  overrides: Partial<Dependencies> = {},
): Dependencies {
  const { catalog, catalogSource, ...ports } = overrides;
  const deps = portDependenciesFromEnv(env, ports) as Dependencies;
  Object.defineProperty(deps, 'catalog', { enumerable: true, get: () => catalog ?? bundledCatalog });
  let source = catalogSource ?? (catalog ? fixedCatalogSource(catalog) : undefined);
  Object.defineProperty(deps, 'catalogSource', {
    enumerable: true,
    get: () => {
      source ??= snapshotSourceFor(deps.settings, deps.clock, deps.log);
      return source;
    },
  });
  return deps;
}

const sources = new Map<string, CatalogSource>();
const identities = new WeakMap<object, number>();
let nextIdentity = 0;

function identity(value: object): number {
  let id = identities.get(value);
  if (id === undefined) {
    id = ++nextIdentity;
    identities.set(value, id);
  }
  return id;
}

/** The snapshot source of one table, region, clock and log (kept for the life of the process). */
function snapshotSourceFor(settings: Settings, clock: Clock, log: Log): CatalogSource {
  const key = JSON.stringify([
    settings.region,
    settings.tableName,
    settings.endpoints.dynamoDb ?? '',
    identity(clock),
    identity(log),
  ]);
  let source = sources.get(key);
  if (!source) {
    const options = {
      tableName: settings.tableName,
      region: settings.region,
      endpoint: settings.endpoints.dynamoDb,
      credentials: settings.credentials,
    };
    let loader: Promise<(region: string) => Promise<CatalogSnapshot>> | undefined;
    source = new SnapshotCatalogSource({
      region: settings.region,
      fallback: bundledCatalog,
      clock,
      log,
      load: async () => {
        loader ??= SNAPSHOT_STORE_MODULE().then((m) => m.snapshotLoader(options));
        return (await loader)(settings.region);
      },
      onFallback: () => recordMetrics({ [METRIC_NAMES.catalogFallbacks]: 1 }),
    });
    if (sources.size >= 32) sources.delete(sources.keys().next().value as string);
    sources.set(key, source);
  }
  return source;
}
