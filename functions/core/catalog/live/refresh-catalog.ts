/**
 * One catalog refresh: read what the schedule asks for from the live APIs and store it as the
 * region's snapshot. A spot-price refresh that finds no instance-type snapshot (first deploy, or
 * a region change) refreshes everything. A stored snapshot that cannot be read (a corrupted item)
 * is replaced whole by the next refresh of either scope, whatever its stored fetch time says.
 */
import type { Log } from '../../ports/log.js';
import type { SkippedEntry } from './api-shapes.js';
import {
  type CatalogSnapshot,
  SNAPSHOT_VERSION,
  type SpotPart,
  type TypesPart,
  UnreadableSnapshotError,
} from './catalog-snapshot.js';

/** What a refresh renews. */
export type RefreshScope = 'spot-prices' | 'catalog';

/** Reads the live APIs of one region. */
export interface LiveCatalogReader {
  readTypes(now: number): Promise<{ part: TypesPart; skipped: readonly SkippedEntry[] }>;
  readSpot(now: number): Promise<{ part: SpotPart; skipped: readonly SkippedEntry[] }>;
}

/** How a part is written. */
export interface SaveOptions {
  /**
   * Overwrite whatever is stored, newer or not: the stored part cannot be read, so its fetch time
   * cannot be trusted to order the writes.
   */
  readonly replace?: boolean;
}

/** Stores the snapshot parts. */
export interface SnapshotWriter {
  /** Both parts of `region`; throws when a stored part cannot be read. */
  load(region: string): Promise<CatalogSnapshot>;
  /** False when a newer part is already stored (never with `replace`). */
  saveTypes(part: TypesPart, options?: SaveOptions): Promise<boolean>;
  saveSpot(part: SpotPart, options?: SaveOptions): Promise<boolean>;
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
  /** True when the stored snapshot could not be read and was replaced. */
  readonly repaired?: boolean;
}

/**
 * Runs one refresh of `requested` scope: widened to `catalog` when no readable types part of this
 * version is stored; a stored snapshot that cannot be read is replaced (see the file comment).
 */
export async function refreshCatalog(deps: RefreshDeps, requested: RefreshScope): Promise<RefreshOutcome> {
  const stored = await readStored(deps);
  let scope = requested;
  if (scope === 'spot-prices' && !stored.unreadable) {
    if (!stored.snapshot.types || stored.snapshot.types.version !== SNAPSHOT_VERSION) {
      deps.log.info('no instance-type snapshot yet: refreshing the whole catalog', { region: deps.region });
      scope = 'catalog';
    }
  }
  if (stored.unreadable) scope = 'catalog';
  const save: SaveOptions = stored.unreadable ? { replace: true } : {};
  const repaired = stored.unreadable ? { repaired: true } : {};
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
    written = (await deps.store.saveSpot(spot.part, save)) && written;
    written = (await deps.store.saveTypes(types.part, save)) && written;
    return finish(deps, {
      scope,
      instanceTypes,
      spotPrices: countPrices(spot.part),
      skipped,
      written,
      ...repaired,
    });
  }
  const spot = await deps.reader.readSpot(now);
  skipped.push(...spot.skipped);
  written = await deps.store.saveSpot(spot.part);
  return finish(deps, { scope, instanceTypes, spotPrices: countPrices(spot.part), skipped, written });
}

/** The stored snapshot, or (unreadable) why it cannot be read; a failed read of the table throws. */
async function readStored(deps: RefreshDeps): Promise<{ snapshot: CatalogSnapshot; unreadable?: string }> {
  try {
    return { snapshot: await deps.store.load(deps.region) };
  } catch (error) {
    if (!(error instanceof UnreadableSnapshotError)) throw error;
    deps.log.warn('the stored catalog snapshot cannot be read: this refresh replaces it whole', {
      region: deps.region,
      error: error.message,
    });
    return { snapshot: {}, unreadable: error.message };
  }
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
  const done = outcome.repaired
    ? 'replaced the unreadable catalog snapshot'
    : 'refreshed the instance catalog';
  deps.log.info(outcome.written ? done : 'a newer catalog snapshot is already stored', {
    region: deps.region,
    scope: outcome.scope,
    'instance-types': outcome.instanceTypes,
    'spot-prices': outcome.spotPrices,
  });
  return outcome;
}
