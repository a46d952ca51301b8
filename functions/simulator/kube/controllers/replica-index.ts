/**
 * The ReplicaSet controller's pod index, kept from the store's changes as the real controller's
 * informer cache is: per owner uid, its live pods and how many of them are Ready; and the pods
 * that have no owner (which a ReplicaSet whose selector matches counts, as Kubernetes' adoption
 * would). A controllers pass then reads a ReplicaSet's pods without going over every pod of its
 * namespace, so a pass costs the same with 40 pods or 4,000.
 */
import type { Pod } from '../../../core/model/kube-objects.js';
import type { KubeApi } from '../api/kube-api.js';
import type { KubeObject, StoreEvent } from '../api/object-store.js';

/** Whether a pod counts towards its ReplicaSet's replicas: not deleting, not finished. */
export const isActive = (p: Pod): boolean =>
  !p.metadata.deletionTimestamp && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed';

/** Whether a pod's Ready condition is True. */
export const isReady = (p: Pod): boolean =>
  (p.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');

const keyOf = (p: Pod): string => `${p.metadata.namespace ?? ''}/${p.metadata.name}`;

/** One owner's active pods (store key to pod) and how many of them are Ready. */
interface OwnedPods {
  readonly active: Map<string, Pod>;
  ready: number;
}

/** Live pods by owner uid, and the unowned ones; see the file's comment. */
export class ReplicaIndex {
  private readonly owned = new Map<string, OwnedPods>();
  /** Pods without owner references, active or not, by store key. */
  private readonly unowned = new Map<string, Pod>();
  private readonly unsubscribe: () => void;

  constructor(api: KubeApi) {
    this.unsubscribe = api.store.subscribe((e) => this.onEvent(e));
    for (const p of api.view(api.typeOf('v1', 'Pod')) as unknown as readonly Pod[]) this.add(p);
  }

  /** Stops following the store. */
  stop(): void {
    this.unsubscribe();
  }

  /** The active pods owned by `uid`, in no particular order (a copy). */
  activePods(uid: string): Pod[] {
    return [...(this.owned.get(uid)?.active.values() ?? [])];
  }

  /** How many active pods `uid` owns. */
  activeCount(uid: string): number {
    return this.owned.get(uid)?.active.size ?? 0;
  }

  /** How many of the active pods `uid` owns are Ready. */
  readyCount(uid: string): number {
    return this.owned.get(uid)?.ready ?? 0;
  }

  /** The pods without owner references in `namespace` (a copy; usually none). */
  unownedPods(namespace: string | undefined): Pod[] {
    if (this.unowned.size === 0) return [];
    return [...this.unowned.values()].filter((p) => p.metadata.namespace === namespace);
  }

  private onEvent(e: StoreEvent): void {
    if (e.resource !== '/pods') return;
    if (e.oldObject) this.drop(e.oldObject as unknown as Pod);
    if (e.type !== 'DELETED') this.add(e.object as unknown as Pod);
  }

  private add(p: Pod): void {
    const refs = (p.metadata as KubeObject['metadata']).ownerReferences ?? [];
    const key = keyOf(p);
    if (refs.length === 0) {
      this.unowned.set(key, p);
      return;
    }
    if (!isActive(p)) return;
    for (const r of refs) {
      const uid = r.uid ?? '';
      let entry = this.owned.get(uid);
      if (!entry) {
        entry = { active: new Map(), ready: 0 };
        this.owned.set(uid, entry);
      }
      entry.active.set(key, p);
      if (isReady(p)) entry.ready++;
    }
  }

  private drop(p: Pod): void {
    const refs = (p.metadata as KubeObject['metadata']).ownerReferences ?? [];
    const key = keyOf(p);
    if (refs.length === 0) {
      this.unowned.delete(key);
      return;
    }
    for (const r of refs) {
      const uid = r.uid ?? '';
      const entry = this.owned.get(uid);
      const was = entry?.active.get(key);
      if (!entry || !was) continue;
      entry.active.delete(key);
      if (isReady(was)) entry.ready--;
      if (entry.active.size === 0) this.owned.delete(uid);
    }
  }
}
