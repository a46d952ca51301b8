/**
 * The simulated API server's storage (its "etcd"): objects per resource, one global
 * resourceVersion counter, a bounded history of changes for watch resumption, and listeners.
 */
import type { ObjectMeta } from '../../../core/model/kube-objects.js';
import { deepCopy, deepCopySharing } from './deep-copy.js';

/** Any Kubernetes object as JSON. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta & Record<string, unknown>;
  [key: string]: unknown;
}

/** A change to one object. */
export interface StoreEvent {
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  /** Storage key of the resource (`group/plural`). */
  readonly resource: string;
  readonly object: KubeObject;
  /** The object before the change (MODIFIED and DELETED). */
  readonly oldObject?: KubeObject;
  readonly resourceVersion: number;
}

export type StoreListener = (event: StoreEvent) => void;

const keyOf = (namespace: string | undefined, name: string): string => `${namespace ?? ''}/${name}`;

/** The index of the first key of the sorted `keys` that is not below `key` (binary search). */
function insertionPoint(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * One resource's objects in key order (namespace, then name: etcd's order), kept in order as they
 * change: an update replaces its object in place (a binary search), a creation or removal splices
 * one slot. The array handed to readers is never changed afterwards: the first change after a read
 * copies it (copy on write), so a reader iterating it while writing sees a consistent snapshot.
 */
class OrderedBucket {
  readonly byKey = new Map<string, KubeObject>();
  private keys: string[] = [];
  private objects: KubeObject[] = [];
  /** Whether `objects` was handed to a reader since it was last copied. */
  private shared = false;

  set(key: string, object: KubeObject, isNew: boolean): void {
    this.byKey.set(key, object);
    const at = insertionPoint(this.keys, key);
    this.own();
    if (isNew) {
      this.keys.splice(at, 0, key);
      this.objects.splice(at, 0, object);
    } else this.objects[at] = object;
  }

  delete(key: string): void {
    if (!this.byKey.delete(key)) return;
    const at = insertionPoint(this.keys, key);
    this.own();
    this.keys.splice(at, 1);
    this.objects.splice(at, 1);
  }

  /** Every object, in key order (read-only: later changes do not touch it). */
  all(): readonly KubeObject[] {
    this.shared = true;
    return this.objects;
  }

  /** The objects of one namespace: a contiguous run of the key order, found by binary search. */
  inNamespace(namespace: string): readonly KubeObject[] {
    // Keys are `<namespace>/<name>`: those of the namespace lie from `<namespace>/` up to
    // `<namespace>0`, '0' being the character right after '/'.
    const from = insertionPoint(this.keys, `${namespace}/`);
    const to = insertionPoint(this.keys, `${namespace}0`);
    return this.objects.slice(from, to);
  }

  private own(): void {
    if (!this.shared) return;
    this.objects = this.objects.slice();
    this.shared = false;
  }
}

/** In-memory storage with resourceVersions and a change history. */
export class ObjectStore {
  private version = 0;
  private readonly buckets = new Map<string, OrderedBucket>();
  /** Changes still served to watch resumptions: `history` from index `historyStart` on. */
  private history: StoreEvent[] = [];
  private historyStart = 0;
  /** Highest resourceVersion no longer in the history. */
  private compactedThrough = 0;
  private readonly listeners = new Set<StoreListener>();

  constructor(private readonly historyLimit = 5000) {}

  /** The current (latest) resourceVersion. */
  currentVersion(): number {
    return this.version;
  }

  /** A copy of the object, or undefined. */
  get(resource: string, namespace: string | undefined, name: string): KubeObject | undefined {
    const obj = this.buckets.get(resource)?.byKey.get(keyOf(namespace, name));
    return obj && deepCopy(obj);
  }

  /** Copies of the objects of a resource (one namespace or all), ordered by namespace and name. */
  list(resource: string, namespace?: string): KubeObject[] {
    return this.view(resource, namespace).map((o) => deepCopy(o));
  }

  /**
   * The stored objects themselves (no copies), ordered by namespace and name: for read-only use.
   * Stored objects are never changed in place (a write stores a new object), and the array is
   * never changed once returned, so it is a consistent snapshot; callers must not modify either.
   * Costs nothing for the whole resource and a binary search plus the namespace's objects for one
   * namespace, however many writes came since the last read.
   */
  view(resource: string, namespace?: string): readonly KubeObject[] {
    const bucket = this.buckets.get(resource);
    if (!bucket) return [];
    return namespace === undefined ? bucket.all() : bucket.inNamespace(namespace);
  }

  /** The stored object itself (no copy), or undefined: for read-only use. */
  peek(resource: string, namespace: string | undefined, name: string): KubeObject | undefined {
    return this.buckets.get(resource)?.byKey.get(keyOf(namespace, name));
  }

  /** Stores a new or changed object, stamping a new resourceVersion; returns the stored copy. */
  put(resource: string, object: KubeObject): KubeObject {
    return deepCopy(this.write(resource, object));
  }

  /**
   * {@link put} for a writer that does not keep the result, or only reads it: returns the stored
   * object itself (callers must not modify it). The object is copied into the store; the parts it
   * holds by reference from the stored version it replaces (which is never changed) are kept by
   * reference rather than copied (see deepCopySharing): a status update built on the stored
   * object copies its status, not its spec.
   */
  write(resource: string, object: KubeObject): KubeObject {
    const bucket = this.buckets.get(resource) ?? new OrderedBucket();
    this.buckets.set(resource, bucket);
    const key = keyOf(object.metadata.namespace, object.metadata.name);
    const old = bucket.byKey.get(key);
    const stored = deepCopySharing(object, old);
    // The metadata gets this write's resourceVersion: it is never the old version's object.
    if (old !== undefined && stored.metadata === old.metadata) stored.metadata = { ...old.metadata };
    stored.metadata.resourceVersion = String(++this.version);
    bucket.set(key, stored, !old);
    this.record({
      type: old ? 'MODIFIED' : 'ADDED',
      resource,
      object: stored,
      oldObject: old,
      resourceVersion: this.version,
    });
    return stored;
  }

  /** Removes an object; the DELETED event carries a new resourceVersion. */
  remove(resource: string, namespace: string | undefined, name: string): KubeObject | undefined {
    const bucket = this.buckets.get(resource);
    const key = keyOf(namespace, name);
    const old = bucket?.byKey.get(key);
    if (!bucket || !old) return undefined;
    bucket.delete(key);
    // The last version with the deletion's resourceVersion, sharing the rest with the stored one
    // (neither is ever changed).
    const gone = { ...old, metadata: { ...old.metadata, resourceVersion: String(++this.version) } };
    this.record({ type: 'DELETED', resource, object: gone, oldObject: old, resourceVersion: this.version });
    return deepCopy(gone);
  }

  /** Events of a resource after `resourceVersion`, or 'expired' when history no longer reaches back. */
  eventsSince(resource: string, resourceVersion: number): StoreEvent[] | 'expired' {
    if (resourceVersion < this.compactedThrough) return 'expired';
    const out: StoreEvent[] = [];
    for (let i = this.historyStart; i < this.history.length; i++) {
      const e = this.history[i];
      if (e.resource === resource && e.resourceVersion > resourceVersion) out.push(e);
    }
    return out;
  }

  /** Drops the history (as etcd compaction does): older watch resumptions get 410 Gone. */
  compact(): void {
    this.compactedThrough = this.version;
    this.history = [];
    this.historyStart = 0;
  }

  /** Calls `listener` synchronously after every change; returns an unsubscribe function. */
  subscribe(listener: StoreListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private record(event: StoreEvent): void {
    this.history.push(event);
    if (this.history.length - this.historyStart > this.historyLimit) {
      // The oldest change falls out of the window; the array is cut only once the dropped part is
      // as long as the window, so a write costs O(1) amortized instead of shifting the window.
      this.compactedThrough = this.history[this.historyStart].resourceVersion;
      this.historyStart++;
      if (this.historyStart >= this.historyLimit) {
        this.history = this.history.slice(this.historyStart);
        this.historyStart = 0;
      }
    }
    for (const l of [...this.listeners]) l(event);
  }
}
