/**
 * One catalog refresh: read what the schedule asks for from the live APIs and store it as the
 * region's snapshot. A spot-price refresh that finds no instance-type snapshot (first deploy, or
 * a region change) refreshes everything.
 */
import type { Log } from '../../ports/log.js';
import type { SkippedEntry } from './api-shapes.js';
import { type CatalogSnapshot, SNAPSHOT_VERSION, type SpotPart, type TypesPart } from './catalog-snapshot.js';

/** What a refresh renews. */
export type RefreshScope = 'spot-prices' | 'catalog';

/** Reads the live APIs of one region. */
export interface LiveCatalogReader {
  readTypes(now: number): Promise<{ part: TypesPart; skipped: readonly SkippedEntry[] }>;
  readSpot(now: number): Promise<{ part: SpotPart; skipped: readonly SkippedEntry[] }>;
}

/** Stores the snapshot parts. */
export interface SnapshotWriter {
  load(region: string): Promise<CatalogSnapshot>;
  /** False when a newer part is already stored. */
  saveTypes(part: TypesPart): Promise<boolean>;
  saveSpot(part: SpotPart): Promise<boolean>;
}

/** What {@link refreshCatalog} needs. */
export interface RefreshDeps {
  readonly region: string;
  readonly now: () => number;
  readonly log: Log;
  readonly reader: LiveCatalogReader;
  readonly store: SnapshotWriter;
}

/** What a refresh did. */
export interface RefreshOutcome {
  readonly scope: RefreshScope;
  /** Instance types in the stored types part (0 when only spot prices were refreshed). */
  readonly instanceTypes: number;
  /** (type, zone) spot prices stored. */
  readonly spotPrices: number;
  /** Entries of the answers left out (logged with their reason). */
  readonly skipped: readonly SkippedEntry[];
  /** False when a newer snapshot was already stored (a slower concurrent refresh). */
  readonly written: boolean;
}

/** Runs one refresh of `requested` scope (widened to `catalog` when no types part is stored). */
export async function refreshCatalog(deps: RefreshDeps, requested: RefreshScope): Promise<RefreshOutcome> {
  let scope = requested;
  if (scope === 'spot-prices') {
    const stored = await deps.store.load(deps.region);
    if (!stored.types || stored.types.version !== SNAPSHOT_VERSION) {
      deps.log.info('no instance-type snapshot yet: refreshing the whole catalog', { region: deps.region });
      scope = 'catalog';
    }
  }
  const now = deps.now();
  const skipped: SkippedEntry[] = [];
  let instanceTypes = 0;
  let written = true;
  if (scope === 'catalog') {
    const [types, spot] = await Promise.all([deps.reader.readTypes(now), deps.reader.readSpot(now)]);
    if (types.part.types.length === 0) {
      throw new Error(
        `the live APIs of ${deps.region} listed no offered instance type; the snapshot is kept`,
      );
    }
    skipped.push(...types.skipped, ...spot.skipped);
    instanceTypes = types.part.types.length;
    // Spot first: a reader between the two writes sees the new spot prices with the old types
    // (or, on the first refresh, no snapshot yet), never new types without spot prices.
    written = (await deps.store.saveSpot(spot.part)) && written;
    written = (await deps.store.saveTypes(types.part)) && written;
    return finish(deps, { scope, instanceTypes, spotPrices: countPrices(spot.part), skipped, written });
  }
  const spot = await deps.reader.readSpot(now);
  skipped.push(...spot.skipped);
  written = await deps.store.saveSpot(spot.part);
  return finish(deps, { scope, instanceTypes, spotPrices: countPrices(spot.part), skipped, written });
}

function countPrices(part: SpotPart): number {
  return Object.values(part.prices).reduce((sum, zones) => sum + Object.keys(zones).length, 0);
}

function finish(deps: RefreshDeps, outcome: RefreshOutcome): RefreshOutcome {
  const { skipped } = outcome;
  if (skipped.length > 0) {
    deps.log.warn('catalog refresh left out entries it could not use', {
      count: skipped.length,
      first: skipped.slice(0, 10).map((s) => `${s.at}: ${s.reason}`),
    });
  }
  deps.log.info(
    outcome.written ? 'refreshed the instance catalog' : 'a newer catalog snapshot is already stored',
    {
      region: deps.region,
      scope: outcome.scope,
      'instance-types': outcome.instanceTypes,
      'spot-prices': outcome.spotPrices,
    },
  );
  return outcome;
}
