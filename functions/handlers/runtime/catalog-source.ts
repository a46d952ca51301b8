/**
 * The instance catalog of the planning functions (provisioner, disruption): the live snapshot the
 * catalog refresh writes, loaded at the first plan and re-loaded once it is older than its TTL
 * (the time the next spot price refresh is due); the bundled catalog, moved to the function's
 * region, when no snapshot can be read. A fallback logs a warning and counts a metric; it never
 * stops provisioning.
 */
import {
  type CatalogSnapshot,
  catalogFromSnapshot,
  catalogInRegion,
  snapshotProblem,
} from '../../core/catalog/live/catalog-snapshot.js';
import type { Catalog } from '../../core/model/instance-type.js';
import type { Clock } from '../../core/ports/clock.js';
import type { Log } from '../../core/ports/log.js';
import { CATALOG_SPOT_SCHEDULE, CATALOG_TYPES_SCHEDULE } from '../../shared/event-sources.js';

/** Where a planning function gets its catalog. */
export interface CatalogSource {
  /** The catalog to plan with now (never rejects: falls back to the bundled catalog). */
  current(): Promise<Catalog>;
}

/** A source that always gives the same catalog (`--catalog`, tests). */
export function fixedCatalogSource(catalog: Catalog): CatalogSource {
  return { current: async () => catalog };
}

/** Options of {@link SnapshotCatalogSource}. */
export interface SnapshotCatalogOptions {
  /** The functions' region: the snapshot must be of it. */
  readonly region: string;
  /** Reads the stored snapshot. */
  readonly load: () => Promise<CatalogSnapshot>;
  /** The bundled catalog. */
  readonly fallback: Catalog;
  readonly clock: Clock;
  readonly log: Log;
  /** Counts a fallback (a metric). */
  readonly onFallback?: (reason: string) => void;
}

/** Least time between two reads of the snapshot (a refresh that is due may take a few seconds). */
export const MIN_RELOAD_MS = 30_000;
/** Time before a read is tried again after the bundled catalog was used. */
export const FALLBACK_RETRY_MS = 60_000;
const SPOT_PERIOD_MS = CATALOG_SPOT_SCHEDULE.rateMinutes * 60_000;
const TYPES_PERIOD_MS = CATALOG_TYPES_SCHEDULE.rateMinutes * 60_000;
/** A spot part older than this many refresh periods is logged as stale (the refresh keeps failing). */
const STALE_PERIODS = 3;

/** The snapshot catalog, cached until its TTL; see the file comment. */
export class SnapshotCatalogSource implements CatalogSource {
  private catalog?: Catalog;
  private stamp?: string;
  private nextLoadAt = 0;
  private loading?: Promise<Catalog>;

  constructor(private readonly options: SnapshotCatalogOptions) {}

  current(): Promise<Catalog> {
    const now = this.options.clock.now();
    if (this.catalog && now < this.nextLoadAt) return Promise.resolve(this.catalog);
    this.loading ??= this.reload(now).finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  private async reload(now: number): Promise<Catalog> {
    let snapshot: CatalogSnapshot;
    try {
      snapshot = await this.options.load();
    } catch (error) {
      return this.unusable(`cannot read the catalog snapshot: ${(error as Error).message}`, now);
    }
    const problem = snapshotProblem(snapshot, this.options.region);
    if (problem) return this.unusable(problem, now);
    const types = snapshot.types as NonNullable<CatalogSnapshot['types']>;
    const stamp = `${types.fetchedAt}/${snapshot.spot?.fetchedAt ?? '-'}`;
    if (stamp !== this.stamp || !this.catalog) {
      this.catalog = catalogFromSnapshot(snapshot);
      this.stamp = stamp;
      this.options.log.info('loaded the instance catalog snapshot', {
        region: types.region,
        'instance-types': this.catalog.instanceTypes.length,
        'types-fetched-at': new Date(types.fetchedAt).toISOString(),
        'spot-fetched-at': snapshot.spot ? new Date(snapshot.spot.fetchedAt).toISOString() : 'none',
      });
    }
    const spotAt = snapshot.spot?.fetchedAt ?? Number.NEGATIVE_INFINITY;
    if (now - spotAt > STALE_PERIODS * SPOT_PERIOD_MS) {
      this.options.log.warn(
        'the spot prices of the catalog snapshot are stale; is the catalog refresh failing?',
        {
          'spot-fetched-at': Number.isFinite(spotAt) ? new Date(spotAt).toISOString() : 'never',
        },
      );
    }
    // Its TTL: the moment the next refresh is due, but not sooner than MIN_RELOAD_MS from now.
    const due = Math.min(spotAt + SPOT_PERIOD_MS, types.fetchedAt + TYPES_PERIOD_MS);
    this.nextLoadAt = Math.max(now + MIN_RELOAD_MS, Number.isFinite(due) ? due : now);
    return this.catalog;
  }

  /** Keeps the last snapshot read, else uses the bundled catalog; retries a minute later. */
  private unusable(reason: string, now: number): Catalog {
    this.nextLoadAt = now + FALLBACK_RETRY_MS;
    if (this.catalog && this.stamp) {
      this.options.log.warn('cannot reload the instance catalog snapshot; keeping the one loaded', {
        reason,
      });
      return this.catalog;
    }
    const fallback = catalogInRegion(this.options.fallback, this.options.region);
    this.options.log.warn('using the bundled instance catalog: prices and offerings may not be current', {
      reason,
      region: this.options.region,
      'bundled-region': this.options.fallback.region,
    });
    this.options.onFallback?.(reason);
    this.catalog = fallback;
    this.stamp = undefined;
    return fallback;
  }
}
