/**
 * In-process access to the simulated cluster for tests and scenario steps: get / list / create /
 * apply / patch / delete by `apiVersion` + `kind`. Writes go through the same path as HTTP requests
 * (admission included).
 */
import { deepCopy } from './deep-copy.js';
import type { KubeApi } from './kube-api.js';
import type { ListOptions } from './list-options.js';
import type { KubeObject } from './object-store.js';

/** A typed facade over the simulated API server's verbs. */
export class ClusterStore {
  constructor(readonly api: KubeApi) {}

  /** One object, or undefined. */
  get<T = KubeObject>(apiVersion: string, kind: string, name: string, namespace?: string): T | undefined {
    return this.api.find(this.api.typeOf(apiVersion, kind), namespace, name) as T | undefined;
  }

  /** All objects of a kind matching the options (no pagination). */
  list<T = KubeObject>(
    apiVersion: string,
    kind: string,
    options: Omit<ListOptions, 'limit' | 'continue'> = {},
  ): T[] {
    return this.api.list(this.api.typeOf(apiVersion, kind), options).items as T[];
  }

  /**
   * The stored objects of a kind matching the options, without copies: for read-only passes that
   * run often (a scenario's waits poll the cluster every few milliseconds). Do not modify them.
   */
  view<T = KubeObject>(
    apiVersion: string,
    kind: string,
    options: Omit<ListOptions, 'limit' | 'continue'> = {},
  ): readonly T[] {
    return this.api.view(this.api.typeOf(apiVersion, kind), options) as readonly T[];
  }

  /** Creates an object (`apiVersion`, `kind` and `metadata` required). */
  async create<T = KubeObject>(obj: T): Promise<T> {
    const o = this.check(obj);
    return (await this.api.create(this.api.typeOf(o.apiVersion!, o.kind!), o.metadata.namespace, o)) as T;
  }

  /**
   * Creates the object or replaces the existing one: spec, labels and annotations become the
   * manifest's, the status stays (unless the manifest gives one) and so do finalizers the manifest
   * does not list, as `kubectl apply` leaves fields it does not manage. Its resourceVersion is ignored.
   */
  async apply<T = KubeObject>(obj: T): Promise<T> {
    const o = this.check(obj);
    const type = this.api.typeOf(o.apiVersion!, o.kind!);
    const existing = this.api.find(type, o.metadata.namespace, o.metadata.name);
    if (!existing) return (await this.api.create(type, o.metadata.namespace, o)) as T;
    const finalizers = o.metadata.finalizers ?? existing.metadata.finalizers;
    const next = {
      ...deepCopy(o),
      metadata: { ...o.metadata, resourceVersion: undefined, ...(finalizers ? { finalizers } : {}) },
    };
    let stored = await this.api.replace(type, o.metadata.namespace, o.metadata.name, next);
    if (o.status !== undefined && type.subresources.includes('status')) {
      stored = await this.api.replace(
        type,
        o.metadata.namespace,
        o.metadata.name,
        { ...stored, status: o.status },
        'status',
      );
    }
    return stored as T;
  }

  /** Merge-patches an object (or its status with `subresource: 'status'`). */
  async patch<T = KubeObject>(
    apiVersion: string,
    kind: string,
    name: string,
    namespace: string | undefined,
    patch: Record<string, unknown>,
    subresource = '',
  ): Promise<T> {
    return (await this.api.patch(
      this.api.typeOf(apiVersion, kind),
      namespace,
      name,
      'merge',
      patch,
      subresource,
    )) as T;
  }

  /** Deletes an object (finalizers and pod grace periods apply). */
  async delete(apiVersion: string, kind: string, name: string, namespace?: string): Promise<void> {
    await this.api.delete(this.api.typeOf(apiVersion, kind), namespace, name);
  }

  /** Drops the watch history, so that watches resuming from older versions get 410 Gone. */
  compact(): void {
    this.api.store.compact();
  }

  private check(obj: unknown): KubeObject {
    const o = obj as KubeObject;
    if (!o?.apiVersion || !o.kind || !o.metadata?.name) {
      throw new Error(
        `object needs apiVersion, kind and metadata.name, got ${JSON.stringify(obj).slice(0, 200)}`,
      );
    }
    return o;
  }
}
