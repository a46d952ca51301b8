import { CatalogSnapshotStore } from '../../adapters/store/catalog-snapshot-store.js';
import { createDocumentClient, type StateStoreOptions } from '../../adapters/store/create-state-store.js';
import type { CatalogSnapshot } from '../../core/catalog/live/catalog-snapshot.js';

/** Reads the snapshot of a region from the state table (built once per process). */
export function snapshotLoader(options: StateStoreOptions): (region: string) => Promise<CatalogSnapshot> {
  const store = new CatalogSnapshotStore(createDocumentClient(options), options.tableName);
  return (region) => store.load(region);
}
