/**
 * The simulated API server's request semantics, independent of HTTP: get / list / create / replace /
 * patch / delete with resourceVersion concurrency, finalizers, status subresources and admission.
 * The HTTP layer, the simulated controllers and tests all go through it, so every write is admitted
 * (validating webhooks) exactly as on a real server.
 */
import type { SeededRandom, VirtualClock } from '../../clock.js';
import { crdSchemaOf } from '../http/crd-schema.js';
import type { AdmissionAttributes, AdmissionHook, AdmissionOperation } from './admission-types.js';
import { alreadyExists, badRequest, conflict, invalid, notFound } from './api-error.js';
import type { PodChangeCause } from './change-cause.js';
import { deepCopy } from './deep-copy.js';
import {
  continuedSnapshot,
  type ListOptions,
  type ListPage,
  paginate,
  selectorFilter,
} from './list-options.js';
import { ListSnapshots } from './list-snapshots.js';
import { defaultMetadata, defaultPod, labelNamespace, timestamp } from './object-defaults.js';
import type { KubeObject, ObjectStore } from './object-store.js';
import { applyPatch, type PatchType } from './patch.js';
import {
  apiVersionOf,
  type CrdLike,
  type ResourceRegistry,
  type ResourceType,
  storageKey,
} from './resource-registry.js';
import { admitPodRuntimeClass } from './runtime-class-admission.js';
import { assertMatchesSchema, type StructuralNode } from './schema-validation.js';

/** Per-request options. */
export interface WriteOptions {
  readonly dryRun?: boolean;
  readonly user?: string;
  /** Why a pod changes (set by the simulator's own writers, never by HTTP requests); see {@link KubeApi.changeCause}. */
  readonly cause?: PodChangeCause;
}

/** Options of a delete (DeleteOptions). */
export interface DeleteOptions extends WriteOptions {
  readonly preconditions?: { uid?: string; resourceVersion?: string };
  readonly gracePeriodSeconds?: number;
  /**
   * False for a deletion the API server makes itself, which skips admission (the eviction
   * subresource deletes its pod so: only the eviction's CREATE is admitted).
   */
  readonly admitted?: boolean;
}

/** How admission sees a subresource request whose object is of another kind (see {@link KubeApi.updateThrough}). */
export interface SubresourceView {
  /** The subresource object of a stored object (e.g. its Scale). */
  readonly view: (obj: KubeObject) => KubeObject;
  /** The kind of that object (e.g. autoscaling/v1 Scale). */
  readonly kind: { group: string; version: string; kind: string };
}

const SYSTEM_USER = 'system:admin';

/** The verbs of the simulated API server. */
export class KubeApi {
  private admission: AdmissionHook = async () => {};
  /** Called when a pod with a node gets a deletionTimestamp: the kubelet finishes the deletion. */
  gracefulPodDeletion?: (pod: KubeObject) => boolean;
  private cause?: PodChangeCause;
  /** The states paginated lists are being read from (see list-snapshots.ts). */
  private readonly listSnapshots = new ListSnapshots();

  constructor(
    readonly registry: ResourceRegistry,
    readonly store: ObjectStore,
    readonly clock: VirtualClock,
    readonly random: SeededRandom,
  ) {}

  /** Installs the admission chain (validating webhooks). */
  setAdmission(hook: AdmissionHook): void {
    this.admission = hook;
  }

  /** The type for `apiVersion` + `kind`; 404 naming both when not served. */
  typeOf(apiVersion: string, kind: string): ResourceType {
    const type = this.registry.byKind(apiVersion, kind);
    if (!type) throw notFound('kinds', '', `${kind} in ${apiVersion} (no such resource type is served)`);
    return type;
  }

  /** One object; 404 when absent. */
  get(type: ResourceType, namespace: string | undefined, name: string): KubeObject {
    const obj = this.store.get(storageKey(type), this.ns(type, namespace), name);
    if (!obj) throw notFound(type.plural, type.group, name);
    return this.present(type, obj);
  }

  /**
   * {@link get} for a reader that only serializes the object (the HTTP GET handler): the stored
   * object under the requested apiVersion and kind, a shallow copy that shares every nested value
   * with the store (stored objects are never changed in place). Callers must not modify it.
   */
  getForSerialization(type: ResourceType, namespace: string | undefined, name: string): KubeObject {
    const obj = this.store.peek(storageKey(type), this.ns(type, namespace), name);
    if (!obj) throw notFound(type.plural, type.group, name);
    return { ...obj, apiVersion: apiVersionOf(type), kind: type.kind };
  }

  /** One object or undefined. */
  find(type: ResourceType, namespace: string | undefined, name: string): KubeObject | undefined {
    const obj = this.store.get(storageKey(type), this.ns(type, namespace), name);
    return obj && this.present(type, obj);
  }

  /**
   * A filtered, paginated list. Like the API server reading etcd by key range, a page starts at
   * its continue token and filters only until the page is full; only the page's objects are copied.
   */
  list(type: ResourceType, options: ListOptions = {}): ListPage {
    const page = this.page(type, options);
    return { ...page, items: page.items.map((o) => this.present(type, deepCopy(o))) };
  }

  /**
   * {@link list} for a reader that only serializes the page (the HTTP list handler): the items are
   * the stored objects under the requested apiVersion and kind, shallow copies that share every
   * nested value with the store, so a list costs no deep copy of each object. Callers must not
   * modify them.
   */
  listForSerialization(type: ResourceType, options: ListOptions = {}): ListPage {
    const page = this.page(type, options);
    const apiVersion = apiVersionOf(type);
    return { ...page, items: page.items.map((o) => ({ ...o, apiVersion, kind: type.kind })) };
  }

  /**
   * The page `options` ask for, of stored objects. Every page of a list comes from the state of
   * its first page (see list-snapshots.ts), as the real API server serves one resourceVersion.
   */
  private page(type: ResourceType, options: ListOptions): ListPage {
    const namespace = type.namespaced ? options.namespace : undefined;
    const continued = continuedSnapshot(options);
    const kept = this.listSnapshots.items(continued);
    const all = kept ?? this.store.view(storageKey(type), namespace);
    const filter =
      options.labelSelector || options.fieldSelector ? selectorFilter({ ...options, namespace }) : undefined;
    const id = kept ? continued : this.listSnapshots.reserve();
    const page = paginate(all, options, this.store.currentVersion(), filter, id);
    if (id !== undefined && page.continue && !kept) this.listSnapshots.keep(id, all);
    if (id !== undefined && !page.continue && kept) this.listSnapshots.drop(id);
    return page;
  }

  /**
   * The stored objects matching `options` (namespace and selectors; no pagination), ordered by
   * namespace and name, without copies: for the simulator's own read-only passes. Callers must not
   * modify the objects (writes go through the verbs, which copy).
   */
  view(type: ResourceType, options: ListOptions = {}): readonly KubeObject[] {
    const namespace = type.namespaced ? options.namespace : undefined;
    const all = this.store.view(storageKey(type), namespace);
    if (!options.labelSelector && !options.fieldSelector) return all;
    return all.filter(selectorFilter({ ...options, namespace }));
  }

  /** The stored object itself or undefined, without a copy: for read-only use (see `view`). */
  peek(type: ResourceType, namespace: string | undefined, name: string): KubeObject | undefined {
    return this.store.peek(storageKey(type), this.ns(type, namespace), name);
  }

  /** Creates an object (the main resource). */
  async create(
    type: ResourceType,
    namespace: string | undefined,
    body: KubeObject,
    opts: WriteOptions = {},
  ): Promise<KubeObject> {
    const obj = deepCopy(body);
    obj.metadata ??= { name: '' };
    const ns = this.ns(type, namespace ?? obj.metadata.namespace);
    if (type.namespaced && namespace && obj.metadata.namespace && obj.metadata.namespace !== namespace) {
      throw badRequest(
        `the namespace of the provided object (${obj.metadata.namespace}) does not match the namespace sent on the request (${namespace})`,
      );
    }
    if (ns !== undefined) obj.metadata.namespace = ns;
    else delete obj.metadata.namespace;
    defaultMetadata(obj, this.random, this.clock.now());
    if (!obj.metadata.name)
      throw invalid(type.kind, '', 'metadata.name', 'Required value: name or generateName is required');
    if (ns !== undefined && type.plural !== 'namespaces' && !this.store.peek('/namespaces', undefined, ns)) {
      throw notFound('namespaces', '', ns);
    }
    if (this.store.peek(storageKey(type), ns, obj.metadata.name))
      throw alreadyExists(type.plural, type.group, obj.metadata.name);
    obj.apiVersion = apiVersionOf(type);
    obj.kind = type.kind;
    if (type.plural === 'pods' && type.group === '') {
      defaultPod(obj, this.clock.now());
      admitPodRuntimeClass(obj, (name) => this.store.get('node.k8s.io/runtimeclasses', undefined, name));
    }
    if (type.plural === 'namespaces' && type.group === '') labelNamespace(obj);
    this.validate(type, obj);
    await this.admit('CREATE', type, '', obj, undefined, opts);
    if (opts.dryRun) return obj;
    const stored = this.store.put(storageKey(type), obj);
    if (type.plural === 'customresourcedefinitions') this.registry.registerCrd(stored as unknown as CrdLike);
    return this.present(type, stored);
  }

  /** Replaces an object or its `status` subresource (PUT). */
  async replace(
    type: ResourceType,
    namespace: string | undefined,
    name: string,
    body: KubeObject,
    subresource = '',
    opts: WriteOptions = {},
  ): Promise<KubeObject> {
    const old = this.stored(type, namespace, name);
    if (body.metadata?.name && body.metadata.name !== name) {
      throw badRequest(
        `the name of the object (${body.metadata.name}) does not match the name on the URL (${name})`,
      );
    }
    const rv = body.metadata?.resourceVersion;
    if (rv && rv !== old.metadata.resourceVersion) throw conflict(type.plural, type.group, name);
    return this.write(type, old, (base) => this.merged(type, base, body, subresource), subresource, opts);
  }

  /**
   * Updates an object through a subresource whose requests carry another kind (e.g. `scale`: an
   * autoscaling/v1 Scale): `build` makes the new object of the stored one, and admission sees the
   * request as the real API server sends it, an UPDATE of the subresource whose object and
   * oldObject are `admitted.view` of the new and stored objects. A `resourceVersion` that is not the
   * stored one gives 409.
   */
  async updateThrough(
    type: ResourceType,
    namespace: string | undefined,
    name: string,
    subresource: string,
    build: (base: KubeObject) => KubeObject,
    admitted: SubresourceView,
    opts: WriteOptions & { readonly resourceVersion?: string } = {},
  ): Promise<KubeObject> {
    const old = this.stored(type, namespace, name);
    const rv = opts.resourceVersion;
    if (rv && rv !== old.metadata.resourceVersion) throw conflict(type.plural, type.group, name);
    return this.write(type, old, build, subresource, opts, admitted);
  }

  /** Patches an object or its `status` subresource. */
  async patch(
    type: ResourceType,
    namespace: string | undefined,
    name: string,
    patchType: PatchType,
    patch: unknown,
    subresource = '',
    opts: WriteOptions = {},
  ): Promise<KubeObject> {
    const old = this.stored(type, namespace, name);
    if (patchType === 'apply')
      throw badRequest('server-side apply is not supported by the simulated API server; use a merge patch');
    const patched = applyPatch(patchType, old, patch) as KubeObject;
    const rv = patched.metadata?.resourceVersion;
    if (rv && rv !== old.metadata.resourceVersion) throw conflict(type.plural, type.group, name);
    return this.write(
      type,
      old,
      (base) =>
        this.merged(
          type,
          base,
          base === old ? patched : (applyPatch(patchType, base, patch) as KubeObject),
          subresource,
        ),
      subresource,
      opts,
    );
  }

  /**
   * Why the storage write in progress changes an object: storage listeners run synchronously inside
   * the write, so they read the cause of the very change they are told about. Undefined for writes
   * that give none (status updates, creations).
   */
  get changeCause(): PodChangeCause | undefined {
    return this.cause;
  }

  /**
   * Deletes an object; with finalizers (or a pod on a running node) it only gets a deletionTimestamp.
   * The change cause is `opts.cause`, `delete` by default.
   */
  async delete(
    type: ResourceType,
    namespace: string | undefined,
    name: string,
    opts: DeleteOptions = {},
  ): Promise<KubeObject> {
    const before = this.get(type, namespace, name);
    const pre = opts.preconditions;
    if (pre?.uid && pre.uid !== before.metadata.uid)
      throw conflict(
        type.plural,
        type.group,
        name,
        `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${before.metadata.uid}`,
      );
    if (pre?.resourceVersion && pre.resourceVersion !== before.metadata.resourceVersion)
      throw conflict(type.plural, type.group, name);
    if (opts.admitted !== false) await this.admit('DELETE', type, '', undefined, before, opts);
    if (opts.dryRun) return before;
    const old = this.present(type, deepCopy(this.assertStill(type, before)));
    const finalizers = (old.metadata.finalizers?.length ?? 0) > 0;
    const isPod = type.plural === 'pods' && type.group === '';
    const graceful =
      isPod && opts.gracePeriodSeconds !== 0 && Boolean((old.spec as { nodeName?: string })?.nodeName);
    const cause = opts.cause ?? 'delete';
    if (old.metadata.deletionTimestamp && (finalizers || (graceful && this.gracefulPodDeletion))) return old;
    if (!finalizers && !(graceful && this.gracefulPodDeletion)) return this.remove(type, old, cause);
    // `old` is this request's own copy and is not returned from here on: the marked version shares it.
    const marked = { ...old, metadata: { ...old.metadata } };
    marked.metadata.deletionTimestamp = timestamp(this.clock.now());
    marked.metadata.deletionGracePeriodSeconds = opts.gracePeriodSeconds ?? (isPod ? 30 : 0);
    const stored = this.present(
      type,
      this.withCause(cause, () => this.store.put(storageKey(type), marked)),
    );
    if (finalizers || this.gracefulPodDeletion?.(stored)) return stored;
    return this.remove(type, stored, cause);
  }

  /** Removes an object from storage without admission (finalization, garbage collection). */
  remove(type: ResourceType, obj: KubeObject, cause?: PodChangeCause): KubeObject {
    const gone = this.withCause(cause, () =>
      this.store.remove(storageKey(type), obj.metadata.namespace, obj.metadata.name),
    );
    if (type.plural === 'customresourcedefinitions') this.registry.unregisterCrd(obj as unknown as CrdLike);
    return this.present(type, gone ?? obj);
  }

  /** Runs a synchronous storage write with `cause` as its {@link changeCause}. */
  private withCause<T>(cause: PodChangeCause | undefined, write: () => T): T {
    const previous = this.cause;
    this.cause = cause;
    try {
      return write();
    } finally {
      this.cause = previous;
    }
  }

  /** Runs the admission chain (exposed for subresources such as binding and eviction). */
  async admit(
    operation: AdmissionOperation,
    type: ResourceType,
    subresource: string,
    object: KubeObject | undefined,
    oldObject: KubeObject | undefined,
    opts: WriteOptions,
    extra: Partial<AdmissionAttributes> = {},
  ): Promise<void> {
    const name = object?.metadata?.name ?? oldObject?.metadata?.name ?? '';
    const namespace = object?.metadata?.namespace ?? oldObject?.metadata?.namespace;
    await this.admission({
      operation,
      type,
      subresource,
      name,
      namespace,
      object,
      oldObject,
      userInfo: { username: opts.user ?? SYSTEM_USER },
      dryRun: opts.dryRun === true,
      ...extra,
    });
  }

  /**
   * Admits and stores the object `build` makes of the stored one. `old` and the object `build`
   * gets are the stored objects themselves (see {@link stored}): `build` must not modify them, and
   * what it makes may share their parts (the store keeps shared parts by reference, as it never
   * changes a stored object); admission only reads the objects it is given. When another write landed while
   * this one was being admitted, `build` runs again on the newer object (as the real server's
   * guaranteed update does), so a status update does not undo a concurrent spec change, nor a
   * patch the fields it does not touch; the resourceVersion precondition was checked when the
   * request came. An object deleted meanwhile gives 404 (it is not brought back).
   */
  private async write(
    type: ResourceType,
    old: KubeObject,
    build: (base: KubeObject) => KubeObject,
    subresource: string,
    opts: WriteOptions,
    admitted?: SubresourceView,
  ): Promise<KubeObject> {
    let next = build(old);
    this.validate(type, next);
    if (admitted)
      await this.admit('UPDATE', type, subresource, admitted.view(next), admitted.view(old), opts, {
        requestKind: admitted.kind,
      });
    else await this.admit('UPDATE', type, subresource, next, old, opts);
    // What a dry run answers is the caller's: a copy, sharing nothing with the store.
    if (opts.dryRun) return deepCopy(next);
    const latest = this.assertStill(type, old);
    if (latest.metadata.resourceVersion !== old.metadata.resourceVersion) {
      next = build(this.presented(type, latest));
      this.validate(type, next);
    }
    if (
      next.metadata.deletionTimestamp &&
      (next.metadata.finalizers?.length ?? 0) === 0 &&
      !(type.plural === 'pods' && type.group === '')
    ) {
      return this.remove(type, next, opts.cause);
    }
    const stored = this.withCause(opts.cause, () => this.store.put(storageKey(type), next));
    if (type.plural === 'customresourcedefinitions') this.registry.registerCrd(stored as unknown as CrdLike);
    return this.present(type, stored);
  }

  /** The new object of an update: server-owned metadata kept; status or spec kept per subresource. */
  private merged(type: ResourceType, old: KubeObject, body: KubeObject, subresource: string): KubeObject {
    // `old` is the stored object (see write), never changed, and the store copies what it stores
    // but the parts it holds by reference from the stored version: the status update shares the
    // rest of the stored object instead of copying it, and so keeps its spec for the store.
    if (subresource === 'status') return { ...old, status: deepCopy(body.status) };
    if (subresource) throw badRequest(`subresource ${subresource} does not support this verb`);
    const next = deepCopy(body);
    const keep = [
      'uid',
      'creationTimestamp',
      'namespace',
      'name',
      'deletionTimestamp',
      'deletionGracePeriodSeconds',
    ] as const;
    next.metadata = { ...next.metadata };
    for (const k of keep) {
      if (old.metadata[k] !== undefined) (next.metadata as Record<string, unknown>)[k] = old.metadata[k];
      else delete next.metadata[k];
    }
    next.apiVersion = old.apiVersion;
    next.kind = old.kind;
    if (type.plural === 'namespaces' && type.group === '') labelNamespace(next);
    if (type.subresources.includes('status')) next.status = old.status;
    const specChanged = JSON.stringify(next.spec) !== JSON.stringify(old.spec);
    next.metadata.generation = Number(old.metadata.generation ?? 1) + (specChanged ? 1 : 0);
    return next;
  }

  /** A custom object against its CRD's schema (422 Invalid naming each field), as the API server checks every write. */
  private validate(type: ResourceType, obj: KubeObject): void {
    if (!type.group || type.plural === 'customresourcedefinitions') return;
    assertMatchesSchema(crdSchemaOf(this, type) as StructuralNode | undefined, type.kind, type.group, obj);
  }

  /**
   * The stored object itself, under `type`'s apiVersion and kind (a shallow copy when the store
   * holds another version): for the verbs' read-only use; 404 when absent.
   */
  private stored(type: ResourceType, namespace: string | undefined, name: string): KubeObject {
    const obj = this.store.peek(storageKey(type), this.ns(type, namespace), name);
    if (!obj) throw notFound(type.plural, type.group, name);
    return this.presented(type, obj);
  }

  /** `obj` (a stored object) under `type`'s apiVersion and kind, without changing it. */
  private presented(type: ResourceType, obj: KubeObject): KubeObject {
    const apiVersion = apiVersionOf(type);
    return obj.apiVersion === apiVersion && obj.kind === type.kind
      ? obj
      : { ...obj, apiVersion, kind: type.kind };
  }

  /** The stored object now; 404 when it went (or a namesake replaced it) while its write was admitted. */
  private assertStill(type: ResourceType, old: KubeObject): KubeObject {
    const now = this.store.peek(storageKey(type), old.metadata.namespace, old.metadata.name);
    if (!now || now.metadata.uid !== old.metadata.uid)
      throw notFound(type.plural, type.group, old.metadata.name);
    return now;
  }

  private ns(type: ResourceType, namespace: string | undefined): string | undefined {
    if (!type.namespaced) return undefined;
    if (!namespace) throw badRequest(`${type.kind} is namespaced: a namespace is required`);
    return namespace;
  }

  private present(type: ResourceType, obj: KubeObject): KubeObject {
    obj.apiVersion = apiVersionOf(type);
    obj.kind = type.kind;
    return obj;
  }
}
