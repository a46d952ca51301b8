/**
 * The state a paginated list is served from. The real API server answers every page of a list
 * (`limit` / `continue`) from the resourceVersion of its first page, so a client reading page by
 * page sees one state of the cluster, however much changes meanwhile. Here the first page of a
 * list that has more pages keeps the objects it was cut from (references: the store replaces an
 * object on every write, it never changes one), and its continue token names them. A token whose
 * state is no longer kept (only the newest {@link MAX_KEPT} are) is served from the current
 * objects after its last key, as before.
 */
import type { KubeObject } from './object-store.js';

/** Lists being read page by page at once that keep their state. */
const MAX_KEPT = 256;

/** The kept states of lists, by the id their continue tokens carry. */
export class ListSnapshots {
  private readonly kept = new Map<number, readonly KubeObject[]>();
  private nextId = 1;

  /** The id a new list's continue token carries (kept only if the list has more pages). */
  reserve(): number {
    return this.nextId++;
  }

  /** The objects of the list with id `id`, if they are still kept. */
  items(id: number | undefined): readonly KubeObject[] | undefined {
    return id === undefined ? undefined : this.kept.get(id);
  }

  /** Keeps the objects a list's first page was cut from (copied: the store's view changes). */
  keep(id: number, items: readonly KubeObject[]): void {
    this.kept.set(id, items.slice());
    if (this.kept.size > MAX_KEPT) {
      const oldest = this.kept.keys().next().value;
      if (oldest !== undefined) this.kept.delete(oldest);
    }
  }

  /** Forgets a list whose last page was served. */
  drop(id: number): void {
    this.kept.delete(id);
  }
}
